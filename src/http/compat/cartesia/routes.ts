import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WordTiming } from '../../../speech/synthesize.ts';
import { admitKey } from '../../admission.ts';
import { ApiError } from '../../errors.ts';
import { protocolSocketRoute } from '../../live/socket-route.ts';
import type { StreamReply } from '../../stream-reply.ts';
import type { StreamBody } from '../../stream-writer.ts';
import { headedBody, parseBody, speakCompatible } from '../compatible-call.ts';
import type { CompatibleOptions } from '../options.ts';
import {
  asFloat32,
  type CartesiaAudio,
  cartesiaAudio,
  cartesiaKey,
  type Generation,
  generationSchema,
} from './request.ts';
import { cartesiaProtocol } from './websocket.ts';

const encoder = new TextEncoder();

/** The samples as the format asks: 32-bit floats for `pcm_f32le`, else as made. */
const samples = (audio: CartesiaAudio) => (bytes: Uint8Array) => (audio.float ? asFloat32(bytes) : bytes);

/** `/tts/bytes`: the audio, after a WAV header for the `wav` container. */
function bytesBody(audio: CartesiaAudio): StreamBody {
  return headedBody(audio.header, samples(audio));
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
export const cartesiaRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
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
    const generation = parseBody(generationSchema, request.body, 'a generation request');
    const audio = cartesiaAudio(generation);
    await speakCompatible(
      request,
      reply,
      options,
      {
        voice: audio.voice,
        text: generation.transcript,
        field: 'transcript',
        target: audio.target,
        path: 'cartesia',
        words,
      },
      () => shape(audio, generation),
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

  protocolSocketRoute(app, {
    url: '/cartesia/tts/websocket',
    accounts: options.accounts,
    sockets: options.sockets,
    keyFrom: cartesiaKey,
    protocolFor: () => cartesiaProtocol(),
  });
};
