import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeMulaw } from '../../src/speech/audio/g711.ts';
import { TRUE_PEAK_CEILING_DBTP } from '../../src/speech/audio/level.ts';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import { parseWav } from '../../src/speech/audio/wav.ts';
import { LOUDNESS_TARGET_LUFS } from '../../src/speech/loudness/calibration.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { measureLoudness, noDecoder } from '../helpers/decoder.ts';
import { LiveClient } from '../helpers/live-client.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  waitUntil,
  withKey,
} from '../helpers/tts-fixture.ts';
import { assignTinyPack } from '../helpers/voice-packs.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

// A neural voice pack installed and assigned to Kinyarwanda speaker 1 (Mugisha), as an operator
// does it, then every endpoint asked for that voice: the listing, the file and stream endpoints,
// the OpenAI-compatible one, the live WebSocket and the studio. The pack is a tiny MMS model
// (test/helpers/tiny-onnx.ts) at 16 kHz, where the built-in voices speak at 22050 and 16000 Hz.

const ORIGIN = 'http://127.0.0.1';
const PACK_RATE = 16_000;
const TEXT = 'Muraho neza, murakaza neza.';

/** Opens live context `contextId` on the pack's voice (Mugisha) with its first text. */
function openNeuralContext(client: LiveClient, contextId: string, text: string): void {
  client.send({
    type: 'text',
    context_id: contextId,
    text,
    language: 'rw',
    speaker_id: 1,
    format: 'mulaw_8k',
  });
}

/** Whether 16-bit samples hold sound: the tiny model's output swings well past this. */
const loud = (samples: Int16Array) => samples.some((sample) => Math.abs(sample) > 3000);

describe('a neural voice pack assigned to a voice', () => {
  let dir: string;
  let pool: EnginePool;
  let fixture: TtsFixture;
  let web: WebFixture;
  let base: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ijwi-neural-voices-'));
    // As `voice install` does: the speaker's loudness measured and its gain kept in the manifest.
    await assignTinyPack('rw', 1, {
      dir,
      sampleRate: PACK_RATE,
      manifest: {
        name: 'Kinyarwanda tiny',
        speakers: [{ id: 0, name: 'Tester' }],
        licence: {
          name: 'CC BY-NC 4.0',
          url: 'https://creativecommons.org/licenses/by-nc/4.0/',
          commercial: false,
        },
        attribution: 'A tiny model made by the tests',
      },
    });
    // One call at a time on the neural voices, so a test can fill them with one call.
    pool = await startTestPool(1, { heavyCalls: { neural: 1 } });
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
    web = await buildWebTestApp({ pool: () => pool, publicBaseUrl: ORIGIN });
  });
  after(async () => {
    await web?.close();
    await fixture?.close();
    await pool?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (url: string, key: string, payload: Record<string, unknown>) =>
    fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });

  it('is listed with its engine, pack and licence, the other voices unchanged', async () => {
    const listing = (
      await fixture.app.inject({ method: 'GET', url: '/api/v1/voices.php?format=json' })
    ).json();
    const rw = listing.languages.find((l: { code: string }) => l.code === 'rw');
    const [keza, mugisha] = rw.voices;
    assert.deepEqual(mugisha, {
      speaker_id: 1,
      name: 'Mugisha',
      group: 'kinyarwanda',
      gender: 'male',
      sample_rate: PACK_RATE,
      engine: 'neural',
      loudness_lufs: LOUDNESS_TARGET_LUFS,
      licence: {
        name: 'CC BY-NC 4.0',
        url: 'https://creativecommons.org/licenses/by-nc/4.0/',
        commercial: false,
      },
      voice_pack: {
        name: 'Kinyarwanda tiny',
        speaker: 'Tester',
        attribution: 'A tiny model made by the tests',
      },
    });
    assert.equal(keza.engine, 'espeak-ng');
    assert.deepEqual(keza.licence, {
      name: 'GPL-3.0-or-later',
      url: 'https://github.com/espeak-ng/espeak-ng/blob/master/COPYING',
      commercial: true,
    });
    assert.equal(keza.voice_pack, null);

    const sample = await web.app.inject({ method: 'GET', url: '/samples/rw-1.wav' });
    assert.equal(sample.statusCode, 200);
    const spoken = parseWav(sample.rawPayload);
    assert.equal(spoken.sampleRate, PACK_RATE, "the voices page's sample is the pack's");
    assert.ok(loud(spoken.samples));

    const page = await fixture.app.inject({ method: 'GET', url: '/api/v1/voices.php' });
    // Names the page does not translate are marked so (translate="no"): the words, without the marks.
    const words = page.body.replace(/<\/?span[^>]*>/g, '');
    assert.match(words, /Neural voice: Tester of Kinyarwanda tiny/);
    assert.match(words, /CC BY-NC 4.0<\/a> \(not for commercial use\)/);
  });

  it('speaks from the file endpoint: a WAV at the pack rate, unlike the built-in voice beside it', async () => {
    const { key } = await fixture.newAccount();
    const wav = async (speakerId: number) => {
      const response = await post('/api/v1/tts.php', key, {
        input: TEXT,
        language: 'rw',
        speaker_id: speakerId,
      });
      assert.equal(response.statusCode, 200, response.body);
      const download = await fixture.app.inject({
        method: 'GET',
        url: new URL(response.json().output_url).pathname,
      });
      return parseWav(download.rawPayload);
    };
    const neural = await wav(1);
    assert.equal(neural.sampleRate, PACK_RATE);
    assert.ok(
      neural.samples.length > PACK_RATE / 4 && loud(neural.samples),
      `${neural.samples.length} samples`,
    );
    assert.equal((await wav(0)).sampleRate, 22_050, 'Keza is still the built-in voice');
  });

  it('is spoken at the loudness target its calibration at install found, under the true-peak ceiling', {
    skip: noDecoder,
  }, async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 300 });
    const response = await post('/api/v1/tts-stream.php', key, {
      input: "Mwakiriwe neza. Ndabahuza n'ushinzwe abakiriya. Mubyemeje, cyangwa mushaka kubitekerezaho?",
      language: 'rw',
      speaker_id: 1,
      format: 'mulaw_8k',
    });
    assert.equal(response.statusCode, 200, response.body);
    const reading = await measureLoudness(response.rawPayload, { format: 'mulaw', sampleRate: 8000 });
    assert.ok(Math.abs(reading.integrated - LOUDNESS_TARGET_LUFS) <= 1, `${reading.integrated} LUFS`);
    assert.ok(reading.truePeak < TRUE_PEAK_CEILING_DBTP, `${reading.truePeak} dBTP`);
  });

  it('streams telephony audio: whole mu-law frames, not silence', async () => {
    const { key } = await fixture.newAccount();
    const response = await post('/api/v1/tts-stream.php', key, {
      input: TEXT,
      language: 'rw',
      speaker_id: 1,
      format: 'mulaw_8k',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['x-voice-sample-rate'], '8000');
    assert.equal(response.rawPayload.byteLength % 160, 0);
    assert.ok(loud(decodeMulaw(response.rawPayload)));
  });

  it('speaks through the OpenAI-compatible endpoint by the voice name', async () => {
    const { key } = await fixture.newAccount();
    const response = await post('/v1/audio/speech', key, {
      model: 'tts-1',
      input: 'Muraho neza.',
      voice: 'mugisha',
      response_format: 'pcm',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(loud(littleEndianBytesToInt16(response.rawPayload)));
  });

  it('speaks on the live WebSocket', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
    try {
      openNeuralContext(client, 'n1', TEXT);
      client.send({ type: 'end', context_id: 'n1' });
      const done = await client.ended('n1');
      assert.equal(done.type, 'done', JSON.stringify(done));
      assert.ok(loud(decodeMulaw(client.audio('n1'))));
    } finally {
      client.socket.close();
    }
  });

  it('speaks in the studio, free for Kinyarwanda, at the pack rate', async () => {
    const browser = new TestBrowser(web.app, ORIGIN);
    await browser.signUp({ email: 'neural@example.org', password: 'a long enough studio password' });
    const response = await browser.speak({ input: TEXT, language: 'rw', speaker_id: 1 });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['x-voice-sample-rate'], String(PACK_RATE));
    assert.equal(response.headers['x-voice-tokens-charged'], '0');
    assert.ok(loud(littleEndianBytesToInt16(response.rawPayload)));
  });

  it('refuses SSML phonemes for a voice that reads text only, before any charge', async () => {
    const { key, accountId } = await fixture.newAccount();
    const response = await post('/api/v1/tts.php', key, {
      input: '<speak><phoneme alphabet="ipa" ph="muɾaho">muraho</phoneme></speak>',
      text_type: 'ssml',
      language: 'rw',
      speaker_id: 1,
    });
    expectError(response, 400, 'invalid_ssml', 'input');
    assert.equal((await fixture.balanceOf(accountId)).freeUsesRemaining, 5);
  });

  it("refuses a call past the neural voices' limit with 503 voice_busy, uncharged, while other voices speak", async () => {
    const holder = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${holder.key}` });
    try {
      // A live context is one call from its first text to its end.
      openNeuralContext(client, 'hold', 'Muraho');
      await waitUntil(() => pool.callsOn('neural') === 1, 'the live context holds the neural call');

      const { key, accountId } = await fixture.newAccount();
      const busy = await post('/api/v1/tts.php', key, { input: TEXT, language: 'rw', speaker_id: 1 });
      const error = expectError(busy, 503, 'voice_busy', 'speaker_id');
      assert.equal(busy.headers['retry-after'], '2');
      assert.equal(error.retry_after, 2);
      const streamed = await post('/api/v1/tts-stream.php', key, {
        input: TEXT,
        language: 'rw',
        speaker_id: 1,
      });
      expectError(streamed, 503, 'voice_busy', 'speaker_id');
      assert.equal((await fixture.balanceOf(accountId)).freeUsesRemaining, 5, 'nothing charged');
      assert.deepEqual(await fixture.ledgerOf(accountId), []);
      // A second live context on the voice is refused too, and ends alone.
      openNeuralContext(client, 'more', 'Muraho');
      const refused = await client.ended('more');
      assert.equal(refused.type, 'error');
      assert.equal(refused.code, 'voice_busy');
      assert.equal(refused.retry_after, 2);

      const keza = await post('/api/v1/tts.php', key, { input: TEXT, language: 'rw', speaker_id: 0 });
      assert.equal(keza.statusCode, 200, 'the built-in voices take calls as before');

      client.send({ type: 'end', context_id: 'hold' });
      assert.equal((await client.ended('hold')).type, 'done');
      await waitUntil(() => pool.callsOn('neural') === 0, 'the call is closed with its context');
      const again = await post('/api/v1/tts.php', key, { input: TEXT, language: 'rw', speaker_id: 1 });
      assert.equal(again.statusCode, 200, again.body);
    } finally {
      client.socket.close();
    }
  });

  it('gives the call back when a live client vanishes without ending its context', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
    openNeuralContext(client, 'gone', 'Muraho');
    await waitUntil(() => pool.callsOn('neural') === 1, 'the live context holds the neural call');
    client.socket.terminate();
    await waitUntil(() => pool.callsOn('neural') === 0, 'the call is closed with the connection');
    const { key } = await fixture.newAccount();
    const next = await post('/api/v1/tts.php', key, { input: TEXT, language: 'rw', speaker_id: 1 });
    assert.equal(next.statusCode, 200, next.body);
  });
});
