import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodType, z } from 'zod';
import type {
  DictionaryContent,
  DictionaryInfo,
  DictionaryRefusal,
  DictionaryResult,
  DictionaryService,
} from '../../accounts/dictionaries.ts';
import type { LexiconEntry } from '../../accounts/dictionary-repository.ts';
import type { LexiconInput } from '../../accounts/lexicons.ts';
import { MAX_PLS_BYTES, PLS_MEDIA_TYPE } from '../../accounts/pls.ts';
import { admitKey, type KeyAdmission, keyCaller } from '../admission.ts';
import { ApiError } from '../errors.ts';
import { validatedByHandler } from '../openapi.ts';
import {
  addBody,
  createBody,
  type DictionaryContentJson,
  type DictionaryJson,
  dictionaryRouteSchemas,
  exportQuery,
  idParams,
  importQuery,
  removeBody,
  replaceBody,
  versionQuery,
} from '../schemas/dictionaries.ts';

export interface DictionaryRouteOptions extends KeyAdmission {
  readonly dictionaries: Pick<
    DictionaryService,
    | 'dictionaries'
    | 'read'
    | 'create'
    | 'createFromPls'
    | 'replace'
    | 'replaceFromPls'
    | 'addEntries'
    | 'removeEntries'
    | 'delete'
    | 'exportPls'
  >;
}

const DICTIONARY_ID = /^dict_[0-9A-Za-z]{1,40}$/;

/** A value checked against its route's schema, or the 400 naming the field at fault. */
function parsed<S extends ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
  throw new ApiError(
    'invalid_request',
    `${param || what}: ${issue?.message ?? 'invalid'}`,
    param ? { param } : {},
  );
}

function input(entry: z.infer<typeof addBody>['entries'][number]): LexiconInput {
  return {
    language: entry.language,
    phrase: entry.phrase,
    kind: entry.kind,
    says: entry.says,
    wordLanguage: entry.word_language ?? undefined,
  };
}

function refusalError(refusal: DictionaryRefusal): ApiError {
  const options = refusal.param === undefined ? {} : { param: refusal.param };
  return new ApiError(
    refusal.code === 'not_found' ? 'not_found' : 'invalid_request',
    refusal.message,
    options,
  );
}

function ok<T>(result: DictionaryResult<T>): T {
  if (!result.ok) throw refusalError(result);
  return result;
}

function summary(
  dictionary: DictionaryInfo,
  shown?: { version: number; entryCount: number },
): DictionaryJson {
  return {
    id: dictionary.id,
    name: dictionary.name,
    default: dictionary.isDefault,
    version: shown?.version ?? dictionary.version,
    latest_version: dictionary.version,
    first_version: dictionary.firstVersion,
    entry_count: shown?.entryCount ?? dictionary.entryCount,
    created_at: dictionary.createdAt,
    updated_at: dictionary.updatedAt,
  };
}

function entryJson(entry: LexiconEntry): DictionaryContentJson['entries'][number] {
  return {
    id: entry.id,
    language: entry.language,
    phrase: entry.phrase,
    kind: entry.kind,
    says: entry.says,
    word_language: entry.wordLanguage,
  };
}

function content(read: DictionaryContent): DictionaryContentJson {
  return {
    ...summary(read.dictionary, { version: read.version, entryCount: read.entries.length }),
    entries: read.entries.map(entryJson),
  };
}

const isPls = (request: FastifyRequest) =>
  String(request.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase() === PLS_MEDIA_TYPE;

/** The `:id` of the route: any id that is not a dictionary id is not found, as another account's is. */
function idOf(request: FastifyRequest): string {
  const { id } = parsed(idParams, request.params, 'id');
  if (!DICTIONARY_ID.test(id)) throw new ApiError('not_found', `no dictionary ${id.slice(0, 60)}`);
  return id;
}

const versionOf = (request: FastifyRequest): number | undefined => {
  const { version } = parsed(versionQuery, request.query, 'version');
  return version === undefined ? undefined : Number(version);
};

/**
 * The pronunciation dictionaries API under /api/v1/dictionaries, with the account's API key and
 * the speech endpoints' rate limit: list, create (JSON or PLS), read (any kept version), replace
 * (JSON, or PLS for its language), delete, add and remove entries, export as PLS. Another
 * account's dictionary is not found, whatever is sent.
 */
export const dictionaryRoutes: FastifyPluginAsync<DictionaryRouteOptions> = async (app, options) => {
  const { dictionaries } = options;
  const schemas = dictionaryRouteSchemas(options);
  // A PLS file is read as text by the codec (accounts/pls.ts), never by a generic XML parser.
  app.addContentTypeParser(
    PLS_MEDIA_TYPE,
    { parseAs: 'string', bodyLimit: MAX_PLS_BYTES },
    (_r, body, done) => done(null, body),
  );
  const common = {
    validatorCompiler: validatedByHandler,
    preValidation: admitKey(options, 'dictionaries'),
  };
  const writing = { ...common, bodyLimit: MAX_PLS_BYTES };

  app.get('/api/v1/dictionaries', { ...common, schema: schemas.list }, async (request) => {
    const { accountId } = keyCaller(request);
    return { dictionaries: (await dictionaries.dictionaries(accountId)).map((d) => summary(d)) };
  });

  app.post('/api/v1/dictionaries', { ...writing, schema: schemas.create }, async (request, reply) => {
    const { accountId } = keyCaller(request);
    let created: { dictionary: DictionaryInfo };
    if (isPls(request)) {
      const { name } = parsed(importQuery, request.query, 'name');
      if (name === undefined)
        throw new ApiError('invalid_request', 'name the dictionary with ?name=', { param: 'name' });
      created = ok(await dictionaries.createFromPls(accountId, name, String(request.body)));
    } else {
      const body = parsed(createBody, request.body, 'body');
      created = ok(
        await dictionaries.create(accountId, { name: body.name, entries: (body.entries ?? []).map(input) }),
      );
    }
    return reply.code(201).send(summary(created.dictionary));
  });

  app.get('/api/v1/dictionaries/:id', { ...common, schema: schemas.read }, async (request) => {
    const { accountId } = keyCaller(request);
    return content(ok(await dictionaries.read(accountId, idOf(request), versionOf(request))));
  });

  app.put('/api/v1/dictionaries/:id', { ...writing, schema: schemas.replace }, async (request) => {
    const { accountId } = keyCaller(request);
    const id = idOf(request);
    if (isPls(request))
      return summary(ok(await dictionaries.replaceFromPls(accountId, id, String(request.body))).dictionary);
    const body = parsed(replaceBody, request.body, 'body');
    return summary(
      ok(await dictionaries.replace(accountId, id, { name: body.name, entries: body.entries.map(input) }))
        .dictionary,
    );
  });

  app.delete('/api/v1/dictionaries/:id', { ...common, schema: schemas.remove }, async (request, reply) => {
    const { accountId } = keyCaller(request);
    ok(await dictionaries.delete(accountId, idOf(request)));
    return reply.code(204).send();
  });

  app.post(
    '/api/v1/dictionaries/:id/entries',
    { ...writing, schema: schemas.addEntries },
    async (request) => {
      const { accountId } = keyCaller(request);
      const id = idOf(request);
      const body = parsed(addBody, request.body, 'body');
      return summary(ok(await dictionaries.addEntries(accountId, id, body.entries.map(input))).dictionary);
    },
  );

  app.post(
    '/api/v1/dictionaries/:id/entries/remove',
    { ...writing, schema: schemas.removeEntries },
    async (request) => {
      const { accountId } = keyCaller(request);
      const id = idOf(request);
      const body = parsed(removeBody, request.body, 'body');
      return summary(ok(await dictionaries.removeEntries(accountId, id, body.entries)).dictionary);
    },
  );

  app.get(
    '/api/v1/dictionaries/:id/pls',
    { ...common, schema: schemas.exportPls },
    async (request, reply) => {
      const { accountId } = keyCaller(request);
      const id = idOf(request);
      const query = parsed(exportQuery, request.query, 'query');
      const version = query.version === undefined ? undefined : Number(query.version);
      const exported = ok(await dictionaries.exportPls(accountId, id, version, query.language));
      return reply
        .header('Content-Type', `${PLS_MEDIA_TYPE}; charset=utf-8`)
        .header(
          'Content-Disposition',
          `attachment; filename="${id}-v${exported.version}-${exported.language}.pls"`,
        )
        .send(exported.pls);
    },
  );
};
