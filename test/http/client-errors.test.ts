import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { requestId } from '../../src/http/app.ts';
import { clientErrorHandler, MAX_URL_BYTES } from '../../src/http/client-errors.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';

// Raw sockets against a listening app: `inject()` never goes through Node's HTTP parser, which is
// where these requests are rejected.

const REQUEST_ID = /^req_[A-Za-z0-9_-]{16}$/;
const HEALTH = '/api/v1/health.php';

interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Every byte the server sent, to count responses. */
  readonly raw: string;
}

function parse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  assert.ok(end > 0, `a complete response head, got ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: raw.slice(end + 4), raw };
}

/** Whether `raw` holds a whole response with a Content-Length body. */
function complete(raw: string): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end))?.[1];
  return length !== undefined && Buffer.byteLength(raw.slice(end + 4), 'latin1') >= Number(length);
}

/**
 * Writes `chunks` (pausing between them) on a fresh connection and reads the answer: until the
 * server closes the connection, or only until a whole response has arrived.
 */
async function exchange(
  port: number,
  chunks: readonly string[],
  until: 'close' | 'response' = 'close',
): Promise<RawResponse> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {}); // a reset after the answer is not what these tests look at
  let raw = '';
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${until} in 5 s; got ${JSON.stringify(raw)}`)),
      5_000,
    );
    const finish = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.on('data', (data: Buffer) => {
      raw += data.toString('latin1');
      if (until === 'response' && complete(raw)) finish();
    });
    socket.on('close', finish);
  });
  await once(socket, 'connect');
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    if (socket.writable) socket.write(chunk, 'latin1');
  }
  await done;
  socket.destroy();
  return parse(raw);
}

function assertErrorResponse(response: RawResponse, status: number, code: string): { message: string } {
  assert.equal(response.status, status, response.raw.slice(0, 300));
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(Number(response.headers['content-length']), Buffer.byteLength(response.body, 'latin1'));
  const id = response.headers['x-request-id'] ?? '';
  assert.match(id, REQUEST_ID);
  const { error } = JSON.parse(response.body) as {
    error: { code: string; message: string; param: unknown; request_id: string };
  };
  assert.equal(error.code, code);
  assert.equal(error.request_id, id);
  assert.equal(error.param, null);
  assert.ok(error.message.length > 0);
  return error;
}

describe('errors answered before routing, on a listening server', () => {
  let app: FastifyInstance;
  let port: number;

  before(async () => {
    app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
  });
  after(() => app.close());

  const get = (target: string, headers = 'Host: test\r\n') => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

  /** The server still answers a normal request, on a new connection. */
  const stillServes = async () => {
    const response = await exchange(port, [get(HEALTH)], 'response');
    assert.equal(response.status, 200, response.raw.slice(0, 300));
    assert.match(response.headers['x-request-id'] ?? '', REQUEST_ID);
  };

  describe('happy', () => {
    it('a URL of exactly the limit is served', async () => {
      const target = `${HEALTH}?pad=`;
      const response = await exchange(
        port,
        [get(target + 'a'.repeat(MAX_URL_BYTES - target.length))],
        'response',
      );
      assert.equal(response.status, 200, response.raw.slice(0, 300));
    });

    it('an HTTP/1.0 request needs no Host', async () => {
      const response = await exchange(port, [`GET ${HEALTH} HTTP/1.0\r\n\r\n`]);
      assert.equal(response.status, 200, response.raw.slice(0, 300));
    });
  });

  describe('unhappy: rejected by the HTTP parser, answered on the socket', () => {
    it('headers over the limit: 431 headers_too_large, saying the limit, and the connection closed', async () => {
      const response = await exchange(port, [get(HEALTH, `Host: test\r\nX-Big: ${'a'.repeat(20_000)}\r\n`)]);
      const error = assertErrorResponse(response, 431, 'headers_too_large');
      assert.match(error.message, /16384 bytes/);
      assert.equal(response.headers.connection, 'close');
      await stillServes();
    });

    it('a client that goes on sending after the headers overflowed gets one answer only', async () => {
      const big = `GET ${HEALTH} HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(17_000)}`;
      const response = await exchange(port, [big, 'b'.repeat(5_000), '\r\n\r\n']);
      assertErrorResponse(response, 431, 'headers_too_large');
      assert.equal(response.raw.split('HTTP/1.1 ').length - 1, 1);
      await stillServes();
    });

    it('a malformed request line: 400 invalid_request', async () => {
      const response = await exchange(port, ['GARBAGE\r\n\r\n']);
      assertErrorResponse(response, 400, 'invalid_request');
      assert.equal(response.headers.connection, 'close');
      await stillServes();
    });

    it('a control character in a header value: 400 invalid_request about the header', async () => {
      const response = await exchange(port, [get(HEALTH, 'Host: test\r\nX-Bad: a\x01b\r\n')]);
      const error = assertErrorResponse(response, 400, 'invalid_request');
      assert.match(error.message, /header/);
      await stillServes();
    });

    it('a separator in a header name: 400 invalid_request', async () => {
      const response = await exchange(port, [get(HEALTH, 'Host: test\r\nX(Bad): a\r\n')]);
      assertErrorResponse(response, 400, 'invalid_request');
      await stillServes();
    });

    it('two Content-Lengths: 400 invalid_request about the body length', async () => {
      const response = await exchange(port, [
        `POST /api/v1/tts.php HTTP/1.1\r\nHost: test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}`,
      ]);
      const error = assertErrorResponse(response, 400, 'invalid_request');
      assert.match(error.message, /Content-Length/);
      await stillServes();
    });

    it('chunk extensions over Node’s limit: 413 body_too_large', async () => {
      const response = await exchange(port, [
        'POST /api/v1/tts.php HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
          `Transfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\n{\r\n`,
      ]);
      const error = assertErrorResponse(response, 413, 'body_too_large');
      assert.match(error.message, /16384 bytes/);
      await stillServes();
    });

    it('a request cut short by the client: 400 invalid_request', async () => {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let raw = '';
      socket.on('data', (data: Buffer) => {
        raw += data.toString('latin1');
      });
      socket.end(`GET ${HEALTH} HTTP/1.1\r\nHost: test\r\n`);
      await once(socket, 'close');
      const error = assertErrorResponse(parse(raw), 400, 'invalid_request');
      assert.match(error.message, /ended before the request was complete/);
      await stillServes();
    });
  });

  describe('unhappy: answered by the app with its error handler', () => {
    it('a URL over 8 KiB: 414 uri_too_long, saying the limit', async () => {
      const response = await exchange(port, [get(`${HEALTH}?pad=${'a'.repeat(MAX_URL_BYTES)}`)], 'response');
      const error = assertErrorResponse(response, 414, 'uri_too_long');
      assert.match(error.message, new RegExp(`the limit is ${MAX_URL_BYTES}`));
      await stillServes();
    });

    it('a Content-Length over the body limit: 413 body_too_large, before the body is read', async () => {
      const response = await exchange(port, [
        'POST /api/v1/tts.php HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100000\r\n\r\n{',
      ]);
      const error = assertErrorResponse(response, 413, 'body_too_large');
      assert.match(error.message, /65536 bytes/);
      await stillServes();
    });

    it('HTTP/1.1 without Host: 400 invalid_request', async () => {
      const response = await exchange(port, [get(HEALTH, '')], 'response');
      const error = assertErrorResponse(response, 400, 'invalid_request');
      assert.match(error.message, /Host/);
      await stillServes();
    });

    it('an Expect other than 100-continue: 417 expectation_failed', async () => {
      const response = await exchange(port, [get(HEALTH, 'Host: test\r\nExpect: teapot\r\n')], 'response');
      const error = assertErrorResponse(response, 417, 'expectation_failed');
      assert.match(error.message, /100-continue/);
      await stillServes();
    });

    it('bad percent-encoding in a path parameter: 400 invalid_request', async () => {
      const response = await exchange(port, [get('/generated/%zz')], 'response');
      assertErrorResponse(response, 400, 'invalid_request');
      await stillServes();
    });

    it('a path parameter longer than any name given out: 404 not_found', async () => {
      const response = await exchange(port, [get(`/generated/audio_${'a'.repeat(200)}.wav`)], 'response');
      assertErrorResponse(response, 404, 'not_found');
      await stillServes();
    });
  });
});

describe('clientErrorHandler on a bare socket', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  const handler = clientErrorHandler({ requestId, maxHeaderBytes: 16_384, requestTimeoutMs: 60_000 });
  const connectionError = (code: string): ConnectionError =>
    Object.assign(new Error(code), { code, bytesParsed: 0, rawPacket: { type: 'Buffer', data: [] } });

  /** A connected pair: the server side for the handler, and what the client side reads. */
  async function pair(): Promise<{ server: Socket; received: Promise<string>; close: () => void }> {
    const listener = createServer();
    listener.listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const address = listener.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const client = connect(address.port, '127.0.0.1');
    const [server] = (await once(listener, 'connection')) as [Socket];
    let raw = '';
    client.on('data', (data: Buffer) => {
      raw += data.toString('latin1');
    });
    client.on('error', () => {});
    const received = once(client, 'close').then(() => raw);
    return {
      server,
      received,
      close: () => {
        client.destroy();
        listener.close();
      },
    };
  }

  it('a request timeout: 408 request_timeout, then the socket is closed', async () => {
    const { server, received, close } = await pair();
    handler.call(app, connectionError('ERR_HTTP_REQUEST_TIMEOUT'), server);
    const error = assertErrorResponse(parse(await received), 408, 'request_timeout');
    assert.match(error.message, /60 seconds/);
    await once(server, 'close');
    close();
  });

  it('a socket that is no longer writable: nothing written, the socket destroyed', async () => {
    const { server, received, close } = await pair();
    server.end();
    handler.call(app, connectionError('HPE_HEADER_OVERFLOW'), server);
    assert.equal(server.destroyed, true);
    assert.equal(await received, '');
    close();
  });

  it('a connection reset: nothing written', async () => {
    const { server, received, close } = await pair();
    handler.call(app, connectionError('ECONNRESET'), server);
    assert.equal(server.destroyed, true);
    assert.equal(await received, '');
    close();
  });
});
