import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import {
  type LiveCaller,
  LiveConnection,
  type LiveLimits,
  type LiveServices,
} from '../live/live-connection.ts';
import type { LiveProtocol } from '../live/protocol.ts';

/** Bytes of one client message: a context holds 4,000 characters, at most 4 bytes each in UTF-8. */
export const LIVE_MAX_MESSAGE_BYTES = 64 * 1024;
/** Live connections one API key may hold open on one instance of the service. */
export const LIVE_MAX_CONNECTIONS_PER_KEY = 10;

/** The live endpoint's timings and buffer, apart from the request limits it shares with the stream. */
export type LiveTimings = Pick<LiveLimits, 'idleMs' | 'authMs' | 'leadMs' | 'highWaterBytes' | 'stallMs'>;

/** The default timings and buffer of the live endpoint (api-v1.md fixes the 20 s and 5 s). */
export const defaultLiveTimings: LiveTimings = {
  idleMs: 20_000,
  authMs: 5_000,
  leadMs: 1_000,
  highWaterBytes: 256 * 1024,
  stallMs: 20_000,
};

/** Registers WebSocket support for the whole app: every live route upgrades through it. */
export async function registerWebSockets(app: FastifyInstance): Promise<void> {
  await app.register(websocket, { options: { maxPayload: LIVE_MAX_MESSAGE_BYTES } });
}

/**
 * The live connections of this instance: serves each upgraded socket with the services, and
 * counts the sockets of each bucket (an API key, or a studio account) to bound them.
 */
export class LiveSockets {
  readonly #services: LiveServices;
  readonly #open = new Map<string, number>();

  constructor(services: LiveServices) {
    this.#services = services;
  }

  /** Whether `bucket` already holds as many sockets as it may. */
  full(bucket: string): boolean {
    return (this.#open.get(bucket) ?? 0) >= LIVE_MAX_CONNECTIONS_PER_KEY;
  }

  /**
   * Serves `socket`, upgraded from `request` (its log, and its connection, on which the first
   * audio's delivery is judged); `caller` when the upgrade authenticated, else the first message must.
   */
  serve(
    socket: WebSocket,
    request: Pick<FastifyRequest, 'log' | 'raw'>,
    caller: LiveCaller | undefined,
    protocol?: LiveProtocol,
  ): void {
    let admitted: string | undefined;
    socket.on('close', () => {
      if (admitted === undefined) return;
      const open = (this.#open.get(admitted) ?? 1) - 1;
      if (open > 0) this.#open.set(admitted, open);
      else this.#open.delete(admitted);
    });
    new LiveConnection(socket, this.#services, {
      ...(caller ? { caller } : {}),
      ...(protocol ? { protocol } : {}),
      log: request.log,
      connection: request.raw.socket,
      onAuthenticated: (who) => {
        if (this.full(who.keyId)) return false;
        this.#open.set(who.keyId, (this.#open.get(who.keyId) ?? 0) + 1);
        admitted = who.keyId;
        return true;
      },
    });
  }
}

/** The 429 for a bucket that holds all the live sockets it may. */
export const tooManySockets = () =>
  new ApiError(
    'rate_limited',
    `at most ${LIVE_MAX_CONNECTIONS_PER_KEY} live connections per API key at once`,
    {
      headers: { 'Retry-After': '5' },
    },
  );

/** Whether a browser page at `origin` may open a live socket: this service's own pages only. */
export function ownOrigin(request: FastifyRequest, publicBaseUrl: string): boolean {
  const origin = request.headers.origin;
  return (
    origin === undefined || origin === new URL(publicBaseUrl).origin || sameHost(origin, request.headers.host)
  );
}

export interface LiveOptions {
  readonly sockets: LiveSockets;
  readonly accounts: LiveServices['accounts'];
  /** The service's own address: a browser page from there may connect. */
  readonly publicBaseUrl: string;
}

/**
 * GET /api/v1/tts-live: the live WebSocket (api-v1.md, "Live streaming over WebSocket"). The
 * upgrade is refused with the API's JSON errors before any WebSocket exists: a page of another
 * site (its `Origin` is neither this service nor the host it asked for), a bad key in the
 * headers (401), too many connections for the key. Without a key in the headers, the first
 * message must carry one.
 */
export const liveRoutes: FastifyPluginAsync<LiveOptions> = async (app, options) => {
  const headerCaller = async (request: FastifyRequest): Promise<LiveCaller | undefined> => {
    const { authorization } = request.headers;
    if (authorization === undefined && request.headers['x-voice-api-key'] === undefined) return undefined;
    const auth = await options.accounts.authenticate(apiKeyFrom(request.headers));
    if (!auth.ok) {
      throw new ApiError('invalid_api_key', 'the API key is not valid or has been revoked', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    return { accountId: auth.accountId, keyId: auth.keyId, studio: false };
  };

  app.route({
    method: 'GET',
    url: '/api/v1/tts-live',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      if (!ownOrigin(request, options.publicBaseUrl))
        throw new ApiError('forbidden', 'this origin may not open live connections', { param: 'Origin' });
      const caller = await headerCaller(request);
      if (caller !== undefined && options.sockets.full(caller.keyId)) throw tooManySockets();
      request.liveCaller = caller;
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'this endpoint speaks WebSocket: send an upgrade request');
    },
    wsHandler: (socket, request) => options.sockets.serve(socket, request, request.liveCaller),
  });
};

/** Whether `origin` names the host the request was sent to (a page served by this instance). */
function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the live upgrade authenticated as from its headers; undefined when it carried no key. */
    liveCaller?: LiveCaller;
  }
}
