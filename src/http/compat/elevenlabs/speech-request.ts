import { z } from 'zod';
import { type DictionaryRef, MAX_SELECTED_DICTIONARIES } from '../../../accounts/dictionaries.ts';
import { ApiError } from '../../errors.ts';
import { parseTtsRequest } from '../../schemas/speech-body.ts';
import { atSpeed, type DictionaryField, namedInput, type TtsRequest } from '../../tts-request.ts';
import { parseBody } from '../compatible-call.ts';
import { voiceIdOf, voiceOfPath } from '../voice-id.ts';
import { type ElevenLabsAudio, parseOutputFormat } from './output-format.ts';

// ElevenLabs' text-to-speech request (`POST /v1/text-to-speech/{voice_id}[...]`): the body, the
// `output_format` query parameter and the voice in the path, read into the request the stream
// endpoint speaks, so everything after (keys, billing, rate limit, the pipeline) is the call room's.

/** ElevenLabs' range for `voice_settings.speed`. */
export const MIN_SPEED = 0.7;
export const MAX_SPEED = 1.2;

/**
 * The body. Only what changes the audio is read: `text`, `voice_settings.speed`, and
 * `language_code`, which must be the voice's language (a voice id names its language); the other
 * fields the clients send (`model_id`, `seed`, `previous_text`, the other voice settings, ...) are
 * accepted and have no effect. Unknown fields are accepted, as ElevenLabs accepts them.
 */
const bodySchema = z.looseObject({
  text: z.string({ error: 'text must be a string' }),
  model_id: z.string().max(100).nullish(),
  language_code: z.string().max(35).nullish(),
  pronunciation_dictionary_locators: z
    .array(
      z.looseObject({
        pronunciation_dictionary_id: z.string().max(100),
        version_id: z.string().max(100).nullish(),
      }),
    )
    .max(
      MAX_SELECTED_DICTIONARIES,
      `pronunciation_dictionary_locators names at most ${MAX_SELECTED_DICTIONARIES} dictionaries`,
    )
    .nullish(),
  voice_settings: z
    .looseObject({
      speed: z
        .number()
        .min(MIN_SPEED, `voice_settings.speed must be from ${MIN_SPEED} to ${MAX_SPEED}`)
        .max(MAX_SPEED, `voice_settings.speed must be from ${MIN_SPEED} to ${MAX_SPEED}`)
        .nullish(),
    })
    .nullish(),
});

/** ElevenLabs' name of a locator's field, for a dictionary the account does not have. */
export const locatorField: DictionaryField = (index, part) =>
  `pronunciation_dictionary_locators[${index}].${part === 'id' ? 'pronunciation_dictionary_id' : 'version_id'}`;

/**
 * `pronunciation_dictionary_locators` as the dictionaries a request names: an id of Ijwi's
 * dictionaries API or of `/v1/pronunciation-dictionaries`, and a version id (the version's
 * number) or none for the current one. Whether each is the account's is decided before any charge.
 */
export function dictionariesOf(
  locators: readonly { pronunciation_dictionary_id: string; version_id?: string | null | undefined }[] = [],
): DictionaryRef[] {
  return locators.map((locator, index) => {
    const version = locator.version_id ?? undefined;
    if (version !== undefined && !/^\d{1,9}$/.test(version))
      throw new ApiError('not_found', `no version ${version.slice(0, 40)} of that dictionary`, {
        param: locatorField(index, 'version'),
      });
    return {
      id: locator.pronunciation_dictionary_id,
      ...(version === undefined ? {} : { version: Number(version) }),
    };
  });
}

export interface ElevenLabsSpeech {
  readonly tts: TtsRequest;
  readonly audio: ElevenLabsAudio;
}

/** Reads a text-to-speech request; a refusal is an `ApiError` (sent as ElevenLabs' 422 body). */
export function parseElevenLabsSpeech(
  voiceId: string,
  outputFormat: string | undefined,
  body: unknown,
  maxChars: number,
): ElevenLabsSpeech {
  const voice = voiceOfPath(voiceId);
  const format = parseOutputFormat(outputFormat);
  if (!format.ok) throw new ApiError(format.code, format.message, { param: 'output_format' });
  const fields = parseBody(bodySchema, body, 'a JSON object with "text"');
  const language = fields.language_code?.toLowerCase().split(/[-_]/)[0];
  if (language !== undefined && language !== voice.language) {
    throw new ApiError(
      'unsupported_language',
      `the voice ${voiceIdOf(voice)} speaks ${voice.language}; language_code must be ${voice.language} or absent`,
      { param: 'language_code' },
    );
  }
  const read = namedInput('text', () =>
    parseTtsRequest({ input: fields.text, language: voice.language, speaker_id: voice.speakerId }, maxChars),
  );
  const dictionaries = dictionariesOf(fields.pronunciation_dictionary_locators ?? []);
  return { tts: { ...atSpeed(read, fields.voice_settings?.speed ?? 1), dictionaries }, audio: format.audio };
}
