import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SpeechPath } from '../../calls/call-services.ts';
import type { AudioTarget } from '../../speech/synthesize.ts';
import type { Voice } from '../../speech/voices/voices.ts';
import { keyCaller } from '../admission.ts';
import { ApiError } from '../errors.ts';
import { parseTtsRequest } from '../schemas/speech-body.ts';
import { replyWithStream, type StreamReply } from '../stream-reply.ts';
import type { StreamBody } from '../stream-writer.ts';
import { namedInput, type TtsRequest, withLexicon } from '../tts-request.ts';
import type { CompatibleOptions } from './options.ts';

/** What a compatible protocol's request speaks, once its own fields are read. */
export interface CompatibleSpeech {
  readonly voice: Voice;
  /** The text as the client sent it, read as the stream endpoint reads `input`. */
  readonly text: unknown;
  /** The protocol's name for the text's field, named in a refusal. */
  readonly field: string;
  readonly textType?: 'text' | 'ssml';
  readonly target: AudioTarget;
  readonly path: SpeechPath;
  /** Word timings as `words` events, for a body that carries them. */
  readonly words?: boolean;
}

/**
 * Speaks one compatible HTTP request for the key `admitKey` admitted: the text read with the
 * account's lexicon, then one billed stream call shaped by `shape` (given the request as read).
 */
export async function speakCompatible(
  request: FastifyRequest,
  reply: FastifyReply,
  options: CompatibleOptions,
  speech: CompatibleSpeech,
  shape: (tts: TtsRequest) => StreamReply,
): Promise<void> {
  const { accountId } = keyCaller(request);
  const { voice } = speech;
  const read = namedInput(speech.field, () =>
    parseTtsRequest(
      {
        input: speech.text,
        language: voice.language,
        speaker_id: voice.speakerId,
        text_type: speech.textType ?? 'text',
      },
      options.maxChars,
    ),
  );
  const tts = await withLexicon(read, accountId, options.lexicons);
  await replyWithStream(
    request,
    reply,
    options,
    {
      accountId,
      speech: tts,
      target: speech.target,
      studio: false,
      path: speech.path,
      words: speech.words === true,
    },
    shape(tts),
    { caller: 'key', supportEmail: options.supportEmail },
  );
}

/** A body of the audio as made (shaped by `samples`), after `header` (a WAV header) when there is one. */
export function headedBody(
  header: Uint8Array,
  samples: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes,
): StreamBody {
  return {
    first: (bytes) => (header.byteLength ? Buffer.concat([header, samples(bytes)]) : samples(bytes)),
    next: samples,
    last: () => undefined,
  };
}

/** A request body as `schema` reads it, or the 400 naming the field at fault. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, shape: string): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ApiError('invalid_request', issue?.message ?? `the body must be ${shape}`, {
    param: issue?.path.join('.') || 'body',
  });
}
