import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tokensFor } from '../../../../src/accounts/billing.ts';
import type { EnginePool } from '../../../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../../../helpers/audio-analysis.ts';
import { collect } from '../../../helpers/streams.ts';
import { loadTestClient, missingTestClient } from '../../../helpers/test-clients.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
} from '../../../helpers/tts-fixture.ts';

// ElevenLabs' text-to-speech, driven by ElevenLabs' own JS SDK pointed at the service as a
// builder would point it (base URL `{base_url}/elevenlabs`, the Ijwi key as its API key): audio in
// the format asked for, timestamps, its error classes, and the stream endpoint's billing.

const SDK = '@elevenlabs/elevenlabs-js';
const TEXT = 'Murakoze cyane, mugire umunsi mwiza.';

interface Alignment {
  readonly characters: string[];
  readonly characterStartTimesSeconds: number[];
  readonly characterEndTimesSeconds: number[];
}
interface SdkError extends Error {
  readonly statusCode?: number;
  readonly body?: unknown;
}
interface SpeechRequest {
  text: string;
  modelId?: string;
  outputFormat?: string;
  voiceSettings?: { speed?: number };
  languageCode?: string;
}
interface ElevenLabsClient {
  readonly textToSpeech: {
    convert(voiceId: string, request: SpeechRequest): Promise<ReadableStream<Uint8Array>>;
    stream(voiceId: string, request: SpeechRequest): Promise<ReadableStream<Uint8Array>>;
    convertWithTimestamps(
      voiceId: string,
      request: SpeechRequest,
    ): Promise<{ audioBase64: string; alignment?: Alignment; normalizedAlignment?: Alignment }>;
    streamWithTimestamps(
      voiceId: string,
      request: SpeechRequest,
    ): Promise<AsyncIterable<{ audioBase64: string; alignment?: Alignment | null }>>;
  };
}
interface ElevenLabsModule {
  readonly ElevenLabsClient: new (options: {
    apiKey: string;
    baseUrl: string;
    maxRetries: number;
  }) => ElevenLabsClient;
  readonly ElevenLabsError: new (...args: never[]) => SdkError;
}

const samplesOf = (pcm: Buffer) => new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));

describe('ElevenLabs-compatible speech, through the official JS SDK', {
  skip: missingTestClient(SDK),
}, () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let sdk: ElevenLabsModule;
  const clientWithKey = (apiKey: string) =>
    new sdk.ElevenLabsClient({ apiKey, baseUrl: `${base}/elevenlabs`, maxRetries: 0 });

  before(async () => {
    sdk = loadTestClient(SDK) as ElevenLabsModule;
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture?.close();
    await pool?.close();
  });

  const refusal = async (call: () => Promise<unknown>): Promise<SdkError> => {
    try {
      await call();
    } catch (error) {
      assert.ok(error instanceof sdk.ElevenLabsError, `expected the SDK's error, got ${String(error)}`);
      return error;
    }
    assert.fail('the call succeeded');
  };

  /** The charges and refunds of an account's speech, newest first. */
  const speechEntries = async (accountId: string) =>
    (await fixture.ledgerOf(accountId)).filter((entry) => entry.kind !== 'top_up');

  it('speaks 16 kHz PCM in the voice the id names, billed once as a stream request', async () => {
    const account = await fixture.newPayingAccount({ topUp: 300 });
    const client = clientWithKey(account.key);
    const before = await speechEntries(account.accountId);
    const pcm = await collect(
      await client.textToSpeech.convert('keza', {
        text: TEXT,
        modelId: 'eleven_flash_v2_5',
        outputFormat: 'pcm_16000',
      }),
    );
    assert.equal(pcm.byteLength % 2, 0, 'whole 16-bit samples');
    const seconds = pcm.byteLength / 2 / 16_000;
    assert.ok(seconds > 1 && seconds < 8, `${seconds} s of audio`);
    assert.ok(voicedShare(samplesOf(pcm), 16_000) > 0.3, 'the audio is speech, not silence');
    const now = await speechEntries(account.accountId);
    const entries = now.slice(0, now.length - before.length);
    assert.deepEqual(
      entries.map((entry) => [entry.kind, entry.tokens, entry.language]),
      [['charge', -tokensFor(TEXT.length, 100), 'rw']],
    );
    assert.ok(Math.abs((entries[0]?.seconds ?? 0) - seconds) < 0.05, 'the ledger has the seconds sent');
  });

  it('streams MP3 and telephony mu-law, and two voices sound different', async () => {
    const { key } = await fixture.newAccount();
    const client = clientWithKey(key);
    const mp3 = await collect(
      await client.textToSpeech.stream('james', { text: 'Good morning, how can I help?' }),
    );
    // ElevenLabs' default output format is MP3: an MPEG audio frame header (or an ID3 tag) first.
    assert.ok(
      (mp3[0] === 0xff && ((mp3[1] ?? 0) & 0xe0) === 0xe0) || mp3.subarray(0, 3).toString() === 'ID3',
      'an MP3 stream',
    );
    const keza = await collect(
      await client.textToSpeech.stream('keza', { text: TEXT, outputFormat: 'ulaw_8000' }),
    );
    const mugisha = await collect(
      await client.textToSpeech.stream('mugisha', { text: TEXT, outputFormat: 'ulaw_8000' }),
    );
    for (const audio of [keza, mugisha]) assert.ok(audio.byteLength > 8000, 'over a second of 8 kHz mu-law');
    assert.notDeepEqual(keza, mugisha);
  });

  it('gives the audio with its character alignment, ending within 100 ms of the audio, in rw, en and fr', async () => {
    const { key } = await fixture.newAccount({ topUp: 300 });
    const cases: [string, string, string][] = [
      ['keza', 'Muraho, murakaza neza kuri kliniki yacu.', 'kliniki'],
      ['grace', 'Good morning, welcome to the clinic.', 'clinic'],
      ['aline', 'Bonjour, bienvenue à la clinique.', 'clinique'],
    ];
    for (const [voice, text, word] of cases) {
      const timed = await clientWithKey(key).textToSpeech.convertWithTimestamps(voice, {
        text,
        outputFormat: 'pcm_16000',
      });
      const pcm = Buffer.from(timed.audioBase64, 'base64');
      const seconds = pcm.byteLength / 2 / 16_000;
      assert.ok(seconds > 1, `${voice}: ${seconds} s of audio`);
      const alignment = timed.alignment;
      assert.ok(alignment);
      assert.equal(alignment.characters.join(''), text, 'every character of the text as sent');
      const ends = alignment.characterEndTimesSeconds;
      for (let i = 1; i < ends.length; i++)
        assert.ok((ends[i] ?? 0) >= (ends[i - 1] ?? 0), 'times never go back');
      const last = ends[ends.length - 1] ?? 0;
      assert.ok(
        last <= seconds + 0.001 && seconds - last < 0.1,
        `${voice}: the words end at ${last} s of ${seconds} s`,
      );
      assert.ok(timed.normalizedAlignment?.characters.join('').toLowerCase().includes(word));
    }
  });

  it("streams the audio a JSON line at a time, with each clause's words after its audio", async () => {
    const { key } = await fixture.newAccount();
    const chunks = await clientWithKey(key).textToSpeech.streamWithTimestamps('grace', {
      text: 'Good morning. Your appointment is at nine. Please arrive early.',
      outputFormat: 'pcm_16000',
    });
    const audio: Buffer[] = [];
    const words: string[] = [];
    for await (const chunk of chunks) {
      audio.push(Buffer.from(chunk.audioBase64, 'base64'));
      if (chunk.alignment) words.push(chunk.alignment.characters.join(''));
    }
    const pcm = Buffer.concat(audio);
    assert.equal(pcm.byteLength % 2, 0);
    assert.ok(pcm.byteLength / 2 / 16_000 > 2);
    assert.ok(words.length >= 2, 'a line of words for each clause');
    const joined = words.join('').toLowerCase();
    for (const word of ['morning', 'appointment', 'early']) assert.ok(joined.includes(word), joined);
    assert.ok(!/[a-z][A-Z]/.test(words.join('')), 'clauses are joined by a space');
  });

  it("refuses in ElevenLabs' shapes, and charges nothing for a refused request", async () => {
    const account = await fixture.newPayingAccount();
    const client = clientWithKey(account.key);
    const before = await speechEntries(account.accountId);
    const poor = await refusal(() => client.textToSpeech.convert('keza', { text: TEXT }));
    assert.equal(poor.statusCode, 402);
    assert.equal((poor.body as { detail: { status: string } }).detail.status, 'insufficient_tokens');
    assert.deepEqual(await speechEntries(account.accountId), before);

    const { key } = await fixture.newAccount();
    const paid = clientWithKey(key);
    const unknown = await refusal(() => paid.textToSpeech.convert('nobody', { text: TEXT }));
    assert.equal(unknown.statusCode, 404);
    const empty = await refusal(() => paid.textToSpeech.convert('keza', { text: '   ' }));
    assert.equal(empty.statusCode, 422);
    assert.equal((empty.body as { detail: { param: string } }).detail.param, 'text');
    const format = await refusal(() =>
      paid.textToSpeech.convert('keza', { text: TEXT, outputFormat: 'pcm_48000' }),
    );
    assert.equal(format.statusCode, 422);
    const speed = await refusal(() =>
      paid.textToSpeech.convert('keza', { text: TEXT, voiceSettings: { speed: 3 } }),
    );
    assert.equal((speed.body as { detail: { param: string } }).detail.param, 'voice_settings.speed');
    const language = await refusal(() =>
      paid.textToSpeech.convert('keza', { text: TEXT, languageCode: 'fr' }),
    );
    assert.equal((language.body as { detail: { status: string } }).detail.status, 'unsupported_language');
    const stranger = await refusal(() =>
      clientWithKey('voice_live_0000000000000000000000000000000000000000').textToSpeech.convert('keza', {
        text: TEXT,
      }),
    );
    assert.equal(stranger.statusCode, 401);
    assert.deepEqual(await fixture.balanceOf(account.accountId), { balance: 0, freeUsesRemaining: 0 });
  });

  it('speaks slower at a lower voice_settings.speed', async () => {
    const { key } = await fixture.newAccount({ topUp: 300 });
    const client = clientWithKey(key);
    const length = async (speed: number) =>
      (
        await collect(
          await client.textToSpeech.convert('grace', {
            text: 'Thank you for calling, we will be with you shortly.',
            outputFormat: 'pcm_16000',
            voiceSettings: { speed },
          }),
        )
      ).byteLength;
    const normal = await length(1);
    const slow = await length(0.7);
    assert.ok(slow > normal * 1.2, `speed 0.7 gave ${slow} bytes against ${normal}`);
  });
});
