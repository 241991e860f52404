import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../../../accounts/accounts.ts';
import { authenticateKey } from '../../../calls/admission.ts';
import type { CallServices } from '../../../calls/call-services.ts';
import type { WordTiming } from '../../../speech/synthesize.ts';
import type { RateLimitStore } from '../../../store/rate-limit/rate-limit-store.ts';
import { admitKey, keyCaller } from '../../admission.ts';
import { ApiError, refusalError } from '../../errors.ts';
import type { LiveCaller } from '../../live/live-connection.ts';
import { type LiveSockets, tooManySockets } from '../../routes/live.ts';
import type { TtsLexicons } from '../../routes/tts.ts';
import { replyWithStream, type StreamReply } from '../../stream-reply.ts';
import type { StreamBody } from '../../stream-writer.ts';
import { namedInput, parseTtsRequest, withLexicon } from '../../tts-request.ts';
import {
  asFloat32,
  type CartesiaAudio,
  cartesiaAudio,
  cartesiaKey,
  type Generation,
  parseGeneration,
} from './request.ts';
import { cartesiaProtocol } from './websocket.ts';

export interface CartesiaOptions extends CallServices {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly lexicons: TtsLexicons;
  readonly supportEmail: string | null;
  /** The most characters one request speaks: the stream endpoint's limit. */
  readonly maxChars: number;
  readonly sockets: LiveSockets;
}

const encoder = new TextEncoder();

/** The samples as the format asks: 32-bit floats for `pcm_f32le`, else as made. */
const samples = (audio: CartesiaAudio) => (bytes: Uint8Array) => (audio.float ? asFloat32(bytes) : bytes);

/** `/tts/bytes`: the audio, after a WAV header for the `wav` container. */
function bytesBody(audio: CartesiaAudio): StreamBody {
  const shape = samples(audio);
  return {
    first: (bytes) => (audio.header.byteLength ? Buffer.concat([audio.header, shape(bytes)]) : shape(bytes)),
    next: shape,
    last: () => undefined,
  };
}

/** `/tts/sse`: a `chunk` event per part, `timestamps` after each clause when asked, then `done`. */
function sseBody(audio: CartesiaAudio, generation: Generation): StreamBody {
  const shape = samples(audio);
  const contextId = generation.context_id ?? null;
  const event = (fields: Record<string, unknown>) =>
    encoder.encode(
      `event: ${String(fields.type)}\ndata: ${JSON.stringify({ ...fields, context_id: contextId })}\n\n`,
    );
  const chunk = (bytes: Uint8Array) =>
    event({
      type: 'chunk',
      data: Buffer.from(shape(bytes)).toString('base64'),
      done: false,
      status_code: 206,
      step_time: 0,
    });
  return {
    first: chunk,
    next: chunk,
    words: (words: readonly WordTiming[]) =>
      generation.add_timestamps
        ? event({
            type: 'timestamps',
            done: false,
            status_code: 206,
            word_timestamps: {
              words: words.map((w) => w.text),
              start: words.map((w) => w.startMs / 1000),
              end: words.map((w) => w.endMs / 1000),
            },
          })
        : undefined,
    last: () => event({ type: 'done', done: true, status_code: 200 }),
  };
}

/**
 * Cartesia's text-to-speech under `/cartesia`: `POST /tts/bytes` (the audio as it is made) and
 * `POST /tts/sse` (server-sent events), each one billed stream call; `GET /tts/websocket` (a live
 * connection speaking Cartesia's frames, each context a live context).
 */
export const cartesiaRoutes: FastifyPluginAsync<CartesiaOptions> = async (app, options) => {
  const route = {
    schema: { hide: true },
    preValidation: admitKey({ ...options, keyFrom: cartesiaKey }, 'cartesia'),
  };
  const speak = async (
    request: FastifyRequest,
    reply: FastifyReply,
    shape: (audio: CartesiaAudio, generation: Generation) => StreamReply,
    words: boolean,
  ) => {
    const { accountId } = keyCaller(request);
    const generation = parseGeneration(request.body);
    const audio = cartesiaAudio(generation);
    const read = namedInput('transcript', () =>
      parseTtsRequest(
        { input: generation.transcript, language: audio.voice.language, speaker_id: audio.voice.speakerId },
        options.maxChars,
      ),
    );
    const tts = await withLexicon(read, accountId, options.lexicons);
    await replyWithStream(
      request,
      reply,
      options,
      { accountId, speech: tts, target: audio.target, studio: false, path: 'cartesia', words },
      shape(audio, generation),
      { caller: 'key', supportEmail: options.supportEmail },
    );
  };
  app.post('/cartesia/tts/bytes', route, (request, reply) =>
    speak(
      request,
      reply,
      (audio) => ({ audioHeaders: () => ({ 'Content-Type': audio.contentType }), body: bytesBody(audio) }),
      false,
    ),
  );
  app.post('/cartesia/tts/sse', route, (request, reply) =>
    speak(
      request,
      reply,
      (audio, generation) => {
        if (!audio.format)
          throw new ApiError(
            'unsupported_format',
            'server-sent events carry raw samples: output_format.container must be raw',
            {
              param: 'output_format.container',
            },
          );
        return {
          audioHeaders: () => ({ 'Content-Type': 'text/event-stream' }),
          body: sseBody(audio, generation),
        };
      },
      true,
    ),
  );

  const admitted = new WeakMap<FastifyRequest, LiveCaller>();
  app.route({
    method: 'GET',
    url: '/cartesia/tts/websocket',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      const auth = await authenticateKey(options.accounts, cartesiaKey(request));
      if (!auth.ok) throw refusalError(auth.refusal, { caller: 'key', supportEmail: null });
      if (options.sockets.full(auth.caller.keyId)) throw tooManySockets();
      admitted.set(request, { ...auth.caller, studio: false });
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'this endpoint speaks WebSocket: send an upgrade request');
    },
    wsHandler: (socket, request) => {
      const caller = admitted.get(request);
      if (!caller) return socket.close(1008, 'not admitted');
      options.sockets.serve(socket, request.log, caller, cartesiaProtocol());
    },
  });
};
