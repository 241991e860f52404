import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { admitKey } from '../../admission.ts';
import { protocolSocketRoute } from '../../live/socket-route.ts';
import { headedBody, speakCompatible } from '../compatible-call.ts';
import type { CompatibleOptions } from '../options.ts';
import { voiceIdOf } from '../voice-id.ts';
import { deepgramAudio, deepgramKey } from './speak.ts';
import { deepgramProtocol } from './websocket.ts';

type SpeakRequest = FastifyRequest<{ Querystring: Record<string, unknown> }>;

/**
 * Deepgram's `/v1/speak` under `/deepgram`: `POST` (body `{"text"}`, the audio streamed as it is
 * made, one billed stream call) and the WebSocket on the same path (one live context a socket).
 * The key is `Authorization: Token <key>`; `model` names an Ijwi voice.
 */
export const deepgramRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
  const admitPost = admitKey({ ...options, keyFrom: deepgramKey }, 'deepgram');
  app.post(
    '/deepgram/v1/speak',
    { schema: { hide: true }, preValidation: admitPost },
    async (request: SpeakRequest, reply) => {
      const audio = deepgramAudio(request.query, false);
      const body = (request.body ?? {}) as { text?: unknown };
      reply.header('dg-request-id', request.id);
      reply.header('dg-model-name', voiceIdOf(audio.voice));
      await speakCompatible(
        request,
        reply,
        options,
        { voice: audio.voice, text: body.text, field: 'text', target: audio.target, path: 'deepgram' },
        (tts) => {
          reply.header('dg-char-count', String(tts.characters));
          return {
            audioHeaders: () => ({ 'Content-Type': audio.contentType }),
            body: headedBody(audio.header),
          };
        },
      );
    },
  );
  protocolSocketRoute(app, {
    url: '/deepgram/v1/speak',
    accounts: options.accounts,
    sockets: options.sockets,
    keyFrom: deepgramKey,
    protocolFor: (request) => {
      const audio = deepgramAudio(request.query as Record<string, unknown>, true);
      if (audio.target.kind !== 'stream') throw new Error('a speak socket sends bare samples');
      return deepgramProtocol(audio.voice, audio.target.format);
    },
  });
};
