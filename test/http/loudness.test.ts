import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compressedFormats } from '../../src/speech/audio/compressed-formats.ts';
import { streamFormats } from '../../src/speech/audio/formats.ts';
import { TRUE_PEAK_CEILING_DBTP } from '../../src/speech/audio/level.ts';
import { LOUDNESS_TARGET_LUFS } from '../../src/speech/loudness/calibration.ts';
import type { LanguageCode } from '../../src/speech/text/verbalizer.ts';
import { builtInVoices, findVoice, type Voice } from '../../src/speech/voices/voices.ts';
import { type LoudnessReading, measureLoudness, noDecoder } from '../helpers/decoder.ts';
import { rotate, withKey, withTtsApp } from '../helpers/tts-fixture.ts';

// Every voice at the one loudness target, with its true peak under the ceiling, as an independent
// meter (ffmpeg's EBU R128 `ebur128`) reads the audio the endpoints deliver: the file endpoint's
// WAV and the stream endpoint's mu-law for every voice, every other format for the voices whose
// peaks the limiter holds most. The sentences are receptionist turns the calibration did not use
// (it measures the first fifteen of bench/turns.json; these are later ones).

const sentences: Readonly<Record<LanguageCode, string>> = {
  rw: "Mwakiriwe neza. Ndabahuza n'ushinzwe abakiriya. Mubyemeje, cyangwa mushaka kubitekerezaho? Mushobora kwishyura na Mobile Money cyangwa mu ntoki.",
  en: "The total comes to twelve thousand five hundred francs. I'm afraid that slot is taken. How about Thursday morning? Please arrive fifteen minutes before your appointment.",
  fr: 'Le total s’élève à douze mille cinq cents francs. Ce créneau est déjà pris. Jeudi matin vous conviendrait-il ? Merci d’arriver quinze minutes avant votre rendez-vous.',
};
/** How far a voice's loudness on these sentences may be from the target. */
const TOLERANCE_LU = 1;

const nameOf = (voice: Voice) => `${voice.name} (${voice.language}/${voice.speakerId})`;

describe('every voice at one loudness, under the true-peak ceiling (ffmpeg ebur128)', {
  skip: noDecoder,
}, () => {
  const suite = withTtsApp();
  let nextKey: (() => string) | undefined;
  const key = async () => {
    if (!nextKey) {
      const { keys } = await suite.fixture.newPayingAccount({ keys: 6, topUp: 10_000 });
      nextKey = rotate(keys);
    }
    return nextKey();
  };
  const post = async (url: string, payload: Record<string, unknown>) => {
    const response = await suite.fixture.app.inject({
      method: 'POST',
      url,
      headers: withKey(await key()),
      payload,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  };
  /** The file endpoint's audio of `input`, downloaded. */
  const file = async (voice: Voice, input: string, outputFormat = 'wav'): Promise<Uint8Array> => {
    const { language, speakerId } = voice;
    const response = await post('/api/v1/tts.php', {
      input,
      language,
      speaker_id: speakerId,
      output_format: outputFormat,
    });
    const download = await suite.fixture.app.inject({
      method: 'GET',
      url: new URL(response.json().output_url).pathname,
    });
    assert.equal(download.statusCode, 200);
    return download.rawPayload;
  };
  /** The stream endpoint's bytes of `input` in `format`. */
  const stream = async (voice: Voice, input: string, format: keyof typeof streamFormats) => {
    const { language, speakerId } = voice;
    const response = await post('/api/v1/tts-stream.php', { input, language, speaker_id: speakerId, format });
    return response.rawPayload;
  };
  const streamed = async (
    voice: Voice,
    format: keyof typeof streamFormats,
    input = sentences[voice.language],
  ) => {
    const { sampleRate, encoding } = streamFormats[format];
    const raw = encoding === 'pcm_s16le' ? 's16le' : encoding;
    return measureLoudness(await stream(voice, input, format), { format: raw, sampleRate });
  };
  const assertCalibrated = (reading: LoudnessReading, what: string) => {
    assert.ok(
      Math.abs(reading.integrated - LOUDNESS_TARGET_LUFS) <= TOLERANCE_LU,
      `${what}: ${reading.integrated} LUFS, the target is ${LOUDNESS_TARGET_LUFS} ±${TOLERANCE_LU}`,
    );
    assertUnderCeiling(reading, what);
  };
  const assertUnderCeiling = (reading: LoudnessReading, what: string) => {
    assert.ok(
      reading.truePeak < TRUE_PEAK_CEILING_DBTP,
      `${what}: true peak ${reading.truePeak} dBTP, the ceiling is ${TRUE_PEAK_CEILING_DBTP}`,
    );
  };

  for (const voice of builtInVoices) {
    it(`${nameOf(voice)}: the file's WAV and the mu-law stream at the target, under the ceiling`, async () => {
      assertCalibrated(
        await measureLoudness(await file(voice, sentences[voice.language])),
        `${nameOf(voice)} WAV`,
      );
      assertCalibrated(await streamed(voice, 'mulaw_8k'), `${nameOf(voice)} mulaw_8k`);
    });
  }

  // The voices the calibration lifts most (their engines' peaks are highest for their loudness):
  // the limiter holds their peaks in every format, resampled, in G.711 and encoded.
  for (const voice of [findVoice('fr', 1), findVoice('en', 1)] as Voice[]) {
    it(`${nameOf(voice)}: every stream and file format at the target, under the ceiling`, async () => {
      for (const format of Object.keys(streamFormats) as (keyof typeof streamFormats)[])
        assertCalibrated(await streamed(voice, format), `${nameOf(voice)} ${format}`);
      for (const format of Object.keys(compressedFormats))
        assertCalibrated(
          await measureLoudness(await file(voice, sentences[voice.language], format)),
          `${nameOf(voice)} ${format}`,
        );
    });
  }

  it('speaks a short clause as loud as a long one: the gain is the voice’s, not the clause’s', async () => {
    const voice = findVoice('en', 0) as Voice;
    const short = await streamed(voice, 'pcm16_16k', 'Thank you.');
    const long = await streamed(
      voice,
      'pcm16_16k',
      'Your appointment with the dentist is confirmed for Tuesday morning at half past ten, on the second floor',
    );
    assert.ok(
      Math.abs(short.integrated - long.integrated) <= 2,
      `short clause ${short.integrated} LUFS, long clause ${long.integrated} LUFS`,
    );
    assertUnderCeiling(short, 'short clause');
  });
});
