import {
  type DictionaryRef,
  type DictionaryService,
  MAX_SELECTED_DICTIONARIES,
} from '../accounts/dictionaries.ts';
import {
  type CompressedFormat,
  compressedFormatNames,
  compressedFormats,
  isCompressedFormatName,
} from '../speech/audio/compressed-formats.ts';
import { parseStreamFormat, type StreamFormat, streamFormatNames } from '../speech/audio/formats.ts';
import { audioBoundSeconds } from '../speech/audio-bound.ts';
import type { SpeechDocument } from '../speech/input/document.ts';
import { readInputText, type TextType, textTypes } from '../speech/input/input-text.ts';
import { type Lexicon, withPronunciations } from '../speech/text/lexicon.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { findVoice, languages, type Voice, voicesOf } from '../speech/voices/voices.ts';
import { codePointCount } from '../unicode.ts';
import { ApiError } from './errors.ts';

/** A TTS request body after validation. */
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

// The rules below are also what the OpenAPI document states (schemas/tts.ts builds it from the
// constants exported here), so a rule changed here changes the document with it.

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

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'the body must be a JSON object with an "input" field');
  }
  return body as Record<string, unknown>;
}

/** The same test clause splitting applies: a text without a letter or a digit gives no audio. */
export const SPEAKABLE = /[\p{L}\p{N}]/u;

/** The 400 for a text that gives no audio, found before any billing look-up or synthesis. */
export const nothingToSay = () =>
  new ApiError('input_required', 'input has nothing to speak: no letters or numbers', { param: 'input' });

function parseInput(value: unknown, maxChars: number): { input: string; characters: number } {
  if (value === undefined || value === null)
    throw new ApiError('input_required', 'give the text to speak in "input"', { param: 'input' });
  if (typeof value !== 'string')
    throw new ApiError('invalid_request', '"input" must be a string', { param: 'input' });
  const input = value.trim();
  const characters = codePointCount(input);
  if (characters === 0) throw new ApiError('input_required', '"input" is empty', { param: 'input' });
  if (characters > maxChars) {
    throw new ApiError('input_too_long', `input has ${characters} characters; the limit is ${maxChars}`, {
      param: 'input',
    });
  }
  return { input, characters };
}

function parseTextType(value: unknown): TextType {
  const textType = value === undefined ? 'text' : value;
  if (typeof textType !== 'string' || !(textTypes as readonly string[]).includes(textType)) {
    throw new ApiError('invalid_request', `text_type must be one of ${textTypes.join(', ')}`, {
      param: 'text_type',
    });
  }
  return textType as TextType;
}

/** The input as a speech document, or the 400 that says what in it is wrong and where. */
function documentOf(raw: string, textType: TextType, voice: Voice): SpeechDocument {
  const document = readDocument(raw, textType, voice);
  if (!saysSomething(document)) throw nothingToSay();
  return document;
}

/** Whether a document gives audio: markup, code and emoji alone give none. */
function saysSomething(document: SpeechDocument): boolean {
  return document.spokenCharacters > 0 && document.segments.some(isSpoken);
}

/** The input as a speech document, which may say nothing, or the 400 for what is wrong in it. */
function readDocument(raw: string, textType: TextType, voice: Voice): SpeechDocument {
  const read = readInputText(raw, textType, voice);
  if (read.ok) return read.document;
  if (read.code === 'invalid_input')
    throw new ApiError('invalid_input', read.message, {
      param: 'input',
      details: { position: read.position },
    });
  throw new ApiError('invalid_ssml', read.message, {
    param: 'input',
    details: { element: read.element, line: read.line, column: read.column },
  });
}

/** Whether a segment has anything to say: plain text needs a letter or a digit, as clause splitting does. */
function isSpoken(segment: SpeechDocument['segments'][number]): boolean {
  if (segment.kind === 'break') return false;
  if (segment.kind === 'phonemes') return segment.ipa.trim() !== '';
  return SPEAKABLE.test(segment.text);
}

function parseVoice(languageValue: unknown, speakerValue: unknown): Voice {
  const codes = languages.map((l) => l.code);
  const language = languageValue ?? DEFAULT_LANGUAGE;
  if (typeof language !== 'string' || !(codes as string[]).includes(language)) {
    throw new ApiError('unsupported_language', `language must be one of ${codes.join(', ')}`, {
      param: 'language',
    });
  }
  const known = languages.find((l) => l.code === language);
  const { min, max } = speakerIdRange(known?.code ?? DEFAULT_LANGUAGE);
  const range = `${min}-${max}`;
  // Clients of the original service sent speaker_id as a string of digits: accepted too.
  const raw = speakerValue ?? known?.defaultSpeakerId ?? 0;
  const speakerId = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : raw;
  const voice =
    typeof speakerId === 'number' && Number.isInteger(speakerId) ? findVoice(language, speakerId) : undefined;
  if (!voice) {
    throw new ApiError('invalid_speaker', `speaker_id for ${language} must be an integer from ${range}`, {
      param: 'speaker_id',
    });
  }
  return voice;
}

const DICTIONARY_ID = /^dict_[0-9A-Za-z]{1,40}$/;

/**
 * The `dictionaries` field: at most `MAX_SELECTED_DICTIONARIES` objects `{ id, version? }`, each
 * id once; absent or null: none named. Whether each is the account's is decided later, before any
 * charge (`withLexicon`).
 */
export function parseDictionaries(value: unknown, field = 'dictionaries'): DictionaryRef[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_SELECTED_DICTIONARIES)
    throw new ApiError(
      'invalid_request',
      `${field} must be a list of at most ${MAX_SELECTED_DICTIONARIES} objects {"id", "version"}`,
      { param: field },
    );
  const refs: DictionaryRef[] = [];
  for (const [index, item] of value.entries()) {
    const at = `${field}[${index}]`;
    const ref = typeof item === 'object' && item !== null && !Array.isArray(item) ? item : undefined;
    const { id, version } = (ref ?? {}) as { id?: unknown; version?: unknown };
    if (typeof id !== 'string' || !DICTIONARY_ID.test(id))
      throw new ApiError('invalid_request', `${at}.id must be a dictionary id (dict_...)`, {
        param: `${at}.id`,
      });
    if (
      version !== undefined &&
      version !== null &&
      !(Number.isSafeInteger(version) && (version as number) >= 0)
    )
      throw new ApiError('invalid_request', `${at}.version must be a whole number`, {
        param: `${at}.version`,
      });
    if (refs.some((r) => r.id === id))
      throw new ApiError('invalid_request', `${at}.id names a dictionary twice`, { param: `${at}.id` });
    refs.push(typeof version === 'number' ? { id, version } : { id });
  }
  return refs;
}

/** Validates a `tts.php` body. Unknown fields are ignored, cloning fields refused. */
export function parseTtsRequest(body: unknown, maxChars: number): TtsRequest {
  const fields = asObject(body);
  const cloning = CLONING_FIELDS.find((f) => f in fields);
  if (cloning) {
    throw new ApiError(
      'voice_cloning_retired',
      'voice cloning is retired; choose a voice with language and speaker_id',
      {
        param: cloning,
      },
    );
  }
  const { input, characters } = parseInput(fields.input, maxChars);
  const voice = parseVoice(fields.language, fields.speaker_id);
  const textType = parseTextType(fields.text_type);
  return {
    input,
    characters,
    voice,
    textType,
    document: documentOf(fields.input as string, textType, voice),
    maxSeconds: audioBoundSeconds(voice.language, characters, textType),
    dictionaries: parseDictionaries(fields.dictionaries),
  };
}

function parseFormat(value: unknown): StreamFormat {
  const parsed = parseStreamFormat(value);
  if (!parsed) {
    throw new ApiError('unsupported_format', `format must be one of ${streamFormatNames.join(', ')}`, {
      param: 'format',
    });
  }
  return parsed;
}

/** The file endpoint's `output_format` names, the default first. */
export const outputFormatNames = ['wav', ...compressedFormatNames] as const;

/** A file's format: WAV at the voice's rate, or a compressed format. */
export type OutputFormat = { readonly name: 'wav' } | CompressedFormat;

/** The `output_format` of a `tts.php` body: WAV when absent, else one of `outputFormatNames`, else 400. */
export function parseOutputFormat(body: unknown): OutputFormat {
  const value = asObject(body).output_format ?? 'wav';
  if (value === 'wav') return { name: 'wav' };
  if (isCompressedFormatName(value)) return compressedFormats[value];
  throw new ApiError('unsupported_format', `output_format must be one of ${outputFormatNames.join(', ')}`, {
    param: 'output_format',
  });
}

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

/** Validates a `tts-stream.php` body: the same fields plus `format`. */
export function parseStreamTtsRequest(body: unknown, maxChars: number): StreamTtsRequest {
  const request = parseTtsRequest(body, maxChars);
  return { ...request, format: parseFormat(asObject(body).format) };
}

/** How a stream whose text comes later (a live context) speaks: its voice, format and text type. */
export interface StreamSettings {
  readonly voice: Voice;
  readonly format: StreamFormat;
  readonly textType: TextType;
  /** The pronunciation dictionaries it names, in order; none or absent: the account's default. */
  readonly dictionaries?: readonly DictionaryRef[];
}

/** Validates the fields that open a live context, with the stream endpoint's defaults and errors. */
export function parseStreamSettings(fields: Readonly<Record<string, unknown>>): StreamSettings {
  return {
    voice: parseVoice(fields.language, fields.speaker_id),
    format: parseFormat(fields.format),
    textType: parseTextType(fields.text_type),
    dictionaries: parseDictionaries(fields.dictionaries),
  };
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
  const document = readDocument(text, settings.textType, settings.voice);
  if (!saysSomething(document)) {
    if (settings.textType === 'text') return undefined;
    throw nothingToSay();
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
