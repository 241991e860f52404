import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import { encodeWav } from '../../src/speech/audio/wav.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { decode, noDecoder, probe } from '../helpers/decoder.ts';
import { tone } from '../helpers/signals.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'a long enough studio password';
let counter = 0;

describe('POST /studio/tts', () => {
  let pool: EnginePool;
  let web: WebFixture;
  before(async () => {
    pool = await startTestPool();
    web = await buildWebTestApp({ pool: () => pool, publicBaseUrl: ORIGIN });
  });
  after(async () => {
    await web.close();
    await pool.close();
  });

  /** A signed-in browser and its account id. */
  const signedIn = async () => {
    const browser = new TestBrowser(web.app, ORIGIN);
    const email = `studio${++counter}@example.org`;
    await browser.signUp({ email, password: PASSWORD });
    const row = await web.db.kysely
      .selectFrom('users')
      .select('account_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return { browser, accountId: row.account_id };
  };

  const summary = async (accountId: string) => {
    const balance = await web.billing.balance(accountId);
    const ledger = await web.billing.listLedger(accountId);
    assert.ok(balance.ok && ledger.ok);
    return { balance: balance.balance, free: balance.freeUsesRemaining, entries: ledger.entries };
  };

  describe('happy', () => {
    it('streams Kinyarwanda as 16-bit PCM at the voice rate, free, with no ledger entry', async () => {
      const { browser, accountId } = await signedIn();
      const response = await browser.speak({
        input: 'Muraho neza, murakaza neza.',
        language: 'rw',
        speaker_id: 1,
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-type'], 'audio/l16');
      assert.equal(response.headers['x-voice-sample-rate'], '22050');
      assert.equal(response.headers['x-voice-encoding'], 'pcm_s16le');
      assert.equal(response.headers['x-voice-kinyarwanda-free'], 'true');
      assert.equal(response.headers['x-voice-tokens-charged'], '0');
      assert.equal(response.headers['x-voice-free-uses-remaining'], '5');
      assert.equal(response.headers['ratelimit-limit'], '30');
      assert.ok(response.rawPayload.length > 22050, 'over half a second of audio');
      assert.equal(response.rawPayload.length % 2, 0);
      assert.deepEqual(await summary(accountId), { balance: 0, free: 5, entries: [] });
    });

    it('uses a free generation for English and writes it to the ledger', async () => {
      const { browser, accountId } = await signedIn();
      const first = await browser.speak({ input: 'Hello there.', language: 'en', speaker_id: 3 });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['x-voice-kinyarwanda-free'], 'false');
      assert.equal(first.headers['x-voice-free-uses-remaining'], '4');
      const after = await summary(accountId);
      assert.equal(after.free, 4);
      assert.deepEqual(
        after.entries.map((e) => [e.kind, e.language, e.characters]),
        [['free_use', 'en', 12]],
      );
    });

    it('speaks a Markdown reply as its plain twin, billed for the characters spoken', async () => {
      const { browser, accountId } = await signedIn();
      const reply = await browser.speak({
        input: '**Hello** [there](https://example.rw/a) 😊',
        language: 'en',
      });
      const twin = await browser.speak({ input: 'Hello there', language: 'en' });
      assert.equal(reply.statusCode, 200);
      assert.equal(reply.rawPayload.length, twin.rawPayload.length);
      const { entries } = await summary(accountId);
      assert.deepEqual(
        entries.map((e) => e.characters),
        [11, 11],
      );
    });
  });

  describe('error', () => {
    it('explains a 402 with the balance, the tokens needed and the minimum top-up', async () => {
      const { browser, accountId } = await signedIn();
      for (let i = 0; i < 5; i++) {
        const used = await web.billing.commitCharge(accountId, {
          tokens: 1,
          seconds: 1,
          characters: 5,
          language: 'fr',
          requestId: `req_studio_trial_${accountId}_${i}`,
          studio: true,
        });
        assert.ok(used.ok);
      }
      const response = await browser.speak({ input: 'Bonjour à tous.', language: 'fr' });
      assert.equal(response.statusCode, 402);
      const { error } = response.json();
      assert.equal(error.code, 'insufficient_tokens');
      assert.deepEqual([error.balance, error.tokens_needed, error.minimum_top_up], [0, 1, 289]);
      const rw = await browser.speak({ input: 'Muraho.', language: 'rw' });
      assert.equal(rw.statusCode, 200, 'Kinyarwanda stays free with no tokens left');
    });

    it('validates the body with the API rules', async () => {
      const { browser } = await signedIn();
      // The studio makes a WAV to keep: the file endpoint's 10,000 characters.
      const response = await browser.speak({ input: 'x'.repeat(10_001), language: 'rw' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().error.code, 'input_too_long');
    });
  });

  describe('security', () => {
    it('needs a session: 401 not_signed_in (and a token, which comes first: 403)', async () => {
      const response = await web.app.inject({
        method: 'POST',
        url: '/studio/tts',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        payload: JSON.stringify({ input: 'Muraho.' }),
      });
      assert.equal(response.statusCode, 403, 'no session and no token: refused before anything else');
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.get('/signin');
      const withFormToken = await browser.speak(
        { input: 'Muraho.' },
        { 'x-csrf-token': browser.cookies.get('ijwi_form') ?? '' },
      );
      assert.equal(withFormToken.statusCode, 401);
      assert.equal(withFormToken.json().error.code, 'not_signed_in');
    });

    it('refuses a request without the page token, or from another origin, with 403 forbidden', async () => {
      const { browser, accountId } = await signedIn();
      const refused: readonly Record<string, string>[] = [
        { 'x-csrf-token': '' },
        { origin: 'https://evil.example' },
      ];
      for (const headers of refused) {
        const response = await browser.speak({ input: 'Hello.', language: 'en' }, headers);
        assert.equal(response.statusCode, 403, JSON.stringify(headers));
        assert.equal(response.json().error.code, 'forbidden');
      }
      assert.equal((await summary(accountId)).free, 5, 'nothing was billed');
    });

    it('counts requests under the account, not under any key: 429 when the account has used its minute', async () => {
      const { browser, accountId } = await signedIn();
      for (let i = 0; i < 30; i++) await web.rateLimit.hit(`account:${accountId}`, 30, 60_000);
      const response = await browser.speak({ input: 'Muraho.', language: 'rw' });
      assert.equal(response.statusCode, 429);
      assert.equal(response.json().error.code, 'rate_limited');
      assert.match(String(response.headers['retry-after']), /^\d+$/);
    });
  });

  describe('downloads in another format (POST /studio/download)', () => {
    /** What the page keeps of a generation: its WAV. */
    const studioWav = async (browser: TestBrowser) => {
      const spoken = await browser.speak({ input: 'Muraho neza, murakaza neza ku ivuriro.', language: 'rw' });
      assert.equal(spoken.statusCode, 200);
      const samples = littleEndianBytesToInt16(new Uint8Array(spoken.rawPayload));
      return { wav: encodeWav(samples, 22_050), seconds: samples.length / 22_050 };
    };

    it('encodes the WAV the page has as MP3, Opus or FLAC, without speaking or billing it again', {
      skip: noDecoder,
    }, async () => {
      const { browser, accountId } = await signedIn();
      const { wav, seconds } = await studioWav(browser);
      const before = await summary(accountId);
      for (const [format, codec, type] of [
        ['mp3', 'mp3', 'audio/mpeg'],
        ['opus', 'opus', 'audio/ogg; codecs=opus'],
        ['flac', 'flac', 'audio/flac'],
      ] as const) {
        const response = await browser.postBytes(`/studio/download?format=${format}`, wav, 'audio/wav');
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['content-type'], type);
        assert.equal(response.headers['content-disposition'], `attachment; filename="ijwi.${format}"`);
        assert.equal((await probe(response.rawPayload)).codec, codec);
        const heard = await decode(response.rawPayload, 24_000);
        assert.ok(
          Math.abs(heard.length / 24_000 - seconds) <= seconds * 0.03,
          `${format}: ${heard.length / 24_000} s`,
        );
        assert.ok(voicedShare(heard, 24_000) > 0.3, `${format}: speech, not silence`);
      }
      assert.deepEqual(await summary(accountId), before, 'nothing billed');
    });

    it('encodes only audio the studio generated for this user: not an upload, not a changed sample, not another user’s generation', async () => {
      const { browser } = await signedIn();
      const { wav } = await studioWav(browser);
      const other = await signedIn();
      const theirs = await other.browser.speak({ input: 'Amakuru yawe, ni meza cyane.', language: 'rw' });
      assert.equal(theirs.statusCode, 200);
      const theirWav = encodeWav(littleEndianBytesToInt16(new Uint8Array(theirs.rawPayload)), 22_050);
      const changed = wav.slice();
      changed[wav.length - 1] = (changed[wav.length - 1] ?? 0) ^ 1;
      const upload = encodeWav(tone(440, 22_050, 3), 22_050);
      for (const [what, body] of [
        ['an uploaded recording', upload],
        ['the generation with one sample changed', changed],
        ['another user’s generation', theirWav],
      ] as const) {
        const response = await browser.postBytes('/studio/download?format=mp3', body, 'audio/wav');
        assert.equal(response.statusCode, 400, `${what}: ${response.statusCode}`);
        const { error } = response.json();
        assert.equal(error.code, 'invalid_request', what);
        assert.match(error.message, /generation the studio made for you/, what);
      }
      const own = await browser.postBytes('/studio/download?format=mp3', wav, 'audio/wav');
      assert.equal(own.statusCode, 200, 'its own generation still downloads');
      assert.ok(own.rawPayload.byteLength > 0);
    });

    it('refuses what is not the studio WAV, a format it does not make, and a request not from the page', async () => {
      const { browser } = await signedIn();
      const { wav } = await studioWav(browser);
      const stereo = encodeWav(new Int16Array(44_100), 22_050);
      new DataView(stereo.buffer).setUint16(22, 2, true); // channels
      new DataView(stereo.buffer).setUint32(28, 22_050 * 4, true); // byte rate
      new DataView(stereo.buffer).setUint16(32, 4, true); // block align
      for (const [body, url, code] of [
        [wav, '/studio/download?format=aac', 'unsupported_format'],
        [wav, '/studio/download', 'unsupported_format'],
        [new TextEncoder().encode('RIFF not a wave'), '/studio/download?format=mp3', 'invalid_request'],
        [stereo, '/studio/download?format=mp3', 'invalid_request'],
        [encodeWav(new Int16Array(4410), 11_111), '/studio/download?format=mp3', 'invalid_request'],
      ] as const) {
        const response = await browser.postBytes(url, body, 'audio/wav');
        assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
        assert.equal(response.json().error.code, code);
      }
      const forged = await browser.postBytes('/studio/download?format=mp3', wav, 'audio/wav', false);
      assert.equal(forged.statusCode, 403);
      const stranger = await new TestBrowser(web.app, ORIGIN).postBytes(
        '/studio/download?format=mp3',
        wav,
        'audio/wav',
      );
      assert.ok(stranger.statusCode === 401 || stranger.statusCode === 403, String(stranger.statusCode));
    });
  });
});
