import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type {
  DictionaryInfo,
  DictionaryRefusal,
  DictionaryResult,
  DictionaryService,
} from '../../../accounts/dictionaries.ts';
import type { LexiconEntry } from '../../../accounts/dictionary-repository.ts';
import { checkEntry, type LexiconInput } from '../../../accounts/lexicons.ts';
import { MAX_PLS_BYTES, PLS_MEDIA_TYPE } from '../../../accounts/pls.ts';
import { languages } from '../../../speech/voices/voices.ts';
import { admitKey, type KeyAdmission, keyCaller } from '../../admission.ts';
import { ApiError } from '../../errors.ts';
import { parseBody } from '../compatible-call.ts';
import { elevenLabsKey } from './api-key.ts';

// ElevenLabs' pronunciation dictionaries over Ijwi's (accounts/dictionaries.ts): the same
// dictionaries, ids and versions as /api/v1/dictionaries, in ElevenLabs' shapes. A version id is
// the version's number. ElevenLabs' rules name no language: a rule is kept for each language
// whose voices can say it (an alias for all three), and listed once. Matching is Ijwi's: whole
// words, in any case, so `case_sensitive` and `word_boundaries` are accepted and change nothing.

export interface ElevenLabsDictionaryOptions extends KeyAdmission {
  readonly dictionaries: Pick<
    DictionaryService,
    'dictionaries' | 'read' | 'create' | 'createFromPls' | 'addEntries' | 'removeEntries' | 'exportPls'
  >;
}

/** Bytes of a multipart `add-from-file` body: the PLS file and the form around it. */
const MAX_FORM_BYTES = MAX_PLS_BYTES + 64 * 1024;
/** ElevenLabs' default page of `GET /v1/pronunciation-dictionaries`, and its largest. */
const DEFAULT_PAGE = 30;
const MAX_PAGE = 100;

const common = {
  string_to_replace: z.string().max(400),
  case_sensitive: z.boolean().nullish(),
  word_boundaries: z.boolean().nullish(),
};
const ruleSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('alias'), ...common, alias: z.string().max(800) }),
  z.looseObject({
    type: z.literal('phoneme'),
    ...common,
    phoneme: z.string().max(800),
    alphabet: z.string().max(40),
  }),
]);
type Rule = z.infer<typeof ruleSchema>;
const rulesSchema = z.array(ruleSchema).min(1).max(1000);
const name = z.string({ error: 'name must be a string' }).max(400);
const fromRulesBody = z.looseObject({
  rules: rulesSchema,
  name,
  description: z.string().max(4000).nullish(),
});
const addRulesBody = z.looseObject({ rules: rulesSchema });
const removeRulesBody = z.looseObject({ rule_strings: z.array(z.string().max(400)).min(1).max(1000) });
const listQuery = z.looseObject({
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, 'cursor is not one this service gave')
    .optional(),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
});

const refused = (refusal: DictionaryRefusal) =>
  new ApiError(refusal.code === 'not_found' ? 'not_found' : 'invalid_request', refusal.message, {
    ...(refusal.param === undefined ? {} : { param: refusal.param }),
  });

function ok<T>(result: DictionaryResult<T>): T {
  if (!result.ok) throw refused(result);
  return result;
}

/** A rule's entries: an alias in every language, IPA in each language whose voices can say it. */
function entriesOf(rule: Rule, index: number): LexiconInput[] {
  const phrase = rule.string_to_replace;
  if (rule.type === 'alias')
    return languages.map((l) => ({ language: l.code, phrase, kind: 'respelling', says: rule.alias }));
  if (rule.alphabet.toLowerCase() !== 'ipa')
    throw new ApiError('invalid_request', `rules[${index}]: alphabet must be ipa; Ijwi's voices read IPA`, {
      param: `rules[${index}].alphabet`,
    });
  const inputs = languages.map((l) => ({ language: l.code, phrase, kind: 'ipa', says: rule.phoneme }));
  const sayable = inputs.filter((input) => checkEntry(input).ok);
  if (sayable.length > 0) return sayable;
  const first = checkEntry(inputs[0] as LexiconInput);
  throw new ApiError(
    'invalid_request',
    `rules[${index}]: ${first.ok ? 'no voice can say it' : first.message}`,
    {
      param: `rules[${index}].phoneme`,
    },
  );
}

/** The entries of a version as ElevenLabs' rules, each rule once whatever languages hold it. */
function rulesOf(entries: readonly LexiconEntry[]) {
  const seen = new Set<string>();
  const rules: Record<string, unknown>[] = [];
  for (const entry of entries) {
    const key = `${entry.kind} ${entry.phrase.toLowerCase()} ${entry.says}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const common = { string_to_replace: entry.phrase, case_sensitive: false, word_boundaries: true };
    rules.push(
      entry.kind === 'ipa'
        ? { type: 'phoneme', ...common, phoneme: entry.says, alphabet: 'ipa' }
        : { type: 'alias', ...common, alias: entry.says },
    );
  }
  return rules;
}

function metadata(dictionary: DictionaryInfo, rules: number) {
  return {
    id: dictionary.id,
    latest_version_id: String(dictionary.version),
    latest_version_rules_num: rules,
    name: dictionary.name,
    created_by: dictionary.accountId,
    creation_time_unix: Math.floor(Date.parse(dictionary.createdAt) / 1000),
  };
}

/**
 * ElevenLabs' pronunciation dictionaries under `/elevenlabs`: `POST
 * /v1/pronunciation-dictionaries/add-from-file` (multipart, a PLS `file`), `/add-from-rules`,
 * `GET /v1/pronunciation-dictionaries` (pages by `cursor` and `page_size`), `GET .../{id}` with
 * its rules, `GET .../{id}/{version_id}/download` (the PLS file), and `POST .../{id}/add-rules`
 * and `/remove-rules`. With the `xi-api-key` and the key's rate limit; another account's id is 404.
 */
export const elevenLabsDictionaryRoutes: FastifyPluginAsync<ElevenLabsDictionaryOptions> = async (
  app,
  options,
) => {
  const { dictionaries } = options;
  const route = {
    preValidation: admitKey({ ...options, keyFrom: elevenLabsKey }, 'dictionaries'),
    bodyLimit: MAX_FORM_BYTES,
  };
  // The form is read by the platform's own multipart reader (undici's, behind `Response`).
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MAX_FORM_BYTES },
    (_r, body, done) => done(null, body),
  );

  const current = async (accountId: string, id: string) => {
    const read = ok(await dictionaries.read(accountId, id));
    return { ...read, rules: rulesOf(read.entries) };
  };
  const added = async (accountId: string, dictionary: DictionaryInfo) => {
    const { rules } = await current(accountId, dictionary.id);
    return {
      ...metadata(dictionary, rules.length),
      version_id: String(dictionary.version),
      version_rules_num: rules.length,
    };
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.post('/elevenlabs/v1/pronunciation-dictionaries/add-from-file', route, async (request) => {
    const { accountId } = keyCaller(request);
    const type = String(request.headers['content-type'] ?? '');
    if (!type.startsWith('multipart/form-data'))
      throw new ApiError(
        'unsupported_media_type',
        'send the file as multipart/form-data, with "name" and "file"',
      );
    let form: FormData;
    try {
      form = await new Response(request.body as Buffer, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new ApiError('invalid_request', 'the multipart body cannot be read', { param: 'file' });
    }
    const given = form.get('name');
    const file = form.get('file');
    if (typeof given !== 'string')
      throw new ApiError('invalid_request', 'name is required', { param: 'name' });
    if (file === null || typeof file === 'string')
      throw new ApiError('invalid_request', `file is required: a PLS file (${PLS_MEDIA_TYPE})`, {
        param: 'file',
      });
    const created = ok(await dictionaries.createFromPls(accountId, given, await file.text()));
    return added(accountId, created.dictionary);
  });

  app.post('/elevenlabs/v1/pronunciation-dictionaries/add-from-rules', route, async (request) => {
    const { accountId } = keyCaller(request);
    const body = parseBody(fromRulesBody, request.body, 'a JSON object with "name" and "rules"');
    const entries = body.rules.flatMap(entriesOf);
    const created = ok(await dictionaries.create(accountId, { name: body.name, entries }));
    return added(accountId, created.dictionary);
  });

  app.get('/elevenlabs/v1/pronunciation-dictionaries', route, async (request) => {
    const { accountId } = keyCaller(request);
    const query = parseBody(listQuery, request.query, 'cursor and page_size');
    const from = Number(query.cursor ?? 0);
    const size = query.page_size ?? DEFAULT_PAGE;
    const all = await dictionaries.dictionaries(accountId);
    const page = all.slice(from, from + size);
    const listed = [];
    for (const dictionary of page)
      listed.push(metadata(dictionary, (await current(accountId, dictionary.id)).rules.length));
    const more = from + size < all.length;
    return {
      pronunciation_dictionaries: listed,
      has_more: more,
      ...(more ? { next_cursor: String(from + size) } : {}),
    };
  });

  app.get('/elevenlabs/v1/pronunciation-dictionaries/:id', route, async (request) => {
    const { accountId } = keyCaller(request);
    const read = await current(accountId, idOf(request));
    return { ...metadata(read.dictionary, read.rules.length), rules: read.rules };
  });

  app.get(
    '/elevenlabs/v1/pronunciation-dictionaries/:id/:version_id/download',
    route,
    async (request, reply) => {
      const { accountId } = keyCaller(request);
      const { version_id: versionId } = request.params as { version_id: string };
      if (!/^\d{1,9}$/.test(versionId))
        throw new ApiError('not_found', 'no such version of that dictionary', { param: 'version_id' });
      const version = Number(versionId);
      // A PLS file holds one language: the one of the version's first entry.
      const read = ok(await dictionaries.read(accountId, idOf(request), version));
      const language = read.entries[0]?.language ?? 'en';
      const exported = ok(await dictionaries.exportPls(accountId, idOf(request), version, language));
      return reply
        .header('Content-Type', `${PLS_MEDIA_TYPE}; charset=utf-8`)
        .header('Content-Disposition', `attachment; filename="${idOf(request)}-${versionId}.pls"`)
        .send(exported.pls);
    },
  );

  app.post('/elevenlabs/v1/pronunciation-dictionaries/:id/add-rules', route, async (request) => {
    const { accountId } = keyCaller(request);
    const body = parseBody(addRulesBody, request.body, 'a JSON object with "rules"');
    const changed = ok(
      await dictionaries.addEntries(accountId, idOf(request), body.rules.flatMap(entriesOf)),
    );
    const { rules } = await current(accountId, idOf(request));
    return {
      id: changed.dictionary.id,
      version_id: String(changed.dictionary.version),
      version_rules_num: rules.length,
    };
  });

  app.post('/elevenlabs/v1/pronunciation-dictionaries/:id/remove-rules', route, async (request) => {
    const { accountId } = keyCaller(request);
    const body = parseBody(removeRulesBody, request.body, 'a JSON object with "rule_strings"');
    const wanted = new Set(body.rule_strings.map((s) => s.toLowerCase()));
    const held = (await current(accountId, idOf(request))).entries.filter((e) =>
      wanted.has(e.phrase.toLowerCase()),
    );
    // A rule string it does not hold is no error, as at ElevenLabs: nothing to remove is no new version.
    const changed =
      held.length === 0
        ? ok(await dictionaries.read(accountId, idOf(request)))
        : ok(await dictionaries.removeEntries(accountId, idOf(request), held));
    const { rules } = await current(accountId, idOf(request));
    return {
      id: changed.dictionary.id,
      version_id: String(changed.dictionary.version),
      version_rules_num: rules.length,
    };
  });
};
