import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AccountService } from '../../../accounts/accounts.ts';
import { authenticateKey } from '../../../calls/admission.ts';
import type { CallServices } from '../../../calls/call-services.ts';
import type { RateLimitStore } from '../../../store/rate-limit/rate-limit-store.ts';
import { admitKey, keyCaller } from '../../admission.ts';
import { ApiError, refusalError } from '../../errors.ts';
import type { LiveCaller } from '../../live/live-connection.ts';
import type { LiveProtocol } from '../../live/protocol.ts';
import { type LiveSockets, tooManySockets } from '../../routes/live.ts';
import type { TtsLexicons } from '../../routes/tts.ts';
import { replyWithStream } from '../../stream-reply.ts';
import { namedInput, parseTtsRequest, withLexicon } from '../../tts-request.ts';
import { voiceIdOf } from '../voice-id.ts';
import { deepgramAudio, deepgramKey } from './speak.ts';
import { deepgramProtocol } from './websocket.ts';

export interface DeepgramOptions extends CallServices {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly lexicons: TtsLexicons;
  readonly supportEmail: string | null;
  /** The most characters one request speaks: the stream endpoint's limit. */
  readonly maxChars: number;
  /** The live connections of this instance, which the speak sockets join. */
  readonly sockets: LiveSockets;
}

type SpeakRequest = FastifyRequest<{ Querystring: Record<string, unknown> }>;

/**
 * Deepgram's `/v1/speak` under `/deepgram`: `POST` (body `{"text"}`, the audio streamed as it is
 * made, one billed stream call) and the WebSocket on the same path (one live context a socket).
 * The key is `Authorization: Token <key>`; `model` names an Ijwi voice.
 */
export const deepgramRoutes: FastifyPluginAsync<DeepgramOptions> = async (app, options) => {
  const admitted = new WeakMap<FastifyRequest, { caller: LiveCaller; protocol: LiveProtocol }>();
  const admitPost = admitKey({ ...options, keyFrom: deepgramKey }, 'deepgram');
  app.post(
    '/deepgram/v1/speak',
    { schema: { hide: true }, preValidation: admitPost },
    async (request: SpeakRequest, reply) => {
      const { accountId } = keyCaller(request);
      const audio = deepgramAudio(request.query, false);
      const body = (request.body ?? {}) as { text?: unknown };
      const read = namedInput('text', () =>
        parseTtsRequest(
          { input: body.text, language: audio.voice.language, speaker_id: audio.voice.speakerId },
          options.maxChars,
        ),
      );
      const tts = await withLexicon(read, accountId, options.lexicons);
      reply.header('dg-request-id', request.id);
      reply.header('dg-model-name', voiceIdOf(audio.voice));
      reply.header('dg-char-count', String(tts.characters));
      await replyWithStream(
        request,
        reply,
        options,
        { accountId, speech: tts, target: audio.target, studio: false, path: 'deepgram' },
        {
          audioHeaders: () => ({ 'Content-Type': audio.contentType }),
          body: {
            first: (bytes) => (audio.header.byteLength ? Buffer.concat([audio.header, bytes]) : bytes),
            next: (bytes) => bytes,
            last: () => undefined,
          },
        },
        { caller: 'key', supportEmail: options.supportEmail },
      );
    },
  );
  app.route({
    method: 'GET',
    url: '/deepgram/v1/speak',
    schema: { hide: true },
    preValidation: async (request: SpeakRequest) => {
      if (!request.ws) return;
      const audio = deepgramAudio(request.query, true);
      const auth = await authenticateKey(options.accounts, deepgramKey(request));
      if (!auth.ok) throw refusalError(auth.refusal, { caller: 'key', supportEmail: null });
      if (options.sockets.full(auth.caller.keyId)) throw tooManySockets();
      if (audio.target.kind !== 'stream') throw new Error('a speak socket sends bare samples');
      admitted.set(request, {
        caller: { ...auth.caller, studio: false },
        protocol: deepgramProtocol(audio.voice, audio.target.format),
      });
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'GET /v1/speak speaks WebSocket: send an upgrade request');
    },
    wsHandler: (socket, request) => {
      const session = admitted.get(request);
      if (!session) return socket.close(1008, 'not admitted');
      options.sockets.serve(socket, request.log, session.caller, session.protocol);
    },
  });
};
