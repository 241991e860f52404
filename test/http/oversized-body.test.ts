import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BODY_LIMIT_BYTES } from '../../src/http/app.ts';
import { type ServiceProcess, startService } from '../helpers/service-process.ts';

// A body over the limit, sent by clients that write the whole body before they read the answer
// (Node's fetch, Python's urllib): the server answers 413 at once, and must go on reading what the
// client sends for a while, or closing the socket with unread input makes the kernel reset the
// connection and the client sees a broken pipe instead of the answer. The service runs in a
// process of its own, as in production: a client in the server's own event loop takes turns with
// it and hides the race.

const OVERSIZED = [3_000_000, 10_000_000, 20_000_000];
/** A lost answer depends on who wins a race on the socket (about one in four at 10 MB): tries make it show. */
const ATTEMPTS = 8;

describe('an oversized body', () => {
  let service: ServiceProcess;
  let dataDir: string;
  let base: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ijwi-oversized-'));
    service = startService({ DATA_DIR: dataDir });
    base = await service.listening;
  });
  after(async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const body = (bytes: number) => JSON.stringify({ input: 'a'.repeat(bytes) });

  for (const bytes of OVERSIZED) {
    for (const path of ['/api/v1/tts.php', '/v1/audio/speech']) {
      it(`of ${bytes / 1e6} MB to ${path}: Node's fetch gets the 413 JSON error, every time`, async () => {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const response = await fetch(`${base}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: body(bytes),
          });
          assert.equal(response.status, 413);
          const { error } = (await response.json()) as { error: { code: string; message: string } };
          assert.equal(error.code, 'body_too_large');
          assert.match(error.message, new RegExp(`${BODY_LIMIT_BYTES} bytes`));
        }
      });
    }
  }

  it('sent whole before the answer is read, as urllib sends it: the 413, and the connection closes', async () => {
    const payload = Buffer.from(body(3_000_000));
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${base}/api/v1/tts.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': payload.byteLength },
      });
      req.on('error', reject);
      req.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      req.end(payload);
    });
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.text).error.code, 'body_too_large');
  });

  it('leaves the server answering the next request', async () => {
    const response = await fetch(`${base}/api/v1/voices.php?format=json`);
    assert.equal(response.status, 200);
    await response.arrayBuffer();
  });
});
