import type { FastifySchema } from 'fastify';
import { type ZodType, z } from 'zod';
import {
  KEPT_VERSIONS,
  MAX_DICTIONARIES,
  MAX_DICTIONARY_ENTRIES,
  MAX_DICTIONARY_NAME_CHARS,
  MAX_SELECTED_DICTIONARIES,
} from '../../accounts/dictionaries.ts';
import { MAX_PHRASE_CHARS, MAX_SAYS_CHARS } from '../../accounts/lexicons.ts';
import { IJWI_PLS_NAMESPACE, MAX_PLS_BYTES, PLS_MEDIA_TYPE } from '../../accounts/pls.ts';
import { languages } from '../../speech/voices/voices.ts';
import { apiKeySecurity, tags } from '../openapi.ts';
import { errorResponse, invalidApiKeyResponse } from './errors.ts';
import {
  binaryResponse,
  type DocumentedResponse,
  emptyResponse,
  jsonResponse,
  rateLimitHeaders,
} from './responses.ts';

// The pronunciation dictionaries API. As for the TTS routes, these schemas document the requests
// and the handler validates them (after the key and the rate limit): with zod, against these
// same schemas, so what the document says is what is checked.

const languageCodes = languages.map((l) => l.code);
const languageEnum = z.enum(languageCodes);

/** An entry as a request gives it. */
export const entryBody = z.strictObject({
  language: languageEnum.meta({ description: 'The language whose requests the entry applies to.' }),
  phrase: z
    .string()
    .meta({ description: `The word or phrase as written in requests (1-${MAX_PHRASE_CHARS} characters).` }),
  kind: z.enum(['respelling', 'ipa']).meta({
    description:
      '`respelling`: `says` is read as plain words; `ipa`: `says` is IPA every voice of the language can say.',
  }),
  says: z.string().meta({ description: `The respelling or the IPA (1-${MAX_SAYS_CHARS} characters).` }),
  word_language: languageEnum.nullable().optional().meta({
    description:
      'For a respelling: the language its words are said as (a Kinyarwanda name in an English voice).',
  }),
});

const entries = z.array(entryBody).max(MAX_DICTIONARY_ENTRIES);
const name = z.string().meta({ description: `1-${MAX_DICTIONARY_NAME_CHARS} characters.` });

/** POST /api/v1/dictionaries as JSON. */
export const createBody = z.strictObject({ name, entries: entries.optional() });
/** PUT /api/v1/dictionaries/{id} as JSON: every entry replaced; a new name when given. */
export const replaceBody = z.strictObject({ name: name.optional(), entries });
/** POST /api/v1/dictionaries/{id}/entries. */
export const addBody = z.strictObject({ entries: entries.min(1) });
/** POST /api/v1/dictionaries/{id}/entries/remove. */
export const removeBody = z.strictObject({
  entries: z
    .array(z.strictObject({ language: languageEnum, phrase: z.string().max(MAX_PHRASE_CHARS * 4) }))
    .min(1)
    .max(MAX_DICTIONARY_ENTRIES),
});

export const idParams = z.object({ id: z.string().meta({ description: 'The dictionary id (`dict_…`).' }) });
export const versionQuery = z.object({
  version: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .meta({ description: 'A kept version; the current one when absent.' }),
});
export const exportQuery = versionQuery.extend({
  language: languageEnum.optional().meta({
    description: 'The language to export; may be left out when the version holds one language.',
  }),
});
export const importQuery = z.object({
  name: name.optional().meta({ description: 'The new dictionary’s name, for a PLS body (required then).' }),
});

const entryResponse = entryBody.extend({
  id: z
    .string()
    .meta({ description: 'The entry id (`lex_…`); it stays when the entry is replaced in the dashboard.' }),
  word_language: languageEnum.nullable(),
});

/** A dictionary's summary. */
export const dictionarySchema = z.object({
  id: z.string(),
  name: z.string(),
  default: z.boolean().meta({
    description:
      'The account’s default dictionary (its lexicon of the dashboard), used when a request names none.',
  }),
  version: z
    .int()
    .meta({ description: 'The version described (the current one, unless another was asked for).' }),
  latest_version: z.int(),
  first_version: z
    .int()
    .meta({ description: `The oldest version still kept (the last ${KEPT_VERSIONS} are).` }),
  entry_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const dictionaryListSchema = z.object({ dictionaries: z.array(dictionarySchema) });
export const dictionaryContentSchema = dictionarySchema.extend({ entries: z.array(entryResponse) });

export type DictionaryJson = z.infer<typeof dictionarySchema>;
export type DictionaryContentJson = z.infer<typeof dictionaryContentSchema>;

/** What the dictionaries API documents of its limits. */
export interface DictionaryDocOptions {
  readonly requestsPerMinute: number;
}

const limitsNote =
  `An account keeps at most ${MAX_DICTIONARIES} dictionaries (its default one included) of at most ` +
  `${MAX_DICTIONARY_ENTRIES} entries each; a PLS file has at most ${MAX_PLS_BYTES} bytes and ` +
  `${MAX_DICTIONARY_ENTRIES} lexemes. Every change makes a new version; the last ${KEPT_VERSIONS} ` +
  `can be read and named by requests (\`dictionaries: [{"id", "version"}]\`, at most ` +
  `${MAX_SELECTED_DICTIONARIES}).`;

const plsNote =
  `Or a W3C PLS 1.0 file with \`Content-Type: ${PLS_MEDIA_TYPE}\` (\`alphabet="ipa"\`, \`xml:lang\` ` +
  'rw, en or fr; `<lexeme>` with `<grapheme>`s and a `<phoneme>` or `<alias>`, the one with ' +
  '`prefer="true"` or else the first; a respelling’s word language in the attribute ' +
  `\`word-language\` of the namespace \`${IJWI_PLS_NAMESPACE}\`). A DOCTYPE, entities and ` +
  'external references are refused, with the line.';

function errors(options: DictionaryDocOptions, write: boolean): Record<number, DocumentedResponse> {
  const body: Record<number, DocumentedResponse> = write
    ? {
        413: errorResponse(413, `The body is larger than ${MAX_PLS_BYTES} bytes.`),
        415: errorResponse(415, `The body is neither JSON nor \`${PLS_MEDIA_TYPE}\`.`),
      }
    : {};
  return {
    ...body,
    400: errorResponse(
      400,
      'A malformed body or query (`param` names the field), an entry that cannot be said (IPA a voice ' +
        'cannot say, with the entry or the PLS line), a phrase twice, or a limit reached.',
    ),
    401: invalidApiKeyResponse(),
    404: errorResponse(
      404,
      'No such dictionary or version of this account (any other account’s id is not found).',
    ),
    429: errorResponse(
      429,
      `More than ${options.requestsPerMinute} requests in a rolling minute on this key (the limit the speech endpoints share).`,
    ),
  };
}

function route(
  operationId: string,
  summary: string,
  description: string,
  parts: Partial<Pick<FastifySchema, 'body' | 'params' | 'querystring'>>,
  ok: Record<number, DocumentedResponse>,
  options: DictionaryDocOptions,
  write: boolean,
): FastifySchema {
  return {
    operationId,
    summary,
    description,
    tags: [tags.dictionaries],
    security: apiKeySecurity,
    ...parts,
    response: { ...ok, ...errors(options, write) },
  };
}

const json = (description: string, schema: ZodType, options: DictionaryDocOptions) =>
  jsonResponse(description, schema, rateLimitHeaders(options.requestsPerMinute));

/** Each route's schema, for the document. */
export function dictionaryRouteSchemas(options: DictionaryDocOptions) {
  return {
    list: route(
      'listDictionaries',
      'List the account’s pronunciation dictionaries',
      `The default dictionary first. ${limitsNote}`,
      {},
      { 200: json('The dictionaries.', dictionaryListSchema, options) },
      options,
      false,
    ),
    create: route(
      'createDictionary',
      'Create a pronunciation dictionary',
      `A JSON body \`{"name", "entries"}\`. ${plsNote} The name is then \`?name=\`. ${limitsNote}`,
      { body: createBody, querystring: importQuery },
      { 201: json('Created, at version 1.', dictionarySchema, options) },
      options,
      true,
    ),
    read: route(
      'getDictionary',
      'Read a dictionary and its entries',
      'The current version, or `?version=` of the kept ones.',
      { params: idParams, querystring: versionQuery },
      { 200: json('The dictionary at that version.', dictionaryContentSchema, options) },
      options,
      false,
    ),
    replace: route(
      'replaceDictionary',
      'Replace a dictionary’s entries',
      'A JSON body `{"name"?, "entries"}` replaces every entry (and the name when given). ' +
        `${plsNote} A PLS file replaces the entries of its language only. Makes a new version.`,
      { params: idParams, body: replaceBody },
      { 200: json('The new version.', dictionarySchema, options) },
      options,
      true,
    ),
    remove: route(
      'deleteDictionary',
      'Delete a dictionary',
      'Requests that name it are refused from then on. The default dictionary cannot be deleted.',
      { params: idParams },
      { 204: emptyResponse('Deleted.', rateLimitHeaders(options.requestsPerMinute)) },
      options,
      false,
    ),
    addEntries: route(
      'addDictionaryEntries',
      'Add entries to a dictionary',
      'A phrase the dictionary already holds in that language is refused. Makes a new version.',
      { params: idParams, body: addBody },
      { 200: json('The new version.', dictionarySchema, options) },
      options,
      true,
    ),
    removeEntries: route(
      'removeDictionaryEntries',
      'Remove entries from a dictionary',
      'By language and phrase (in any case); a phrase it does not hold is refused. Makes a new version.',
      { params: idParams, body: removeBody },
      { 200: json('The new version.', dictionarySchema, options) },
      options,
      true,
    ),
    exportPls: route(
      'exportDictionaryPls',
      'Export a dictionary as a W3C PLS file',
      'One language’s entries of the current or a kept version, as PLS 1.0 with IPA; word languages ' +
        `in the attribute \`word-language\` of \`${IJWI_PLS_NAMESPACE}\`.`,
      { params: idParams, querystring: exportQuery },
      { 200: binaryResponse('The PLS file.', [PLS_MEDIA_TYPE], rateLimitHeaders(options.requestsPerMinute)) },
      options,
      false,
    ),
  };
}
