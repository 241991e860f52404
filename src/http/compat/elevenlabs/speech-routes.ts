import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AccountService } from '../../../accounts/accounts.ts';
import { authenticateKey } from '../../../calls/admission.ts';
import type { CallServices } from '../../../calls/call-services.ts';
import type { WordTiming } from '../../../speech/synthesize.ts';
import type { RateLimitStore } from '../../../store/rate-limit/rate-limit-store.ts';
import { admitKey, keyCaller } from '../../admission.ts';
import { ApiError, refusalError } from '../../errors.ts';
import type { LiveCaller } from '../../live/live-connection.ts';
import type { LiveProtocol } from '../../live/protocol.ts';
import { type LiveSockets, tooManySockets } from '../../routes/live.ts';
import type { TtsLexicons } from '../../routes/tts.ts';
import { replyWithStream, type StreamReply } from '../../stream-reply.ts';
import type { StreamBody } from '../../stream-writer.ts';
import { withLexicon } from '../../tts-request.ts';
import { voiceOfPath } from '../voice-id.ts';
import { inSeconds, normalizedAlignment, textAlignment } from './alignment.ts';
import { elevenLabsKeyFrom } from './api-key.ts';
import { type ElevenLabsSpeech, parseElevenLabsSpeech } from './speech-request.ts';
import { elevenLabsProtocol, inactivityMs, websocketFormat } from './websocket.ts';

export interface ElevenLabsSpeechOptions extends CallServices {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly lexicons: TtsLexicons;
  /** The operator's contact for buying tokens, named in a 402. */
  readonly supportEmail: string | null;
  /** The most characters one request speaks: the stream endpoint's limit. */
  readonly maxChars: number;
}

type SpeechRequest = FastifyRequest<{
  Params: { voice_id: string };
  Querystring: { output_format?: string };
}>;

/** The key in `xi-api-key`, or the 401 that names the header. */
function elevenLabsKey(request: FastifyRequest): string {
  const key = elevenLabsKeyFrom(request.headers);
  if (key === undefined)
    throw new ApiError('invalid_api_key', 'send your Ijwi API key in the xi-api-key header');
  return key;
}

const encoder = new TextEncoder();

/**
 * Base64 of a byte stream cut anywhere: each part encodes whole 3-byte groups and carries the rest
 * to the next, so the parts joined are the base64 of the whole.
 */
function base64Stream() {
  let carried = Buffer.alloc(0);
  return {
    part(bytes: Uint8Array): string {
      const all = Buffer.concat([carried, bytes]);
      const whole = all.length - (all.length % 3);
      carried = all.subarray(whole);
      return all.subarray(0, whole).toString('base64');
    },
    rest(): string {
      const last = carried.toString('base64');
      carried = Buffer.alloc(0);
      return last;
    },
  };
}

/**
 * `with-timestamps`: one JSON object, `audio_base64` written as the audio is made (so the charge
 * rule of a stream holds: billed at the first audio handed over), then `alignment` (the text as
 * sent) and `normalized_alignment` (the words as read), in seconds from the audio's start.
 */
function wholeWithTimestamps(text: string): StreamBody {
  const audio = base64Stream();
  const heard: WordTiming[] = [];
  return {
    first: (bytes) => encoder.encode(`{"audio_base64":"${audio.part(bytes)}`),
    next: (bytes) => encoder.encode(audio.part(bytes)),
    words: (words) => {
      heard.push(...words);
      return undefined;
    },
    last: () =>
      encoder.encode(
        `${audio.rest()}","alignment":${JSON.stringify(inSeconds(textAlignment(text, heard)))},"normalized_alignment":${JSON.stringify(inSeconds(normalizedAlignment(heard)))}}`,
      ),
  };
}

/**
 * `stream/with-timestamps`: one JSON object a line, each carrying the audio as it comes
 * (`audio_base64`, whole 3-byte groups); after each clause's audio, a line with its words'
 * alignment (as read, in seconds from the audio's start) and no audio.
 */
function linesWithTimestamps(): StreamBody {
  const audio = base64Stream();
  let previous: WordTiming | undefined;
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  return {
    first: (bytes) => line({ audio_base64: audio.part(bytes), alignment: null, normalized_alignment: null }),
    next: (bytes) => line({ audio_base64: audio.part(bytes), alignment: null, normalized_alignment: null }),
    words: (words) => {
      const alignment = inSeconds(normalizedAlignment(words, 0, previous));
      previous = words[words.length - 1] ?? previous;
      return line({ audio_base64: audio.rest(), alignment, normalized_alignment: alignment });
    },
    last: () => {
      const rest = audio.rest();
      return rest === ''
        ? undefined
        : line({ audio_base64: rest, alignment: null, normalized_alignment: null });
    },
  };
}

/**
 * ElevenLabs' speech under `/elevenlabs`: `POST /v1/text-to-speech/{voice_id}` and `.../stream`
 * (the audio in the `output_format` asked for, streamed as it is made), `.../with-timestamps`
 * (one JSON object) and `.../stream/with-timestamps` (a JSON object a line). Each is one billed
 * stream call, admitted by the `xi-api-key` and the key's rate limit.
 */
export const elevenLabsSpeechRoutes: FastifyPluginAsync<ElevenLabsSpeechOptions> = async (app, options) => {
  const route = { preValidation: admitKey({ ...options, keyFrom: elevenLabsKey }, 'elevenlabs') };
  const refusals = { caller: 'key', supportEmail: options.supportEmail } as const;

  const speak = async (
    request: SpeechRequest,
    reply: Parameters<typeof replyWithStream>[1],
    shape: (speech: ElevenLabsSpeech, text: string) => StreamReply,
    words: boolean,
  ) => {
    const { accountId } = keyCaller(request);
    const parsed = parseElevenLabsSpeech(
      request.params.voice_id,
      request.query.output_format,
      request.body,
      options.maxChars,
    );
    const speech = { ...parsed, tts: await withLexicon(parsed.tts, accountId, options.lexicons) };
    reply.header('request-id', request.id);
    await replyWithStream(
      request,
      reply,
      options,
      {
        accountId,
        speech: speech.tts,
        target: speech.audio.target,
        studio: false,
        path: 'elevenlabs',
        words,
      },
      shape(speech, speech.tts.input),
      refusals,
    );
  };
  const audioReply = (speech: ElevenLabsSpeech): StreamReply => ({
    audioHeaders: () => ({ 'Content-Type': speech.audio.contentType }),
  });

  for (const path of [
    '/elevenlabs/v1/text-to-speech/:voice_id',
    '/elevenlabs/v1/text-to-speech/:voice_id/stream',
  ]) {
    app.post(path, route, (request: SpeechRequest, reply) => speak(request, reply, audioReply, false));
  }
  app.post(
    '/elevenlabs/v1/text-to-speech/:voice_id/with-timestamps',
    route,
    (request: SpeechRequest, reply) =>
      speak(
        request,
        reply,
        (_speech, text) => ({
          audioHeaders: () => ({ 'Content-Type': 'application/json' }),
          body: wholeWithTimestamps(text),
        }),
        true,
      ),
  );
  app.post(
    '/elevenlabs/v1/text-to-speech/:voice_id/stream/with-timestamps',
    route,
    (request: SpeechRequest, reply) =>
      speak(
        request,
        reply,
        () => ({
          audioHeaders: () => ({ 'Content-Type': 'application/x-ndjson' }),
          body: linesWithTimestamps(),
        }),
        true,
      ),
  );
};

export interface ElevenLabsSocketOptions {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  /** The live connections of this instance, which these sockets join. */
  readonly sockets: LiveSockets;
}

/**
 * ElevenLabs' WebSockets: `GET /v1/text-to-speech/{voice_id}/multi-stream-input` and
 * `.../stream-input`, upgraded once the voice, the raw `output_format` and the `xi-api-key` are
 * checked (refusals in ElevenLabs' HTTP error shape, before any socket exists), then served as a
 * live connection speaking ElevenLabs' frames (`websocket.ts`): each context billed, limited and
 * paced as a live context.
 */
export const elevenLabsSocketRoutes: FastifyPluginAsync<ElevenLabsSocketOptions> = async (app, options) => {
  const admitted = new WeakMap<FastifyRequest, { caller: LiveCaller; protocol: LiveProtocol }>();
  for (const [path, multi] of [
    ['multi-stream-input', true],
    ['stream-input', false],
  ] as const) {
    app.route<{
      Params: { voice_id: string };
      Querystring: { output_format?: string; inactivity_timeout?: string };
    }>({
      method: 'GET',
      url: `/elevenlabs/v1/text-to-speech/:voice_id/${path}`,
      schema: { hide: true },
      preValidation: async (request) => {
        if (!request.ws) return;
        const voice = voiceOfPath(request.params.voice_id);
        const format = websocketFormat(request.query.output_format);
        const idleMs = inactivityMs(request.query.inactivity_timeout);
        const auth = await authenticateKey(options.accounts, elevenLabsKey(request));
        if (!auth.ok) throw refusalError(auth.refusal, { caller: 'key', supportEmail: null });
        if (options.sockets.full(auth.caller.keyId)) throw tooManySockets();
        admitted.set(request, {
          caller: { ...auth.caller, studio: false },
          protocol: elevenLabsProtocol(voice, format, multi, idleMs),
        });
      },
      handler: async () => {
        throw new ApiError('invalid_request', 'this endpoint speaks WebSocket: send an upgrade request');
      },
      wsHandler: (socket, request) => {
        const session = admitted.get(request);
        if (!session) return socket.close(1008, 'not admitted');
        options.sockets.serve(socket, request.log, session.caller, session.protocol);
      },
    });
  }
};
