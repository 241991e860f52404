import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { WordTiming } from '../../../speech/synthesize.ts';
import { admitKey, keyCaller } from '../../admission.ts';
import { protocolSocketRoute } from '../../live/socket-route.ts';
import { replyWithStream, type StreamReply } from '../../stream-reply.ts';
import type { StreamBody } from '../../stream-writer.ts';
import { withLexicon } from '../../tts-request.ts';
import type { CompatibleOptions } from '../options.ts';
import { voiceOfPath } from '../voice-id.ts';
import { inSeconds, normalizedAlignment, textAlignment } from './alignment.ts';
import { elevenLabsKey } from './api-key.ts';
import { type ElevenLabsSpeech, locatorField, parseElevenLabsSpeech } from './speech-request.ts';
import { elevenLabsProtocol, inactivityMs, websocketFormat } from './websocket.ts';

type SpeechRequest = FastifyRequest<{
  Params: { voice_id: string };
  Querystring: { output_format?: string };
}>;

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
export const elevenLabsSpeechRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
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
    const speech = {
      ...parsed,
      tts: await withLexicon(parsed.tts, accountId, options.lexicons, locatorField),
    };
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

/**
 * ElevenLabs' WebSockets: `GET /v1/text-to-speech/{voice_id}/multi-stream-input` and
 * `.../stream-input`, upgraded once the voice, the raw `output_format` and the `xi-api-key` are
 * checked (refusals in ElevenLabs' HTTP error shape, before any socket exists), then served as a
 * live connection speaking ElevenLabs' frames (`websocket.ts`): each context billed, limited and
 * paced as a live context.
 */
export const elevenLabsSocketRoutes: FastifyPluginAsync<CompatibleOptions> = async (app, options) => {
  for (const [path, multi] of [
    ['multi-stream-input', true],
    ['stream-input', false],
  ] as const) {
    protocolSocketRoute(app, {
      url: `/elevenlabs/v1/text-to-speech/:voice_id/${path}`,
      accounts: options.accounts,
      sockets: options.sockets,
      keyFrom: elevenLabsKey,
      protocolFor: (request) => {
        const params = request.params as { voice_id: string };
        const query = request.query as { output_format?: string; inactivity_timeout?: string };
        const voice = voiceOfPath(params.voice_id);
        const format = websocketFormat(query.output_format);
        return elevenLabsProtocol(voice, format, multi, inactivityMs(query.inactivity_timeout));
      },
    });
  }
};
