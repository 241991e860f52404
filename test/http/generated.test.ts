import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { LocalFileStore, newFileId } from '../../src/store/files/local-file-store.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';
import { saveFile } from '../helpers/save-file.ts';

const HOUR = 60 * 60 * 1000;
/** 10,000 bytes, the representation size of RFC 9110's range examples (section 14.1.2). */
const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);

const url = (id: string) => `/generated/audio_${id}.wav`;

function withoutRequestId(response: LightMyRequestResponse) {
  const body = response.json();
  assert.equal(body.error.request_id, response.headers['x-request-id']);
  delete body.error.request_id;
  return body;
}

// The contract's "Generated files" section: 24 h by default (configurable), expired and unknown
// ids give the same 404, Range and HEAD supported. Range semantics: RFC 9110, section 14.
describe('GET|HEAD /generated/audio_<id>.wav', () => {
  let app: FastifyInstance;
  let root: string;
  let store: LocalFileStore;
  let clockOffsetMs = 0;
  let id: string;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ijwi-generated-'));
    store = await LocalFileStore.create({
      dir: join(root, 'generated'),
      lifetimeMs: HOUR,
      now: () => new Date(Date.now() + clockOffsetMs),
    });
    app = await buildTestApp({ files: store });
    ({ id } = await saveFile(store, [bytes]));
  });
  after(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  describe('happy', () => {
    it('serves the whole file with its headers', async () => {
      const response = await app.inject({ method: 'GET', url: url(id) });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(new Uint8Array(response.rawPayload), bytes);
      assert.equal(response.headers['content-type'], 'audio/wav');
      assert.equal(response.headers['content-length'], '10000');
      assert.equal(response.headers['accept-ranges'], 'bytes');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.match(String(response.headers['x-request-id']), /^req_/);
      // Private, and never cached past the file's one-hour lifetime.
      const maxAge = /^private, max-age=(\d+)$/.exec(String(response.headers['cache-control']))?.[1];
      assert.ok(maxAge !== undefined, String(response.headers['cache-control']));
      assert.ok(Number(maxAge) <= 3600 && Number(maxAge) > 3500, maxAge);
    });

    it('answers HEAD with the same headers and no body', async () => {
      const response = await app.inject({ method: 'HEAD', url: url(id) });
      assert.equal(response.statusCode, 200);
      assert.equal(response.body, '');
      assert.equal(response.headers['content-type'], 'audio/wav');
      assert.equal(response.headers['content-length'], '10000');
      assert.equal(response.headers['accept-ranges'], 'bytes');
      assert.match(String(response.headers['cache-control']), /^private, max-age=\d+$/);
    });

    // RFC 9110, section 14.1.2 examples: first 500 bytes, final 500 (suffix), final 500 (open end).
    for (const [range, start, end] of [
      ['bytes=0-499', 0, 499],
      ['bytes=-500', 9500, 9999],
      ['bytes=9500-', 9500, 9999],
      ['bytes=0-99', 0, 99],
    ] as const) {
      it(`answers Range: ${range} with 206 and exactly those bytes`, async () => {
        const response = await app.inject({ method: 'GET', url: url(id), headers: { range } });
        assert.equal(response.statusCode, 206);
        assert.equal(response.headers['content-range'], `bytes ${start}-${end}/10000`);
        assert.equal(response.headers['content-length'], String(end - start + 1));
        assert.equal(response.headers['content-type'], 'audio/wav');
        assert.deepEqual(new Uint8Array(response.rawPayload), bytes.slice(start, end + 1));
      });
    }

    // RFC 9110, section 14.2: several ranges may be ignored; section 13.1.5: a Range whose
    // If-Range validator does not match gets the whole file.
    it('sends the whole file for a multi-range request or a stale If-Range', async () => {
      const file = await store.open(id);
      for (const headers of [
        { range: 'bytes=0-0,-1' },
        { range: 'bytes=0-99', 'if-range': 'Tue, 01 Jan 2019 00:00:00 GMT' },
        { range: 'bytes=0-99', 'if-range': '"some-etag"' },
      ]) {
        const response = await app.inject({ method: 'GET', url: url(id), headers });
        assert.equal(response.statusCode, 200, JSON.stringify(headers));
        assert.equal(response.rawPayload.length, 10_000);
      }
      const response = await app.inject({
        method: 'GET',
        url: url(id),
        headers: { range: 'bytes=0-99', 'if-range': file?.createdAt.toUTCString() ?? '' },
      });
      assert.equal(response.statusCode, 206);
      assert.equal(response.headers['last-modified'], file?.createdAt.toUTCString());
    });

    it('ignores Range on HEAD, where range handling is not defined (RFC 9110, section 14.2)', async () => {
      const response = await app.inject({ method: 'HEAD', url: url(id), headers: { range: 'bytes=0-99' } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-length'], '10000');
    });
  });

  describe('error', () => {
    it('answers a range past the end with 416 and Content-Range: bytes */size', async () => {
      const response = await app.inject({ method: 'GET', url: url(id), headers: { range: 'bytes=10000-' } });
      assert.equal(response.statusCode, 416);
      assert.equal(response.headers['content-range'], 'bytes */10000');
      assert.equal(response.json().error.code, 'range_not_satisfiable');
    });

    it('gives one identical 404 for an unknown, a malformed and an expired id', async () => {
      const { id: expiring } = await saveFile(store, [bytes]);
      clockOffsetMs = HOUR;
      try {
        const responses = await Promise.all(
          [url(newFileId()), url('not-an-id'), url(`${newFileId()}x`), url(expiring)].map((u) =>
            app.inject({ method: 'GET', url: u }),
          ),
        );
        for (const response of responses) assert.equal(response.statusCode, 404);
        const bodies = responses.map(withoutRequestId);
        assert.equal(bodies[0].error.code, 'not_found');
        for (const body of bodies) assert.deepEqual(body, bodies[0]);
        // HEAD on the expired file is a 404 too: the file is gone, not just hidden.
        assert.equal((await app.inject({ method: 'HEAD', url: url(expiring) })).statusCode, 404);
      } finally {
        clockOffsetMs = 0;
      }
    });

    it('answers 404 for names that are not audio_<id>.wav', async () => {
      for (const u of [`/generated/${id}.wav`, `/generated/audio_${id}.mp3`, `/generated/audio_${id}`]) {
        const response = await app.inject({ method: 'GET', url: u });
        assert.equal(response.statusCode, 404, u);
        assert.equal(response.json().error.code, 'not_found');
      }
    });

    // RFC 9110, section 15.5.6: a 405 carries Allow.
    it('answers 405 with Allow for a wrong method', async () => {
      for (const method of ['DELETE', 'PUT', 'POST', 'PATCH'] as const) {
        const response = await app.inject({ method, url: url(id) });
        assert.equal(response.statusCode, 405, method);
        assert.equal(response.headers.allow, 'GET, HEAD');
        assert.equal(response.json().error.code, 'method_not_allowed');
      }
      assert.ok(await store.open(id), 'DELETE did not remove the file');
    });
  });

  describe('security', () => {
    // Encodings from OWASP's "Path Traversal" attack page; a real file sits just outside the
    // store's folder, where a traversal would land.
    it('never serves a path outside the store', async () => {
      await writeFile(join(root, 'secret.wav'), 'not yours');
      for (const u of [
        '/generated/audio_..%2F..%2Fetc.wav',
        '/generated/audio_..%2Fsecret.wav',
        '/generated/audio_..%5Csecret.wav',
        '/generated/audio_..%252Fsecret.wav',
        '/generated/audio_%2E%2E%2Fsecret.wav',
        `/generated/audio_${id}%00.wav`,
        '/generated/../secret.wav',
      ]) {
        const response = await app.inject({ method: 'GET', url: u });
        assert.equal(response.statusCode, 404, u);
        assert.doesNotMatch(response.body, /not yours/);
        assert.ok(!response.body.includes(root), 'no file-system path in the body');
      }
    });

    it('does not echo the requested name in the 404', async () => {
      const probe = '<script>alert(1)</script>';
      const response = await app.inject({ method: 'GET', url: url(encodeURIComponent(probe)) });
      assert.equal(response.statusCode, 404);
      assert.ok(!response.body.includes('script'));
    });
  });
});
