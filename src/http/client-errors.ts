import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from './errors.ts';

// Errors answered before or beside Fastify's routing: what Node's HTTP parser rejects (it has no
// request or reply, only the socket), and the requests Node would otherwise answer itself with a
// bare status (a failed Expect, a missing Host). All of them get the one error body and an
// X-Request-Id, like every other error of the API.

/** The longest request target (path and query) the app accepts, in bytes; longer gets 414. */
export const MAX_URL_BYTES = 8 * 1024;

/** Node's own limit on the chunk extensions of a chunked body (not configurable). */
const MAX_CHUNK_EXTENSIONS_BYTES = 16 * 1024;

/**
 * How long a rejected connection may stay open after its answer, so that a client still sending
 * (e.g. the rest of oversized headers) reads the answer instead of a reset: closing a socket
 * with unread input makes the kernel send RST, which can discard the answer on the client side.
 */
const LINGER_MS = 1_000;

export interface ClientErrorOptions {
  /** The request id generator of the app (`req_...`). */
  readonly requestId: () => string;
  /** The server's limit on the request line and headers together, in bytes. */
  readonly maxHeaderBytes: number;
  /** The time a client has to send a whole request, in milliseconds. */
  readonly requestTimeoutMs: number;
}

const BODY_FRAMING =
  "the body's length is invalid or ambiguous; send one Content-Length or Transfer-Encoding: chunked, not both";

/** Messages for llhttp's parse errors that a client can cause, by `HPE_*` code. */
const PARSE_ERRORS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'the request method is not valid HTTP; use GET, HEAD or POST',
  HPE_INVALID_URL: 'the request target is not a valid path; percent-encode characters outside URL syntax',
  HPE_INVALID_VERSION: 'the HTTP version is not valid; use HTTP/1.1',
  HPE_INVALID_HEADER_TOKEN:
    'a header name or value has a character HTTP does not allow (a control character, or a separator in a name)',
  HPE_UNEXPECTED_SPACE: 'the request line or a header has a space where HTTP does not allow one',
  HPE_INVALID_CONTENT_LENGTH: BODY_FRAMING,
  HPE_UNEXPECTED_CONTENT_LENGTH: BODY_FRAMING,
  HPE_INVALID_TRANSFER_ENCODING: BODY_FRAMING,
  HPE_INVALID_CHUNK_SIZE: 'the chunked body is malformed: a chunk size is not hexadecimal',
  HPE_CR_EXPECTED: 'a line of the request does not end with CRLF',
  HPE_LF_EXPECTED: 'a line of the request does not end with CRLF',
  HPE_STRICT: 'the request does not follow HTTP/1.1 syntax',
  HPE_INVALID_CONSTANT: 'the request does not follow HTTP/1.1 syntax',
  HPE_INVALID_EOF_STATE: 'the connection ended before the request was complete',
  HPE_CLOSED_CONNECTION: 'data came after a request that asked to close the connection',
};

/**
 * The API error for an error Node reports on `clientError`: 408 for a request that did not
 * arrive in time, 431 for a request line and headers over the server's limit, 413 for chunk
 * extensions over Node's limit, and 400 `invalid_request` for any other malformed request, with
 * a message saying what was wrong. Socket errors other than a reset also land on 400, as Node's
 * own default answers them.
 */
function clientErrorFor(error: Pick<ConnectionError, 'code'>, options: ClientErrorOptions): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(
        'request_timeout',
        `the request did not arrive in time; send the whole request within ${options.requestTimeoutMs / 1000} seconds`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'headers_too_large',
        `the request line and headers are larger than the ${options.maxHeaderBytes} bytes allowed`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(
        'body_too_large',
        `the chunk extensions of the body are larger than the ${MAX_CHUNK_EXTENSIONS_BYTES} bytes allowed`,
      );
  }
  const message = PARSE_ERRORS[error.code] ?? 'the request is not valid HTTP/1.1';
  return new ApiError('invalid_request', message);
}

/**
 * A complete HTTP/1.1 error response as raw text, for a socket that has no reply object: the
 * status, JSON content type, exact length, `Connection: close` and `X-Request-Id`, then the one
 * error body carrying the same request id.
 */
function rawErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  const headers = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    `Date: ${new Date().toUTCString()}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `X-Request-Id: ${requestId}`,
    ...Object.entries(error.options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Whether a response on this socket has already sent its headers: a second response written
 * then would corrupt the stream the client is reading, so the socket is only closed. Node keeps
 * the in-flight response on the socket (its own default handler checks it the same way).
 */
function responseStarted(socket: Socket): boolean {
  const inFlight: unknown = Reflect.get(socket, '_httpMessage');
  return inFlight instanceof ServerResponse && inFlight.headersSent;
}

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser rejects (and request timeouts)
 * with the one error body and a fresh request id, then closes the connection: after a parse
 * error the rest of the stream cannot be trusted. Nothing is written to a socket that is reset,
 * no longer writable, or already sending a response. Node keeps reporting errors while a client
 * goes on sending after the first; only the first is answered.
 */
export function clientErrorHandler(
  options: ClientErrorOptions,
): (this: FastifyInstance, error: ConnectionError, socket: Socket) => void {
  const answered = new WeakSet<Socket>();
  return function onClientError(this: FastifyInstance, error, socket) {
    if (answered.has(socket)) return;
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    const apiError = clientErrorFor(error, options);
    const requestId = options.requestId();
    // Mostly scanners and broken proxies; logged with the id the client got, so that a report
    // quoting it can be found.
    this.log.info({ requestId, code: error.code, status: apiError.status }, 'client error answered');
    socket.end(rawErrorResponse(apiError, requestId));
    const closing = setTimeout(() => socket.destroy(), LINGER_MS);
    closing.unref();
    socket.once('close', () => clearTimeout(closing));
  };
}

/**
 * The error for a request Fastify has parsed but the app refuses before routing: a request
 * target over `MAX_URL_BYTES` (414), or an HTTP/1.1 request without the Host header HTTP/1.1
 * requires (400; Node's own check is turned off so that this answer has the error body).
 */
export function requestLineError(request: FastifyRequest): ApiError | undefined {
  const urlBytes = Buffer.byteLength(request.raw.url ?? '', 'latin1');
  if (urlBytes > MAX_URL_BYTES) {
    return new ApiError('uri_too_long', `the URL is ${urlBytes} bytes long; the limit is ${MAX_URL_BYTES}`);
  }
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  if (httpVersionMajor === 1 && httpVersionMinor >= 1 && request.headers.host === undefined) {
    return new ApiError('invalid_request', 'an HTTP/1.1 request must carry a Host header');
  }
  return undefined;
}

/**
 * A `checkExpectation` listener for the HTTP server: an `Expect` other than `100-continue` gets
 * 417 with the error body, where Node would answer a bare 417 itself. The request is not run.
 */
export function expectationFailedHandler(
  requestId: () => string,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const id = requestId();
    const error = new ApiError(
      'expectation_failed',
      `the Expect header asks for ${JSON.stringify(request.headers.expect ?? '')}; only 100-continue is supported`,
    );
    const body = JSON.stringify(errorBody(error, id));
    response.writeHead(error.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': id,
    });
    response.end(body);
  };
}
