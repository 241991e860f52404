import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { type StreamFormat, streamFormats } from '../../speech/audio/formats.ts';
import { openEndedWavHeader } from '../../speech/audio/wav.ts';
import type { AudioTarget } from '../../speech/synthesize.ts';
import type { Voice } from '../../speech/voices/voices.ts';
import { admitKey } from '../admission.ts';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import { type ClientMessage, type LiveProtocol, readFrame, type ServerMessage } from '../live/protocol.ts';
import { protocolSocketRoute } from '../live/socket-route.ts';
import { headedBody, parseBody, speakCompatible } from './compatible-call.ts';
import type { CompatibleOptions } from './options.ts';
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

const messageSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('stream'), text: z.string() }),
    z.looseObject({ type: z.literal('flush') }),
    z.looseObject({ type: z.literal('stop') }),
    z.looseObject({ type: z.literal('keepalive') }),
  ],
  { error: 'a message must be stream (with text), flush, stop or keepalive' },
);

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
      const frame = readFrame(text, messageSchema);
      if (!frame.ok) return frame;
      const message = frame.value;
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
export const jambonzRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
  app.post(
    '/jambonz',
    { schema: { hide: true }, preValidation: admitKey(options, 'jambonz') },
    async (request, reply) => {
      const {
        text,
        voice: id,
        language,
        type,
      } = parseBody(bodySchema, request.body, '{language, voice, type, text}');
      const voice = voiceFor(id, language);
      const audio = httpAudio(request.query as Record<string, unknown>);
      await speakCompatible(
        request,
        reply,
        options,
        { voice, text, field: 'text', textType: type ?? 'text', target: audio.target, path: 'jambonz' },
        () => ({
          audioHeaders: () => ({ 'Content-Type': audio.contentType }),
          body: headedBody(audio.header),
        }),
      );
    },
  );

  protocolSocketRoute(app, {
    url: '/jambonz',
    accounts: options.accounts,
    sockets: options.sockets,
    keyFrom: (request) => apiKeyFrom(request.headers),
    protocolFor: (request) => {
      const { voice: id, language, sampleRate } = request.query as Record<string, unknown>;
      if (typeof id !== 'string')
        throw new ApiError('invalid_request', 'voice must name a voice', { param: 'voice' });
      const voice = voiceFor(id, typeof language === 'string' ? language : undefined);
      return jambonzProtocol(voice, pcmAt(sampleRate, 'sampleRate'));
    },
  });
};
