import { type core, type ZodType, z } from 'zod';
import { type DictionaryRef, MAX_SELECTED_DICTIONARIES } from '../../accounts/dictionaries.ts';
import { type PlayFormat, playFormats } from '../../calls/play-urls.ts';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { defaultStreamFormat, streamFormatNames, streamFormats } from '../../speech/audio/formats.ts';
import { audioBoundSeconds } from '../../speech/audio-bound.ts';
import { MAX_BREAK_MS, MAX_BREAKS_MS_PER_REQUEST, type SpeechDocument } from '../../speech/input/document.ts';
import { type TextType, textTypes } from '../../speech/input/input-text.ts';
import { builtInVoices, findVoice, languages, type Voice } from '../../speech/voices/voices.ts';
import { codePointCount } from '../../unicode.ts';
import { type FieldCodes, paramOf, parseBody, refuse, withRefusals } from '../body-refusal.ts';
import {
  type CloningField,
  DEFAULT_LANGUAGE,
  NOTHING_TO_SAY,
  type OutputFormat,
  outputFormatNames,
  readDocument,
  SPEAKABLE,
  type StreamSettings,
  type StreamTtsRequest,
  saysSomething,
  speakerIdRange,
  type TtsRequest,
} from '../tts-request.ts';

// The bodies of the speech routes, as one zod schema each: what the OpenAPI document shows and
// what validates the request, after the key and the rate limit (`bodyValidator`, run after the
// routes' `preValidation` hook). Each check carries the contract's message, and the fields'
// table (`withRefusals`) their codes and the order the contract checks them in. Where the
// contract's rule is not zod's, it is a refinement here, and the document states the rule with
// the keywords the refinement enforces (`meta`): characters are code points after trimming
// (zod's `max` counts UTF-16 units), the speaker range is the language's, and the text is read
// (control characters, SSML, something to say) once the voice and text type are known.

const languageCodes = languages.map((l) => l.code);
const speakerIds = builtInVoices.map((v) => v.speakerId);
const defaultSpeakerId = languages.find((l) => l.code === DEFAULT_LANGUAGE)?.defaultSpeakerId ?? 0;

/** Whether a body is a JSON object, the only kind a speech body is. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the refinements accept as `input`, as one JSON Schema pattern: a letter or digit somewhere
 * (SPEAKABLE), and no control character other than tab, line feed and carriage return, nor a
 * lone surrogate (readInputText).
 */
const INPUT_PATTERN = new RegExp(
  `^(?=[\\s\\S]*${SPEAKABLE.source})[^\\0-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F\\uD800-\\uDFFF]*$`,
  'u',
);

/** SSML a telephony client sends: a number read digit by digit, a pause, a company name by `sub`. */
export const SSML_EXAMPLE =
  '<speak>Call us on <say-as interpret-as="telephone">+250 788 123 456</say-as>.' +
  '<break time="500ms"/>Welcome to <sub alias="Ijwi Health Clinic">IHC</sub>.</speak>';

/**
 * The text of a speech body (`input`): a string of 1 to `maxChars` code points once trimmed (zod's
 * `max` counts UTF-16 units, so the document's `maxLength` is stated, not checked, by zod). Read
 * in full by `readingRule`.
 */
export function textField(maxChars: number) {
  return z.string({ error: '"input" must be a string' }).superRefine((input, ctx) => {
    const characters = codePointCount(input.trim());
    if (characters === 0) refuse(ctx, [], 'input_required', '"input" is empty');
    else if (characters > maxChars)
      refuse(ctx, [], 'input_too_long', `input has ${characters} characters; the limit is ${maxChars}`);
  });
}

function inputField(maxChars: number) {
  return textField(maxChars).meta({
    minLength: 1,
    maxLength: maxChars,
    pattern: INPUT_PATTERN.source,
    description:
      `The text to speak: at most ${maxChars} characters, counted as Unicode code points after ` +
      'surrounding whitespace is trimmed, with at least one letter or digit. Plain text is read as ' +
      'a person reads a rendered reply aloud: Markdown (CommonMark, GitHub tables, task lists, ' +
      'strikethrough) is never spoken as symbols, links say their text, code blocks and emoji are ' +
      'not said, keypad codes such as `*182*7#` are read key by key; billing counts the characters ' +
      'spoken. It is never obeyed as engine commands. Control characters other than tab, ' +
      'line feed and carriage return get 400 `invalid_input` with their `position`. With ' +
      '`text_type: "ssml"`, an SSML `<speak>` document (see `text_type`).',
    examples: ['Muraho! Murakaza neza.', SSML_EXAMPLE],
  });
}

const textTypeField = z
  .enum(textTypes, { error: `text_type must be one of ${textTypes.join(', ')}` })
  .default('text')
  .meta({
    description:
      '`text` (plain text) or `ssml`: `input` is then a `<speak>` document, parsed by Ijwi. Elements: ' +
      '`speak`, `p`, `s` (`xml:lang` must match `language`), `lang` (`xml:lang` `rw`, `en`, `fr` or a ' +
      "tag of one such as `en-US`: its words are said as that language's, by the same voice), " +
      '`break` (`time` such as `500ms` or ' +
      `\`1.5s\`, at most ${MAX_BREAK_MS / 1000} s each and ${MAX_BREAKS_MS_PER_REQUEST / 1000} s per request, ` +
      'or `strength` `none` to `x-strong`), `say-as` (`interpret-as` `characters`, `spell-out`, ' +
      '`digits`, `cardinal`, `number`, `ordinal`, `telephone`, `date` with `format` `dmy`, `mdy` or ' +
      '`ymd`, `time`, `currency`), `sub` (`alias`), `prosody` (`rate` `x-slow` to `x-fast` or 50%-200%) ' +
      'and `phoneme` (`alphabet="ipa"`, `ph`: only symbols the voice can say). Anything else, or ' +
      'malformed XML, gets 400 `invalid_ssml` with `element`, `line` and `column`. Billing counts the ' +
      'characters of the text spoken (`sub` counts its alias), markup excluded.',
    examples: ['text', 'ssml'],
  });

const languageField = z
  .enum(languageCodes, { error: `language must be one of ${languageCodes.join(', ')}` })
  .default(DEFAULT_LANGUAGE)
  .meta({
    description: `The language: ${languages.map((l) => `\`${l.code}\` (${l.name})`).join(', ')}.`,
  });

const DICTIONARY_ID = /^dict_[0-9A-Za-z]{1,40}$/;
const dictionaryIdMessage = (issue: core.$ZodRawIssue) =>
  `${paramOf(issue.path ?? [])} must be a dictionary id (dict_...)`;
const dictionaryVersionMessage = (issue: core.$ZodRawIssue) =>
  `${paramOf(issue.path ?? [])} must be a whole number`;
const dictionaryListMessage = `dictionaries must be a list of at most ${MAX_SELECTED_DICTIONARIES} objects {"id", "version"}`;

const dictionaryRef = z.preprocess(
  // An item that is not an object is refused for its id; a null version is no version.
  (item) => {
    if (!isRecord(item)) return {};
    if (item.version !== null) return item;
    const { version: _none, ...ref } = item;
    return ref;
  },
  z.object({
    id: z.string({ error: dictionaryIdMessage }).regex(DICTIONARY_ID, { error: dictionaryIdMessage }),
    version: z
      .number({ error: dictionaryVersionMessage })
      .min(0, { error: dictionaryVersionMessage })
      .refine(Number.isSafeInteger, { error: dictionaryVersionMessage })
      .meta({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER })
      .optional(),
  }),
);

/**
 * The `dictionaries` field of every speech request: at most `MAX_SELECTED_DICTIONARIES` objects
 * `{ id, version? }`, each id once. Whether each is the account's is decided later, before any
 * charge (`withLexicon`).
 */
export const dictionariesField = z
  .array(dictionaryRef, { error: dictionaryListMessage })
  .superRefine(
    (refs, ctx) => {
      if (refs.length > MAX_SELECTED_DICTIONARIES) {
        refuse(ctx, [], 'invalid_request', dictionaryListMessage);
        return;
      }
      // Items are read in order: a repeated id counts only before the first item refused.
      const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
      const seen = new Set<string>();
      for (const [index, ref] of refs.entries()) {
        if (refused.has(index)) return;
        if (seen.has(ref.id)) {
          refuse(ctx, [index, 'id'], 'invalid_request', `dictionaries[${index}].id names a dictionary twice`);
          return;
        }
        seen.add(ref.id);
      }
    },
    { when: (p) => Array.isArray(p.value) },
  )
  .optional()
  .meta({
    description:
      `Pronunciation dictionaries of the account to speak with, in order (at most ${MAX_SELECTED_DICTIONARIES}): ` +
      'for a phrase several hold, the first wins. Each at its current version unless `version` names a kept ' +
      'one. Absent: the account’s default dictionary. A dictionary or version the account does not have is ' +
      'a 404 `not_found`, before any charge.',
    maxItems: MAX_SELECTED_DICTIONARIES,
  });

const speakerRanges = languages
  .map((l) => {
    const { min, max } = speakerIdRange(l.code);
    return `${min}-${max} for \`${l.code}\``;
  })
  .join(', ');

/**
 * `speaker_id`, a whole number in the widest range of any language; `voiceRule` refuses a fraction
 * and narrows the range to the language's. (Zod's `int` stops every later rule of the body at a
 * fraction, and the voice rule must still outrank the fields checked after it.)
 */
const speakerIdField = z
  .number()
  .meta({ type: 'integer' })
  .min(Math.min(...speakerIds))
  .max(Math.max(...speakerIds))
  .default(defaultSpeakerId)
  .meta({
    description:
      `The voice within the language: ${speakerRanges}; when absent, the language's default ` +
      `(${languages.map((l) => `${l.defaultSpeakerId} for \`${l.code}\``).join(', ')}). Names and ` +
      'groups are listed by voices.php. A string of digits ("2") is accepted too, as the original ' +
      'service accepted it.',
  });

/**
 * Each language's speaker range, as JSON Schema conditions: the flat `speaker_id` above gives
 * the widest range, these narrow it. A request without `language` is in the default language.
 */
const speakerRules = languages.map((l) => {
  const { min, max } = speakerIdRange(l.code);
  return {
    if: {
      properties: { language: { const: l.code } },
      ...(l.code === DEFAULT_LANGUAGE ? {} : { required: ['language'] }),
    },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; this object is never awaited.
    then: { properties: { speaker_id: { minimum: min, maximum: max } } },
  };
});

const retiredField = z
  .never({ error: 'voice cloning is retired; choose a voice with language and speaker_id' })
  .optional()
  .meta({
    deprecated: true,
    description: 'Voice cloning is retired: a request carrying this field, with any value, gets 410.',
  });

// `satisfies` keeps these in step with CLONING_FIELDS: a field missing or extra fails to compile.
const cloningFields = {
  speaker_wav: retiredField,
  reference_audio: retiredField,
  voice_sample: retiredField,
} satisfies Record<CloningField, ZodType>;

const formatField = z
  .enum(streamFormatNames, { error: `format must be one of ${streamFormatNames.join(', ')}` })
  .default(defaultStreamFormat.name)
  .meta({
    description: `The audio format: ${Object.values(streamFormats)
      .map((f) => `\`${f.name}\` (${f.contentType}, ${f.sampleRate} Hz, ${f.encoding})`)
      .join(', ')}. PCM is signed little-endian.`,
  });

const outputFormatField = z
  .enum(outputFormatNames, { error: `output_format must be one of ${outputFormatNames.join(', ')}` })
  .default('wav')
  .meta({
    description:
      '`wav`: mono 16-bit PCM at the voice’s native rate; `mp3` (64 kbit/s CBR), `opus` (Ogg Opus, 32 kbit/s) ' +
      'and `flac`: 24 kHz mono. The extension of `output_url` and the file’s Content-Type follow.',
  });

const bodyMeta = {
  description: 'Unknown fields are ignored.',
  allOf: speakerRules,
};

/** The fields every speech body shares, read by the rules below. */
interface SpeechFields {
  readonly input: string;
  readonly language: (typeof languageCodes)[number];
  readonly speaker_id: number;
  readonly text_type: (typeof textTypes)[number];
  readonly dictionaries?: readonly { readonly id: string; readonly version?: number }[];
}

/**
 * The fields of a speech body in the order the contract checks them, with the code of each's
 * refusal; each route's body has the ones it names (`format` or `output_format`).
 */
const speechFieldCodes = {
  speaker_wav: 'voice_cloning_retired',
  reference_audio: 'voice_cloning_retired',
  voice_sample: 'voice_cloning_retired',
  input: 'invalid_request',
  language: 'unsupported_language',
  speaker_id: 'invalid_speaker',
  text_type: 'invalid_request',
  dictionaries: 'invalid_request',
  format: 'unsupported_format',
  output_format: 'unsupported_format',
} as const satisfies FieldCodes;

/** Fields of every speech body whose null is read as their absence, as the original service read them. */
const NULL_IS_ABSENT = ['input', 'language', 'speaker_id', 'dictionaries'];

/**
 * A body as its fields read it: the fields `nullIsAbsent` names absent when null, a speaker id
 * of digits as its number.
 */
export function asSent(nullIsAbsent: readonly string[]) {
  return (body: unknown): unknown => {
    if (!isRecord(body)) return body;
    const fields = { ...body };
    for (const name of nullIsAbsent) if (fields[name] === null) delete fields[name];
    // Clients of the original service sent speaker_id as a string of digits.
    if (typeof fields.speaker_id === 'string' && /^\d{1,3}$/.test(fields.speaker_id))
      fields.speaker_id = Number(fields.speaker_id);
    return fields;
  };
}

/** Whether a refinement's payload holds an issue of the body itself or of one of `fields`. */
export const refusedAt = (payload: core.ParsePayload, fields: readonly string[]) =>
  payload.issues.some((issue) => issue.path === undefined || fields.includes(String(issue.path[0])));

/** The voice of `language` and `speaker_id`, when the language has it. */
function voiceOf(fields: Pick<SpeechFields, 'language' | 'speaker_id'>): Voice | undefined {
  const id: unknown = fields.speaker_id;
  return typeof id === 'number' && Number.isInteger(id) ? findVoice(fields.language, id) : undefined;
}

/** The speaker must be one of the language's: a rule on two fields, once the language is valid. */
function voiceRule(fields: Pick<SpeechFields, 'language' | 'speaker_id'>, ctx: core.$RefinementCtx): void {
  if (voiceOf(fields)) return;
  const { min, max } = speakerIdRange(fields.language);
  refuse(
    ctx,
    ['speaker_id'],
    'invalid_speaker',
    `speaker_id for ${fields.language} must be an integer from ${min}-${max}`,
  );
}

const whenLanguageValid = {
  when: (payload: core.ParsePayload) => isRecord(payload.value) && !refusedAt(payload, ['language']),
};

/** What a body's text is read as, once its rule accepts it: kept for its output, read once. */
interface Reading {
  readonly voice: Voice;
  readonly textType: TextType;
  readonly document: SpeechDocument;
}

const readings = new WeakMap<object, Reading>();

/**
 * The rule on the text of `body` (the object the refinement is given): read as a speech document
 * in `voice` and `textType` (control characters, Markdown, SSML), it must say something. For a
 * body whose text, voice and text type are valid; it refuses `input`.
 */
export function readingRule(
  body: object,
  text: string,
  textType: TextType,
  voice: Voice,
  ctx: core.$RefinementCtx,
): void {
  const read = readDocument(text, textType, voice);
  if (!read.ok) refuse(ctx, ['input'], read.code, read.message, read.details);
  else if (!saysSomething(read.document)) refuse(ctx, ['input'], 'input_required', NOTHING_TO_SAY);
  else readings.set(body, { voice, textType, document: read.document });
}

/** The request of a body the reading rule accepted, whose text is `text`. */
export function requestOf(
  body: object,
  text: string,
  dictionaries: readonly DictionaryRef[] = [],
): TtsRequest {
  const reading = readings.get(body);
  if (!reading) throw new Error('the reading rule reads every accepted body');
  const { voice, textType, document } = reading;
  const input = text.trim();
  const characters = codePointCount(input);
  return {
    input,
    characters,
    voice,
    textType,
    document,
    maxSeconds: audioBoundSeconds(voice.language, characters, textType),
    dictionaries,
  };
}

/** The fields the reading rule needs valid, and the cloning fields, which outrank it. */
const READING_NEEDS = [
  'speaker_wav',
  'reference_audio',
  'voice_sample',
  'input',
  'language',
  'speaker_id',
  'text_type',
];

/** A body's rule that `input` is given, with its `superRefine` options: it runs on any object. */
export const inputGiven = [
  (body: object, ctx: core.$RefinementCtx) => {
    if ((body as { input?: unknown }).input === undefined)
      refuse(ctx, ['input'], 'input_required', 'give the text to speak in "input"');
  },
  { when: (payload: core.ParsePayload) => isRecord(payload.value) },
] as const;

/** The voice's fields, as the voice rule accepted them. */
function acceptedVoice(fields: Pick<SpeechFields, 'language' | 'speaker_id'>): Voice {
  const voice = voiceOf(fields);
  if (!voice) throw new Error('the voice rule accepts only a voice of the language');
  return voice;
}

/** The request an accepted body asks for. */
const ttsRequestOf = (fields: SpeechFields) => requestOf(fields, fields.input, fields.dictionaries);

/**
 * A speech body of `shape`: unknown fields ignored, the shared rules applied; null is absence for
 * the shared fields that read it so and for `nullIsAbsent`.
 */
function speechBody<S extends core.$ZodLooseShape>(shape: S, nullIsAbsent: readonly string[] = []) {
  const fields = z
    .object(shape, { error: 'the body must be a JSON object with an "input" field' })
    .meta(bodyMeta)
    .superRefine(...inputGiven)
    .superRefine((body, ctx) => voiceRule(body as SpeechFields, ctx), whenLanguageValid)
    .superRefine(
      (body, ctx) => {
        const fields = body as SpeechFields;
        const voice = voiceOf(fields);
        if (voice) readingRule(fields, fields.input, fields.text_type, voice, ctx);
      },
      { when: (payload) => isRecord(payload.value) && !refusedAt(payload, READING_NEEDS) },
    );
  return z.preprocess(asSent([...NULL_IS_ABSENT, ...nullIsAbsent]), fields);
}

const speechShape = (maxChars: number) => ({
  input: inputField(maxChars),
  language: languageField,
  speaker_id: speakerIdField,
  text_type: textTypeField,
});

/** The `tts.php` body: the speech fields and `output_format`. */
export function ttsBodySchema(maxChars: number) {
  const body = speechBody(
    {
      ...speechShape(maxChars),
      output_format: outputFormatField,
      dictionaries: dictionariesField,
      ...cloningFields,
    },
    ['output_format'],
  ).transform(
    (fields): FileTtsRequest => ({
      ...ttsRequestOf(fields as SpeechFields),
      output: fields.output_format === 'wav' ? { name: 'wav' } : compressedFormats[fields.output_format],
    }),
  );
  return withRefusals(body, speechFieldCodes);
}

/** A `tts.php` request: what to speak and the file's format. */
export interface FileTtsRequest extends TtsRequest {
  readonly output: OutputFormat;
}

/** The `tts-stream.php` body: the `tts.php` fields with `format` for `output_format`. */
export function streamTtsBodySchema(maxChars: number) {
  const body = speechBody({
    ...speechShape(maxChars),
    format: formatField,
    dictionaries: dictionariesField,
    ...cloningFields,
  }).transform(
    (fields): StreamTtsRequest => ({
      ...ttsRequestOf(fields as SpeechFields),
      format: streamFormats[fields.format],
    }),
  );
  return withRefusals(body, speechFieldCodes);
}

/** The limits of a playable URL's life, from the app's configuration. */
export interface PlayUrlLifetimes {
  readonly maxLifetimeSeconds: number;
  readonly defaultLifetimeSeconds: number;
}

/** A `tts-url.php` request: what the URL speaks, in which format, and for how long it works. */
export interface PlayUrlRequest extends TtsRequest {
  /** `input` as sent, untrimmed: what the URL's first fetch reads again. */
  readonly text: string;
  readonly format: PlayFormat;
  readonly lifetimeSeconds: number;
}

/** The `tts-url.php` body: the speech fields, the audio's `format` and the URL's `expires_in`. */
export function ttsUrlBodySchema(maxChars: number, lifetimes: PlayUrlLifetimes) {
  const max = lifetimes.maxLifetimeSeconds;
  const lifetime = `expires_in must be a whole number of seconds from 1 to ${max}`;
  const body = speechBody(
    {
      ...speechShape(maxChars),
      dictionaries: dictionariesField,
      format: z
        .enum(playFormats, { error: `format must be one of ${playFormats.join(', ')}` })
        .default('wav')
        .meta({
          description:
            '`wav`: mono 16-bit PCM at 8 kHz, what telephone lines play (and the only WAV Asterisk reads ' +
            'as `.wav`); `mp3`: 24 kHz mono, 64 kbit/s. The URL’s extension follows.',
        }),
      // A whole number, as `speaker_id` is: zod's `int` would stop the body's other rules.
      expires_in: z
        .number({ error: lifetime })
        .meta({ type: 'integer' })
        .min(1, { error: lifetime })
        .max(max, { error: lifetime })
        .refine(Number.isInteger, { error: lifetime })
        .default(lifetimes.defaultLifetimeSeconds)
        .meta({ description: `Seconds the URL works, at most ${max}.` }),
      ...cloningFields,
    },
    ['format', 'expires_in'],
  ).transform(
    (fields): PlayUrlRequest => ({
      ...ttsRequestOf(fields as SpeechFields),
      text: (fields as SpeechFields).input,
      format: fields.format,
      lifetimeSeconds: fields.expires_in,
    }),
  );
  return withRefusals(body, { ...speechFieldCodes, expires_in: 'invalid_request' });
}

function speechRequestSchema(maxChars: number) {
  const body = speechBody({
    ...speechShape(maxChars),
    dictionaries: dictionariesField,
    ...cloningFields,
  }).transform((fields) => ttsRequestOf(fields as SpeechFields));
  return withRefusals(body, speechFieldCodes);
}

const speechRequestSchemas = new Map<number, ReturnType<typeof speechRequestSchema>>();

/**
 * Reads a body of the speech fields (`input`, `language`, `speaker_id`, `text_type`,
 * `dictionaries`) as the stream endpoint does, for the routes that build one from their own
 * protocol; a refusal is the `ApiError` the stream endpoint would answer.
 */
export function parseTtsRequest(body: unknown, maxChars: number): TtsRequest {
  let schema = speechRequestSchemas.get(maxChars);
  if (!schema) {
    schema = speechRequestSchema(maxChars);
    speechRequestSchemas.set(maxChars, schema);
  }
  return parseBody(schema, body);
}

const streamSettingsSchema = withRefusals(
  z
    .preprocess(
      asSent(NULL_IS_ABSENT),
      z
        .object({
          language: languageField,
          speaker_id: speakerIdField,
          format: formatField,
          text_type: textTypeField,
          dictionaries: dictionariesField,
        })
        .superRefine(voiceRule, whenLanguageValid),
    )
    .transform(
      (fields): StreamSettings => ({
        voice: acceptedVoice(fields),
        format: streamFormats[fields.format],
        textType: fields.text_type,
        dictionaries: fields.dictionaries ?? [],
      }),
    ),
  {
    language: 'unsupported_language',
    speaker_id: 'invalid_speaker',
    format: 'unsupported_format',
    text_type: 'invalid_request',
    dictionaries: 'invalid_request',
  },
);

/** Reads the fields that open a live context, with the stream endpoint's defaults and refusals. */
export function parseStreamSettings(fields: Readonly<Record<string, unknown>>): StreamSettings {
  return parseBody(streamSettingsSchema, fields);
}
