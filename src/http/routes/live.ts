import websocket from '@fastify/websocket';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import {
  type LiveCaller,
  LiveConnection,
  type LiveLimits,
  type LiveServices,
} from '../live/live-connection.ts';

/** Bytes of one client message: a context holds 4,000 characters, at most 4 bytes each in UTF-8. */
export const LIVE_MAX_MESSAGE_BYTES = 64 * 1024;
/** Live connections one API key may hold open on one instance of the service. */
export const LIVE_MAX_CONNECTIONS_PER_KEY = 10;

export interface LiveOptions extends Omit<LiveServices, 'limits'> {
  readonly limits: LiveLimits;
  /** The service's own address: a browser page from there may connect. */
  readonly publicBaseUrl: string;
}

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

/**
 * GET /api/v1/tts-live: the live WebSocket (api-v1.md, "Live streaming over WebSocket"). The
 * upgrade is refused with the API's JSON errors before any WebSocket exists: a page of another
 * site (its `Origin` is neither this service nor the host it asked for), a bad key in the
 * headers (401), too many connections for the key. Without a key in the headers, the first
 * message must carry one.
 */
export const liveRoutes: FastifyPluginAsync<LiveOptions> = async (app, options) => {
  await app.register(websocket, { options: { maxPayload: LIVE_MAX_MESSAGE_BYTES } });
  const connections = new Map<string, number>();
  const admit = (caller: LiveCaller): boolean => {
    const open = connections.get(caller.keyId) ?? 0;
    if (open >= LIVE_MAX_CONNECTIONS_PER_KEY) return false;
    connections.set(caller.keyId, open + 1);
    return true;
  };
  const release = (caller: LiveCaller) => {
    const open = (connections.get(caller.keyId) ?? 1) - 1;
    if (open > 0) connections.set(caller.keyId, open);
    else connections.delete(caller.keyId);
  };
  const ownOrigin = new URL(options.publicBaseUrl).origin;

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

  app.route<{ Querystring: unknown }>({
    method: 'GET',
    url: '/api/v1/tts-live',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== ownOrigin && !sameHost(origin, request.headers.host)) {
        throw new ApiError('forbidden', 'this origin may not open live connections', { param: 'Origin' });
      }
      const caller = await headerCaller(request);
      if (caller !== undefined && (connections.get(caller.keyId) ?? 0) >= LIVE_MAX_CONNECTIONS_PER_KEY) {
        throw new ApiError(
          'rate_limited',
          `at most ${LIVE_MAX_CONNECTIONS_PER_KEY} live connections per API key at once`,
          { headers: { 'Retry-After': '5' } },
        );
      }
      request.liveCaller = caller;
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'this endpoint speaks WebSocket: send an upgrade request');
    },
    wsHandler: (socket, request) => {
      let admitted: LiveCaller | undefined;
      socket.on('close', () => {
        if (admitted) release(admitted);
      });
      new LiveConnection(socket, options, {
        ...(request.liveCaller ? { caller: request.liveCaller } : {}),
        log: request.log,
        onAuthenticated: (caller) => {
          if (!admit(caller)) return false;
          admitted = caller;
          return true;
        },
      });
    },
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
