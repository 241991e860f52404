import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccountService } from '../../accounts/accounts.ts';
import { authenticateKey } from '../../calls/admission.ts';
import type { CallServices } from '../../calls/call-services.ts';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { type StreamFormat, streamFormats } from '../../speech/audio/formats.ts';
import { openEndedWavHeader } from '../../speech/audio/wav.ts';
import type { AudioTarget } from '../../speech/synthesize.ts';
import type { Voice } from '../../speech/voices.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import { admitKey, keyCaller } from '../admission.ts';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError, refusalError } from '../errors.ts';
import type { LiveCaller } from '../live/live-connection.ts';
import type { ClientMessage, LiveProtocol, ServerMessage } from '../live/protocol.ts';
import { type LiveSockets, tooManySockets } from '../routes/live.ts';
import type { TtsLexicons } from '../routes/tts.ts';
import { replyWithStream } from '../stream-reply.ts';
import { namedInput, parseTtsRequest, withLexicon } from '../tts-request.ts';
import { voiceOfPath } from './voice-id.ts';

// jambonz's custom speech vendor, at one URL for both of its forms (`{base_url}/jambonz`, the key as
// `Authorization: Bearer`): `POST` with `{language, voice, type, text}` answers the audio as it is
// spoken (MP3, which every jambonz release plays; `?format=wav` or `?format=l16&rate=N` for the
// others it takes); the WebSocket (`?voice=&language=&sampleRate=`) is one live context: a
// `connect` frame first (its rate, bare binary audio), then `stream` adds text, `flush` speaks what
// waits, `stop` drops the rest and closes, `keepalive` does nothing; audio goes as binary 16-bit
// samples; a refusal is an `error` frame.

/** The rates jambonz may ask for, as the stream formats that make each exactly. */
const pcmFormats: readonly StreamFormat[] = [
  streamFormats.pcm16_8k,
  streamFormats.pcm16_16k,
  streamFormats.pcm16_22k,
  streamFormats.pcm16_24k,
  streamFormats.pcm16_44k,
];

const bodySchema = z.looseObject({
  text: z.string({ error: 'text must be a string' }),
  voice: z.string({ error: 'voice must name a voice' }),
  language: z.string().max(35).nullish(),
  type: z.enum(['text', 'ssml'], { error: 'type must be text or ssml' }).nullish(),
});

const messageSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('stream'), text: z.string() }),
  z.looseObject({ type: z.literal('flush') }),
  z.looseObject({ type: z.literal('stop') }),
  z.looseObject({ type: z.literal('keepalive') }),
]);

export interface JambonzOptions extends CallServices {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly lexicons: TtsLexicons;
  readonly supportEmail: string | null;
  readonly maxChars: number;
  readonly sockets: LiveSockets;
}

/** The voice jambonz names, checked against the language it sends (`rw`, `en-US`...). */
function voiceFor(id: string, language: string | null | undefined): Voice {
  const voice = voiceOfPath(id, 'voice');
  const base = language?.toLowerCase().split(/[-_]/)[0];
  if (base !== undefined && base !== voice.language)
    throw new ApiError(
      'unsupported_language',
      `the voice ${id} speaks ${voice.language}; language must be ${voice.language}`,
      {
        param: 'language',
      },
    );
  return voice;
}

/** The PCM format at `rate` (a query value), or the 400 naming the rates. */
function pcmAt(rate: unknown, param: string): StreamFormat {
  const format = pcmFormats.find((f) => String(f.sampleRate) === String(rate ?? 8000));
  if (format) return format;
  throw new ApiError(
    'unsupported_format',
    `${param} must be one of ${pcmFormats.map((f) => f.sampleRate).join(', ')}`,
    {
      param,
    },
  );
}

/** The HTTP answer's audio: MP3 by default, or `?format=wav` / `?format=l16&rate=N`. */
function httpAudio(query: Record<string, unknown>): {
  target: AudioTarget;
  contentType: string;
  header: Uint8Array;
} {
  const format = query.format ?? 'mp3';
  if (format === 'mp3')
    return {
      target: { kind: 'compressed', format: compressedFormats.mp3 },
      contentType: 'audio/mpeg',
      header: new Uint8Array(0),
    };
  const pcm = pcmAt(query.rate, 'rate');
  if (format === 'l16')
    return {
      target: { kind: 'stream', format: pcm },
      contentType: `audio/l16;rate=${pcm.sampleRate}`,
      header: new Uint8Array(0),
    };
  if (format === 'wav')
    return {
      target: { kind: 'stream', format: pcm },
      contentType: 'audio/wav',
      header: openEndedWavHeader(pcm.sampleRate),
    };
  throw new ApiError('unsupported_format', 'format must be mp3, wav or l16', { param: 'format' });
}

/** jambonz's streaming protocol for one socket. */
function jambonzProtocol(voice: Voice, format: StreamFormat): LiveProtocol {
  const CONTEXT = 'jambonz';
  let open = false;
  return {
    maxContexts: 1,
    greeting: JSON.stringify({
      type: 'connect',
      data: { sample_rate: format.sampleRate, base64_encoding: false },
    }),
    decode(text) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, error: new ApiError('invalid_json', 'a message is not valid JSON') };
      }
      const parsed = messageSchema.safeParse(json);
      if (!parsed.success)
        return {
          ok: false,
          error: new ApiError(
            'invalid_request',
            'a message must be stream (with text), flush, stop or keepalive',
            {
              param: 'type',
            },
          ),
        };
      const message = parsed.data;
      if (message.type === 'keepalive') return { ok: true, messages: [] };
      if (message.type === 'stop') {
        const messages: ClientMessage[] = open ? [{ type: 'clear', context_id: CONTEXT }] : [];
        return { ok: true, messages: [...messages, { type: 'close' }] };
      }
      if (message.type === 'flush')
        return { ok: true, messages: open ? [{ type: 'flush', context_id: CONTEXT }] : [] };
      open = true;
      return {
        ok: true,
        messages: [
          {
            type: 'text',
            context_id: CONTEXT,
            text: message.text,
            language: voice.language,
            speaker_id: voice.speakerId,
            format: format.name,
          },
        ],
      };
    },
    encode(message: ServerMessage) {
      if (message.type === 'audio') return Buffer.from(message.audio, 'base64');
      if (message.type === 'error') {
        open = open && message.context_id === undefined;
        return JSON.stringify({ type: 'error', error: message.message, code: message.code });
      }
      if (message.type === 'done') open = false;
      return undefined;
    },
  };
}

/** `POST /jambonz` (the HTTP form) and `GET /jambonz` upgraded (the streaming form). */
export const jambonzRoutes: FastifyPluginAsync<JambonzOptions> = async (app, options) => {
  app.post(
    '/jambonz',
    { schema: { hide: true }, preValidation: admitKey(options, 'jambonz') },
    async (request, reply) => {
      const { accountId } = keyCaller(request);
      const parsed = bodySchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ApiError(
          'invalid_request',
          issue?.message ?? 'the body must be {language, voice, type, text}',
          {
            param: issue?.path.join('.') || 'body',
          },
        );
      }
      const { text, voice: id, language, type } = parsed.data;
      const voice = voiceFor(id, language);
      const audio = httpAudio(request.query as Record<string, unknown>);
      const read = namedInput('text', () =>
        parseTtsRequest(
          { input: text, language: voice.language, speaker_id: voice.speakerId, text_type: type ?? 'text' },
          options.maxChars,
        ),
      );
      const tts = await withLexicon(read, accountId, options.lexicons);
      await replyWithStream(
        request,
        reply,
        options,
        { accountId, speech: tts, target: audio.target, studio: false, path: 'jambonz' },
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

  const admitted = new WeakMap<FastifyRequest, { caller: LiveCaller; protocol: LiveProtocol }>();
  app.route<{ Querystring: Record<string, unknown> }>({
    method: 'GET',
    url: '/jambonz',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      const { voice: id, language, sampleRate } = request.query;
      if (typeof id !== 'string')
        throw new ApiError('invalid_request', 'voice must name a voice', { param: 'voice' });
      const voice = voiceFor(id, typeof language === 'string' ? language : undefined);
      const format = pcmAt(sampleRate, 'sampleRate');
      const auth = await authenticateKey(options.accounts, apiKeyFrom(request.headers));
      if (!auth.ok) throw refusalError(auth.refusal, { caller: 'key', supportEmail: null });
      if (options.sockets.full(auth.caller.keyId)) throw tooManySockets();
      admitted.set(request, {
        caller: { ...auth.caller, studio: false },
        protocol: jambonzProtocol(voice, format),
      });
    },
    handler: async () => {
      throw new ApiError(
        'invalid_request',
        'GET /jambonz speaks WebSocket: send an upgrade request, or POST for the HTTP form',
      );
    },
    wsHandler: (socket, request) => {
      const session = admitted.get(request);
      if (!session) return socket.close(1008, 'not admitted');
      options.sockets.serve(socket, request.log, session.caller, session.protocol);
    },
  });
};
