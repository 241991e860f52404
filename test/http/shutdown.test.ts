import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildTestApp } from '../helpers/build-test-app.ts';

// While an instance shuts down (a deploy), a request that still reaches it on an open connection
// gets the API's own 503 with its request id and when to retry, not the framework's bare body,
// and the health check says not ready.

interface RawResponse {
  readonly head: string;
  readonly body: string;
}

/**
 * Two requests on one connection: a first whose body is still coming when the app starts to
 * close (so closing waits for that connection; this app has no speech routes, so it is a 404
 * once whole), then `path`, which arrives while the app closes. Returns every response.
 */
async function requestWhileClosing(path: string): Promise<RawResponse[]> {
  const app = await buildTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address && typeof address === 'object');
  const socket = connect(address.port, '127.0.0.1');
  socket.on('error', () => {});
  let raw = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    raw += chunk;
  });
  await once(socket, 'connect');
  const body = '{"text":"Hello."}';
  // The server has the first request (its hooks ran) before the app starts to close.
  const received = once(app.server, 'request');
  socket.write(
    `POST /api/v1/tts-stream.php HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  await received;
  const closed = app.close();
  // Closing begins on the app's own next turns: no I/O to wait for.
  await sleep(50);
  socket.write(`${body.slice(5)}GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`);
  await Promise.race([once(socket, 'close'), sleep(5_000)]);
  socket.destroy();
  await closed;
  return raw
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((part) => part !== '')
    .map((response) => {
      const [head = '', payload = ''] = response.split('\r\n\r\n');
      return { head, body: payload };
    });
}

describe('shutting down', () => {
  it('answers a request that arrives while the instance closes with the API 503, its id and Retry-After', async () => {
    const refused = (await requestWhileClosing('/api/v1/voices.php?format=json')).filter((r) =>
      r.head.startsWith('HTTP/1.1 503 '),
    );
    assert.equal(refused.length, 1, JSON.stringify(refused));
    const { head, body } = refused[0] as RawResponse;
    assert.match(head, /\r\nx-request-id: req_/i);
    assert.match(head, /\r\nretry-after: \d+/i);
    assert.match(head, /\r\nconnection: close/i);
    const error = JSON.parse(body) as { error: { code: string; message: string; request_id: string } };
    assert.equal(error.error.code, 'not_ready');
    assert.match(error.error.message, /shutting down/);
    assert.match(head, new RegExp(`x-request-id: ${error.error.request_id}`, 'i'));
  });

  it('reports not ready on the health check while it closes, so a load balancer sends calls elsewhere', async () => {
    const responses = await requestWhileClosing('/api/v1/health.php');
    const health = responses.find((r) => r.body.includes('"checks"'));
    assert.ok(health, JSON.stringify(responses));
    assert.match(health.head, /^HTTP\/1\.1 503 /);
    const body = JSON.parse(health.body) as { status: string; checks: Record<string, string> };
    assert.equal(body.status, 'not_ready');
    assert.equal(body.checks.instance, 'shutting down');
    assert.equal(body.checks.engine, 'ok');
  });
});
