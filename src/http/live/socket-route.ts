import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService } from '../../accounts/accounts.ts';
import { authenticateKey } from '../../calls/admission.ts';
import { ApiError, refusalError } from '../errors.ts';
import { type LiveSockets, tooManySockets } from '../routes/live.ts';
import type { LiveCaller } from './live-connection.ts';
import type { LiveProtocol } from './protocol.ts';

/** How one protocol's socket is opened. */
export interface ProtocolSocket {
  readonly url: string;
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly sockets: LiveSockets;
  /** The key the upgrade carries, or the 401 that says where to send it. */
  keyFrom(request: FastifyRequest): string;
  /** The connection's protocol from the upgrade (its voice, format...), or the 4xx refusing it. */
  protocolFor(request: FastifyRequest): LiveProtocol;
}

/**
 * `GET url` upgraded to a live connection speaking another provider's protocol: the upgrade is
 * checked (the protocol's query, then the key, then the key's socket count) and refused with an
 * HTTP error before any socket exists; a plain GET is a 400.
 */
export function protocolSocketRoute(app: FastifyInstance, socket: ProtocolSocket): void {
  const admitted = new WeakMap<FastifyRequest, { caller: LiveCaller; protocol: LiveProtocol }>();
  app.route({
    method: 'GET',
    url: socket.url,
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      const protocol = socket.protocolFor(request);
      const auth = await authenticateKey(socket.accounts, socket.keyFrom(request));
      if (!auth.ok) throw refusalError(auth.refusal, { caller: 'key', supportEmail: null });
      if (socket.sockets.full(auth.caller.keyId)) throw tooManySockets();
      admitted.set(request, { caller: { ...auth.caller, studio: false }, protocol });
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'this endpoint speaks WebSocket: send an upgrade request');
    },
    wsHandler: (connection, request) => {
      const session = admitted.get(request);
      if (!session) return connection.close(1008, 'not admitted');
      socket.sockets.serve(connection, request, session.caller, session.protocol);
    },
  });
}
