import type { DictionaryRef, DictionaryService } from '../accounts/dictionaries.ts';
import { type CompressedFormat, compressedFormatNames } from '../speech/audio/compressed-formats.ts';
import type { StreamFormat } from '../speech/audio/formats.ts';
import { audioBoundSeconds } from '../speech/audio-bound.ts';
import type { SpeechDocument } from '../speech/input/document.ts';
import { readInputText, type TextType } from '../speech/input/input-text.ts';
import { type Lexicon, withPronunciations } from '../speech/text/lexicon.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { type Voice, voicesOf } from '../speech/voices/voices.ts';
import { codePointCount } from '../unicode.ts';
import { ApiError } from './errors.ts';

/** A TTS request body after validation (the output of the body schemas, schemas/speech-body.ts). */
export interface TtsRequest {
  /** The text as sent, trimmed. */
  readonly input: string;
  /** Its length in Unicode code points, the unit of the limits and of the audio bound. */
  readonly characters: number;
  readonly voice: Voice;
  readonly textType: TextType;
  /** What is spoken; its `spokenCharacters` is the unit of the token rule. */
  readonly document: SpeechDocument;
  /** The most audio the input may produce (`audio-bound.ts`): the cap synthesis runs under. */
  readonly maxSeconds: number;
  /** The pronunciation dictionaries it names, in order; none or absent: the account's default. */
  readonly dictionaries?: readonly DictionaryRef[];
}

export interface StreamTtsRequest extends TtsRequest {
  readonly format: StreamFormat;
}

// The rules below are also what the body schemas validate and the OpenAPI document states
// (schemas/speech-body.ts builds them from the constants exported here).

/**
 * Fields of the retired voice-cloning feature: a request carrying one gets 410, not a silent
 * default voice, so that a client that still relies on cloning finds out.
 */
export const CLONING_FIELDS = ['speaker_wav', 'reference_audio', 'voice_sample'] as const;

export type CloningField = (typeof CLONING_FIELDS)[number];

/** The language of a request that names none. */
export const DEFAULT_LANGUAGE: LanguageCode = 'rw';

/** The speaker ids a language accepts: every id from `min` to `max`. */
export function speakerIdRange(language: LanguageCode): { readonly min: number; readonly max: number } {
  const ids = voicesOf(language).map((v) => v.speakerId);
  return { min: Math.min(...ids), max: Math.max(...ids) };
}

/** The same test clause splitting applies: a text without a letter or a digit gives no audio. */
export const SPEAKABLE = /[\p{L}\p{N}]/u;

/** Why a text that gives no audio is refused (400 `input_required`), before any billing look-up or synthesis. */
export const NOTHING_TO_SAY = 'input has nothing to speak: no letters or numbers';

/** Whether a document gives audio: markup, code and emoji alone give none. */
export function saysSomething(document: SpeechDocument): boolean {
  return document.spokenCharacters > 0 && document.segments.some(isSpoken);
}

/** Why an input cannot be read: its code, message and the fields of the error that say where. */
export interface DocumentRefusal {
  readonly ok: false;
  readonly code: 'invalid_input' | 'invalid_ssml';
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** The input as a speech document, which may say nothing, or what is wrong in it and where. */
export function readDocument(
  raw: string,
  textType: TextType,
  voice: Voice,
): { readonly ok: true; readonly document: SpeechDocument } | DocumentRefusal {
  const read = readInputText(raw, textType, voice);
  if (read.ok) return read;
  if (read.code === 'invalid_input')
    return { ok: false, code: 'invalid_input', message: read.message, details: { position: read.position } };
  return {
    ok: false,
    code: 'invalid_ssml',
    message: read.message,
    details: { element: read.element, line: read.line, column: read.column },
  };
}

/** Whether a segment has anything to say: plain text needs a letter or a digit, as clause splitting does. */
function isSpoken(segment: SpeechDocument['segments'][number]): boolean {
  if (segment.kind === 'break') return false;
  if (segment.kind === 'phonemes') return segment.ipa.trim() !== '';
  return SPEAKABLE.test(segment.text);
}

/** The file endpoint's `output_format` names, the default first. */
export const outputFormatNames = ['wav', ...compressedFormatNames] as const;

/** A file's format: WAV at the voice's rate, or a compressed format. */
export type OutputFormat = { readonly name: 'wav' } | CompressedFormat;

/**
 * `tts` spoken at `speed` times its rate (the compatible APIs' speed settings): every segment's
 * rate scaled, and the audio bound grown as the speed falls below 1 (slower speech is longer).
 */
export function atSpeed(tts: TtsRequest, speed: number): TtsRequest {
  if (speed === 1) return tts;
  return {
    ...tts,
    document: {
      ...tts.document,
      segments: tts.document.segments.map((segment) =>
        'rate' in segment ? { ...segment, rate: segment.rate * speed } : segment,
      ),
    },
    maxSeconds: audioBoundSeconds(tts.voice.language, tts.characters, tts.textType) / Math.min(1, speed),
  };
}

/** How a stream whose text comes later (a live context) speaks: its voice, format and text type. */
export interface StreamSettings {
  readonly voice: Voice;
  readonly format: StreamFormat;
  readonly textType: TextType;
  /** The pronunciation dictionaries it names, in order; none or absent: the account's default. */
  readonly dictionaries?: readonly DictionaryRef[];
}

/** One part of a live context's text as a stream request would read it. */
export interface SpeechPart {
  readonly document: SpeechDocument;
  /** Code points of the trimmed part: the unit of its audio bound. */
  readonly characters: number;
  readonly maxSeconds: number;
}

/**
 * A part of a stream's text, read by the same rules as a whole request's `input` (control
 * characters, Markdown, SSML), or the 400 that says what is wrong with it; undefined when it has
 * nothing to speak (a plain part that is all markup, code or emoji).
 */
export function speechPart(
  text: string,
  settings: StreamSettings,
  lexicon?: Lexicon,
): SpeechPart | undefined {
  const trimmed = text.trim();
  if (!SPEAKABLE.test(trimmed) && settings.textType === 'text') return undefined;
  const characters = codePointCount(trimmed);
  const read = readDocument(text, settings.textType, settings.voice);
  if (!read.ok) throw new ApiError(read.code, read.message, { param: 'input', details: read.details });
  const { document } = read;
  if (!saysSomething(document)) {
    if (settings.textType === 'text') return undefined;
    throw new ApiError('input_required', NOTHING_TO_SAY, { param: 'input' });
  }
  const part = {
    document,
    characters,
    maxSeconds: audioBoundSeconds(settings.voice.language, characters, settings.textType),
  };
  if (!lexicon) return part;
  return { ...part, ...withPronunciations(part, lexicon, settings.voice.language, settings.textType) };
}

/** What speaking needs from the dictionaries: the lexicon a request speaks with. */
export type TtsLexicons = Pick<DictionaryService, 'lexiconFor'>;

/** How a protocol names the field of a request's `index`th dictionary's id or version. */
export type DictionaryField = (index: number, part: 'id' | 'version') => string;

const nativeField: DictionaryField = (index, part) => `dictionaries[${index}].${part}`;

/**
 * The lexicon of `dictionaries` (the account's default when none is named) for `language`, or the
 * 404 for a dictionary or version the account does not have, naming its field.
 */
export async function lexiconOf(
  lexicons: TtsLexicons,
  accountId: string,
  language: LanguageCode,
  dictionaries: readonly DictionaryRef[] = [],
  field: DictionaryField = nativeField,
): Promise<Lexicon> {
  const choice = await lexicons.lexiconFor(accountId, language, dictionaries);
  if (!choice.ok)
    throw new ApiError('not_found', choice.message, { param: field(choice.index, choice.part) });
  return choice.lexicon;
}

/**
 * A request with the lexicon of the dictionaries it names (or its account's default) applied (see
 * `withPronunciations`); a dictionary that is not the account's is a 404, before any charge.
 */
export async function withLexicon<T extends TtsRequest>(
  request: T,
  accountId: string,
  lexicons: TtsLexicons,
  field: DictionaryField = nativeField,
): Promise<T> {
  const lexicon = await lexiconOf(lexicons, accountId, request.voice.language, request.dictionaries, field);
  return { ...request, ...withPronunciations(request, lexicon, request.voice.language, request.textType) };
}

/**
 * Runs `read` (the stream endpoint's reading of `input`) for a protocol whose text field is
 * `field`: a refusal of `input` is the same refusal, naming `field`.
 */
export function namedInput<T>(field: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ApiError) || error.options.param !== 'input') throw error;
    throw new ApiError(error.code, error.message.replace(/"input"|\binput\b/g, field), {
      ...error.options,
      param: field,
    });
  }
}
