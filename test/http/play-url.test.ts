import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { PlayUrls } from '../../src/calls/play-urls.ts';
import { parseWav } from '../../src/speech/audio/wav.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { describeEachDatabase } from '../helpers/databases.ts';
import { noDecoder } from '../helpers/decoder.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  PUBLIC_BASE_URL,
  startTestPool,
  type TestAccount,
  type TtsFixture,
  textOfLength,
  withKey,
} from '../helpers/tts-fixture.ts';

// The playable URL (api-v1.md, "Playable URL"): made with a key and nothing charged; fetched
// without one by the clients IVR platforms are (curl, ffprobe), spoken and charged at its first
// fetch while the audio streams, served from the store after, never charged twice; altered,
// forged, expired or never fetched: nothing charged. On SQLite and PostgreSQL.

const run = promisify(execFile);
const INPUT = 'Good morning, and thank you for calling the clinic. A nurse will answer shortly.';

let pool: EnginePool;
before(async () => {
  pool = await startTestPool();
});
after(() => pool?.close());

/** The charges and refunds in an account's ledger (a paying account's trial uses are not among them). */
async function chargesOf(fixture: TtsFixture, accountId: string) {
  const entries = await fixture.ledgerOf(accountId);
  return entries.filter((entry) => entry.kind === 'charge' || entry.kind === 'refund');
}

/** The samples of a WAV, the streamed kind (a header of open length) too. */
function samplesOf(bytes: Buffer): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) !== 0xffffffff) return parseWav(new Uint8Array(bytes)).samples;
  const data = bytes.subarray(44);
  return new Int16Array(
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength - (data.byteLength % 2)),
  );
}

describeEachDatabase('playable URLs', (context) => {
  let fixture: TtsFixture;
  let base: string;
  before(async () => {
    fixture = await buildTtsTestApp({ pool: () => pool, database: context.db, playUrlsPerAccount: 3 });
    base = await listenOnLoopback(fixture.app);
  });
  after(() => fixture?.close());

  /** The URL's row once its first fetch has settled (just after its response ends). */
  async function settled(id: string) {
    for (let i = 0; i < 200; i++) {
      const row = await fixture.db.playUrls.find(id);
      if (row?.state !== 'speaking') return row;
      await sleep(10);
    }
    return fixture.db.playUrls.find(id);
  }

  const create = (key: string, body: Record<string, unknown>) =>
    fixture.app.inject({ method: 'POST', url: '/api/v1/tts-url.php', headers: withKey(key), payload: body });

  /** A URL made for `account`, as the loopback service's address (the public one is for players). */
  async function made(
    account: TestAccount,
    body: Record<string, unknown> = {},
  ): Promise<{ url: string; path: string }> {
    const response = await create(account.key, { input: INPUT, language: 'en', ...body });
    assert.equal(response.statusCode, 200, response.body);
    const { play_url: playUrl } = response.json() as { play_url: string };
    const path = playUrl.slice(PUBLIC_BASE_URL.length);
    return { url: `${base}${path}`, path };
  }

  describe('happy', () => {
    it('answers a signed URL on the public base URL, carrying no text, without speaking or charging', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const response = await create(account.key, { input: INPUT, language: 'en', expires_in: 600 });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json() as { play_url: string; expires_at: string };
      assert.match(
        body.play_url,
        /^https:\/\/voice\.example\.test\/play\/[0-9A-Za-z]{22}\.\d+\.\w+\.[\w-]{43}\.wav$/,
      );
      for (const word of ['morning', 'clinic', 'nurse']) assert.ok(!body.play_url.includes(word));
      const expires = Date.parse(body.expires_at);
      assert.ok(Math.abs(expires - (Date.now() + 600_000)) < 5_000, body.expires_at);
      assert.deepEqual(await chargesOf(fixture, account.accountId), []);
      assert.equal((await fixture.balanceOf(account.accountId)).balance, 1000);
    });

    it('streams the first fetch as it is spoken, charged once; later fetches and ranges are free', {
      skip: noDecoder,
    }, async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account);
      // The first fetch, by ffprobe as a player opens it.
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,sample_rate,channels',
        '-of',
        'json',
        url,
      ]);
      const [stream] = (
        JSON.parse(stdout) as { streams: { codec_name: string; sample_rate: string; channels: number }[] }
      ).streams;
      assert.equal(stream?.codec_name, 'pcm_s16le');
      assert.equal(stream?.sample_rate, '8000');
      assert.equal(stream?.channels, 1);
      const charged = await chargesOf(fixture, account.accountId);
      assert.equal(charged.length, 1, 'the first fetch is charged');
      assert.equal(charged[0]?.kind, 'charge');
      const balance = (await fixture.balanceOf(account.accountId)).balance;
      assert.equal(balance, 999);
      // Later fetches by curl: the whole stored file, then a range of it.
      const whole = await run('curl', ['-sS', '--fail', url], { encoding: 'buffer', maxBuffer: 1 << 26 });
      const wav = parseWav(new Uint8Array(whole.stdout));
      assert.equal(wav.sampleRate, 8000);
      const seconds = wav.samples.length / 8000;
      assert.ok(seconds > 3 && seconds < 10, `${seconds} s`);
      assert.ok(voicedShare(wav.samples, 8000) > 0.3, 'speech, not silence');
      const ranged = await run(
        'curl',
        ['-sS', '--fail', '-r', '100-1099', '-D', '-', '-o', '/dev/null', url],
        {
          encoding: 'utf8',
        },
      );
      assert.match(ranged.stdout, /^HTTP\/1\.1 206/);
      // A cache keeps it no longer than the URL works (an hour by default), not the file's day.
      const maxAge = Number(/cache-control: private, max-age=(\d+)/i.exec(ranged.stdout)?.[1]);
      assert.ok(maxAge > 3500 && maxAge <= 3600, ranged.stdout);
      assert.match(
        ranged.stdout,
        new RegExp(`content-range: bytes 100-1099/${whole.stdout.byteLength}`, 'i'),
      );
      const probed = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        url,
      ]);
      assert.ok(Math.abs(Number(probed.stdout) - seconds) < 0.05, probed.stdout);
      assert.deepEqual(
        (await chargesOf(fixture, account.accountId)).map((entry) => entry.id),
        charged.map((entry) => entry.id),
        'no new charge',
      );
      assert.equal((await fixture.balanceOf(account.accountId)).balance, balance);
    });

    it('sends its first byte before the synthesis ends, and says nothing of the account', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account, { input: textOfLength(1500) });
      const id = new URL(url).pathname.split('/').pop()?.split('.')[0] ?? '';
      const result = await new Promise<{
        stateAtFirstByte: string | undefined;
        headers: Record<string, unknown>;
        bytes: number;
      }>((resolve, reject) => {
        request(url, (res) => {
          let bytes = 0;
          let stateAtFirstByte: Promise<string | undefined> | undefined;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.byteLength;
            stateAtFirstByte ??= fixture.db.playUrls.find(id).then((row) => row?.state);
          });
          res.on('end', async () =>
            resolve({ stateAtFirstByte: await stateAtFirstByte, headers: res.headers, bytes }),
          );
          res.on('error', reject);
        })
          .on('error', reject)
          .end();
      });
      assert.equal(result.stateAtFirstByte, 'speaking', 'the audio began while it was still being spoken');
      assert.equal(result.headers['content-type'], 'audio/wav');
      assert.equal(result.headers['transfer-encoding'], 'chunked');
      for (const name of Object.keys(result.headers))
        assert.doesNotMatch(name, /token|balance|free|ratelimit/i);
      assert.ok(result.bytes > 8000 * 2 * 60, `${result.bytes} bytes: a minute and more of audio`);
      assert.equal((await settled(id))?.state, 'ready');
      assert.equal((await chargesOf(fixture, account.accountId)).length, 1);
    });

    it('gives a fetch made while the first is speaking the whole audio, charged once', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account, { input: textOfLength(600) });
      const fetchAll = () =>
        run('curl', ['-sS', '--fail', url], { encoding: 'buffer', maxBuffer: 1 << 26 }).then((r) => r.stdout);
      const first = fetchAll();
      await sleep(50);
      const [a, b, c] = await Promise.all([first, fetchAll(), fetchAll()]);
      const pcm = samplesOf;
      // The stream's header gives an open length, the stored file's its own: the audio is the same.
      assert.deepEqual(pcm(b), pcm(c));
      assert.equal(pcm(a).length, pcm(b).length);
      assert.ok(pcm(b).length / 8000 > 20);
      assert.equal((await chargesOf(fixture, account.accountId)).length, 1);
    });

    it('stores the whole audio paid for when the first player hangs up mid-stream', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account, { input: textOfLength(900) });
      const id = new URL(url).pathname.split('/').pop()?.split('.')[0] ?? '';
      const heard = await new Promise<number>((resolve, reject) => {
        const req = request(url, (res) => {
          res.once('data', (chunk: Buffer) => {
            req.destroy();
            resolve(chunk.byteLength);
          });
        });
        req.on('error', () => {});
        req.on('close', () => reject(new Error('closed before any audio')));
        req.end();
      });
      assert.ok(heard > 0);
      assert.equal((await settled(id))?.state, 'ready');
      const whole = await run('curl', ['-sS', '--fail', url], { encoding: 'buffer', maxBuffer: 1 << 26 });
      const seconds = samplesOf(whole.stdout).length / 8000;
      assert.ok(seconds > 40, `${seconds} s stored`);
      const charges = await chargesOf(fixture, account.accountId);
      assert.deepEqual(
        charges.map((entry) => entry.kind),
        ['charge'],
      );
      assert.ok((charges[0]?.seconds ?? 0) > 40, 'the entry stands for the audio made');
    });

    it('charges nothing for a player gone before the first audio, and speaks for the next', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account);
      const { hostname, port, pathname } = new URL(url);
      const socket = connect(Number(port), hostname, () => {
        socket.end(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
        socket.destroy();
      });
      socket.on('error', () => {});
      await sleep(500);
      const id = pathname.split('/').pop()?.split('.')[0] ?? '';
      assert.equal((await settled(id))?.state, 'new');
      const net = (await chargesOf(fixture, account.accountId)).reduce((sum, entry) => sum + entry.tokens, 0);
      assert.equal(net, 0, 'nothing charged, or the charge given back');
      const later = await run('curl', ['-sS', '--fail', url], { encoding: 'buffer', maxBuffer: 1 << 26 });
      assert.ok(samplesOf(later.stdout).length / 8000 > 3);
      assert.equal((await fixture.balanceOf(account.accountId)).balance, 999);
    });

    it('speaks MP3 frames when asked, as ffprobe reads them', { skip: noDecoder }, async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { url } = await made(account, { format: 'mp3' });
      assert.match(url, /\.mp3$/);
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name',
        '-of',
        'csv=p=0',
        url,
      ]);
      assert.equal(stdout.trim(), 'mp3');
      const again = await run('curl', ['-sS', '--fail', '-D', '-', '-o', '/dev/null', url], {
        encoding: 'utf8',
      });
      assert.match(again.stdout, /content-type: audio\/mpeg/i);
      assert.equal((await chargesOf(fixture, account.accountId)).length, 1);
    });

    it('never charges a URL never fetched, nor answers HEAD by speaking', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { path } = await made(account);
      const head = await fixture.app.inject({ method: 'HEAD', url: path });
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers['content-type'], 'audio/wav');
      await sleep(100);
      assert.deepEqual(await chargesOf(fixture, account.accountId), []);
    });
  });

  describe('error', () => {
    it('401 without a valid key, 400 for an oversized text or a bad format or life', async () => {
      expectError(await create('ijwi_sk_not_a_key', { input: INPUT }), 401, 'invalid_api_key');
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      expectError(await create(account.key, { input: textOfLength(10_001) }), 400, 'input_too_long', 'input');
      expectError(
        await create(account.key, { input: INPUT, format: 'ogg' }),
        400,
        'unsupported_format',
        'format',
      );
      for (const expires of [0, 86_401, 1.5, '60'])
        expectError(
          await create(account.key, { input: INPUT, expires_in: expires }),
          400,
          'invalid_request',
          'expires_in',
        );
      expectError(
        await create(account.key, { input: INPUT, speaker_wav: 'x' }),
        410,
        'voice_cloning_retired',
        'speaker_wav',
      );
    });

    it('402 at creation when the account could not pay for it now', async () => {
      const account = await fixture.newPayingAccount();
      const error = expectError(await create(account.key, { input: INPUT }), 402, 'insufficient_tokens');
      assert.equal(error.balance, 0);
    });

    it('402 at a first fetch once the account cannot pay, without its balance, and the URL still works after a top-up', async () => {
      const account = await fixture.newPayingAccount({ topUp: 289 });
      const { path } = await made(account);
      // The balance goes to other requests before the URL is fetched.
      const spent = await fixture.billing.commitCharge(account.accountId, {
        tokens: 289,
        seconds: 1,
        characters: 28_900,
        language: 'en',
        requestId: `req_spend_${account.accountId}`,
        studio: false,
      });
      assert.ok(spent.ok);
      const refused = await fixture.app.inject({ method: 'GET', url: path });
      const error = expectError(refused, 402, 'insufficient_tokens');
      assert.equal(error.balance, undefined);
      assert.doesNotMatch(refused.body, /balance is/);
      await fixture.billing.topUp(account.accountId, 289);
      const heard = await fixture.app.inject({ method: 'GET', url: path });
      assert.equal(heard.statusCode, 200);
      assert.equal((await fixture.balanceOf(account.accountId)).balance, 288);
    });

    it('429 past the per-key rate limit, and past the URLs an account may have', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000, keys: 1 });
      for (let i = 0; i < 3; i++) await made(account);
      expectError(await create(account.key, { input: INPUT }), 429, 'too_many_play_urls');
      const rateLimited = (response: Awaited<ReturnType<typeof create>>) =>
        response.statusCode === 429 &&
        (response.json() as { error: { code: string } }).error.code === 'rate_limited';
      let limited = await create(account.key, { input: INPUT });
      for (let i = 0; i < 40 && !rateLimited(limited); i++)
        limited = await create(account.key, { input: INPUT });
      const error = expectError(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0, String(error.message));
    });

    it('410 once expired, nothing charged', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { path } = await made(account, { expires_in: 1 });
      await sleep(1100);
      expectError(await fixture.app.inject({ method: 'GET', url: path }), 410, 'play_url_expired');
      assert.equal((await fixture.app.inject({ method: 'HEAD', url: path })).statusCode, 410);
      assert.deepEqual(await chargesOf(fixture, account.accountId), []);
    });
  });

  describe('two instances', () => {
    it('speak a URL once whichever instance its fetches reach, and serve its audio from either', async () => {
      // A second instance: its own connection to the same database, the same file folder.
      const other = await buildTtsTestApp({
        pool: () => pool,
        database: await openDatabase(context.source),
        filesDir: fixture.filesDir,
      });
      try {
        const otherBase = await listenOnLoopback(other.app);
        const account = await fixture.newPayingAccount({ topUp: 1000 });
        const { url } = await made(account, { input: textOfLength(600) });
        const onOther = url.replace(base, otherBase);
        const fetchAll = (target: string) =>
          run('curl', ['-sS', '--fail', target], { encoding: 'buffer', maxBuffer: 1 << 26 }).then((r) =>
            samplesOf(r.stdout),
          );
        const first = fetchAll(url);
        await sleep(50);
        const [a, b] = await Promise.all([first, fetchAll(onOther)]);
        assert.equal(a.length, b.length);
        assert.ok(b.length / 8000 > 20);
        assert.deepEqual(await fetchAll(onOther), b);
        assert.equal((await chargesOf(fixture, account.accountId)).length, 1);
      } finally {
        await other.close();
      }
    });
  });

  describe('clean-up', () => {
    it('sweeps expired URLs and their stored audio, and nothing alive', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const short = await made(account, { expires_in: 2 });
      const alive = await made(account, { expires_in: 600 });
      for (const { path } of [short, alive])
        assert.equal((await fixture.app.inject({ method: 'GET', url: path })).statusCode, 200);
      const idOf = (path: string) => path.slice('/play/'.length).split('.')[0] ?? '';
      const [gone, kept] = [await settled(idOf(short.path)), await settled(idOf(alive.path))];
      assert.ok(gone?.fileId && kept?.fileId);
      await sleep(2100);
      const urls = new PlayUrls(fixture.db.playUrls, fixture.billing, {
        maxPerAccount: 10,
        charsPerToken: 100,
      });
      const removed = await urls.sweep((id, format) => fixture.files.delete(id, format));
      assert.ok(removed >= 1);
      assert.equal(await fixture.db.playUrls.find(gone.id), undefined);
      assert.equal(await fixture.files.open(gone.fileId, 'wav'), undefined);
      assert.equal((await fixture.db.playUrls.find(kept.id))?.state, 'ready');
      assert.ok(await fixture.files.open(kept.fileId, 'wav'));
      assert.equal((await fixture.app.inject({ method: 'GET', url: alive.path })).statusCode, 200);
    });
  });

  describe('security', () => {
    it('404 for a URL altered in any part, forged, or hostile, nothing charged', async () => {
      const account = await fixture.newPayingAccount({ topUp: 1000 });
      const { path } = await made(account, { expires_in: 600 });
      const name = path.slice('/play/'.length);
      const [id, expires, keyId, signature] = name.split('.') as [string, string, string, string];
      const flip = (text: string, at: number) =>
        text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      const other = await made(await fixture.newPayingAccount({ topUp: 1000 }));
      const otherName = other.path.slice('/play/'.length);
      const altered = [
        `${flip(id, 3)}.${expires}.${keyId}.${signature}.wav`,
        `${id}.${Number(expires) + 86_400}.${keyId}.${signature}.wav`,
        `${id}.${expires}.${keyId}.${signature}.mp3`,
        `${id}.${expires}.${keyId}.${flip(signature, 10)}.wav`,
        `${id}.${expires}.kforged.${signature}.wav`,
        `${id}.${expires}.${keyId}.${'A'.repeat(43)}.wav`,
        // Another URL's signature on this id.
        `${id}.${otherName.split('.').slice(1).join('.')}`,
        `${id}.${expires}.${keyId}.${signature}.wav.wav`,
        `..%2F..%2Fetc%2Fpasswd`,
        `${id}.${expires}.${keyId}.${signature}%00.wav`,
        'x'.repeat(5000),
        `${id}`,
      ];
      for (const bad of altered) {
        const response = await fixture.app.inject({ method: 'GET', url: `/play/${bad}` });
        assert.ok([404, 414].includes(response.statusCode), `${bad.slice(0, 80)}: ${response.statusCode}`);
        assert.doesNotMatch(response.body, /morning|clinic/);
      }
      await sleep(100);
      assert.deepEqual(await chargesOf(fixture, account.accountId), []);
    });

    it('never tells the stored audio’s own file id, the other credential to it', async () => {
      const owner = await fixture.newPayingAccount({ topUp: 1000 });
      const created = await create(owner.key, { input: INPUT, language: 'en' });
      const path = (created.json() as { play_url: string }).play_url.slice(PUBLIC_BASE_URL.length);
      const first = await fixture.app.inject({ method: 'GET', url: path });
      const row = await settled(path.slice('/play/'.length).split('.')[0] ?? '');
      assert.ok(row?.fileId);
      const later = await fixture.app.inject({ method: 'GET', url: path });
      const head = await fixture.app.inject({ method: 'HEAD', url: path });
      for (const response of [created, first, later, head]) {
        assert.ok(response.statusCode === 200);
        assert.ok(!JSON.stringify(response.headers).includes(row.fileId));
      }
      assert.ok(!created.body.includes(row.fileId));
    });
  });
});
