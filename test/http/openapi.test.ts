import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { DictionaryService } from '../../src/accounts/dictionaries.ts';
import { type ErrorCode, errorStatus } from '../../src/http/errors.ts';
import type { Limits } from '../../src/http/schemas/voices.ts';
import { speakerIdRange } from '../../src/http/tts-request.ts';
import { streamFormatNames, streamFormats } from '../../src/speech/audio/formats.ts';
import { languages } from '../../src/speech/voices/voices.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { MemoryRateLimitStore } from '../../src/store/rate-limit/memory-rate-limit-store.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';

// The parts of an OpenAPI 3.1 document these tests read.
interface Schema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly deprecated?: boolean;
}
interface Media {
  readonly schema: Schema;
}
interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, { readonly schema: Schema; readonly description?: string }>>;
  readonly content?: Readonly<Record<string, Media>>;
}
interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly {
    readonly name: string;
    readonly in: string;
    readonly required?: boolean;
  }[];
  readonly requestBody?: { readonly required?: boolean; readonly content: Readonly<Record<string, Media>> };
  readonly responses: Readonly<Record<string, Response>>;
}
interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string };
  readonly servers?: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly components?: {
    readonly securitySchemes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
}

const PUBLIC_BASE_URL = 'https://voice.example.test';
const HEADERS = { authorization: 'Bearer ijwi_sk_test', 'content-type': 'application/json' };

/**
 * An app with the TTS routes whose engines never become ready: a request that passes
 * validation gets 503 `not_ready`, one that fails it gets its 400 (or 410), and nothing is ever
 * synthesised or charged. Every key is valid.
 */
async function ttsApp(limits?: Limits): Promise<FastifyInstance> {
  const unreachable = async (): Promise<never> => {
    throw new Error('billing is never reached: the engines are not ready');
  };
  return buildTestApp({
    ...(limits && { limits }),
    tts: {
      pool: () => undefined,
      accounts: { authenticate: async () => ({ ok: true, accountId: 'acct_test', keyId: 'key_test' }) },
      billing: {
        precheck: unreachable,
        commitCharge: unreachable,
        refundCharge: unreachable,
        balance: unreachable,
        recordDuration: unreachable,
      },
      charsPerToken: 100,
      rateLimit: new MemoryRateLimitStore(),
      publicBaseUrl: PUBLIC_BASE_URL,
      supportEmail: null,
      // An account without dictionaries (its key's account is in no database): the document's
      // examples are about the request, not lexicons.
      lexicons: new DictionaryService((await openDatabase(':memory:')).dictionaries),
    },
  });
}

async function documentOf(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  assert.equal(response.statusCode, 200);
  return response.json<OpenApiDocument>();
}

function operation(document: OpenApiDocument, path: string, method: string): Operation {
  const found = document.paths[path]?.[method];
  assert.ok(found, `${method.toUpperCase()} ${path} is documented`);
  return found;
}

function jsonBodySchema(op: Operation): Schema {
  const schema = op.requestBody?.content['application/json']?.schema;
  assert.ok(schema, 'a JSON request body');
  return schema;
}

function property(schema: Schema | undefined, name: string): Schema {
  const found = schema?.properties?.[name];
  assert.ok(found, `property ${name}`);
  return found;
}

const codesOf = (status: number) =>
  (Object.keys(errorStatus) as ErrorCode[]).filter((code) => errorStatus[code] === status).sort();

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

const TTS_PATHS = ['/api/v1/tts.php', '/api/v1/tts-stream.php'] as const;
const TTS_ERROR_STATUSES = ['400', '401', '402', '410', '413', '415', '429', '500', '503'];

describe('GET /api/v1/openapi.json', () => {
  let app: FastifyInstance;
  let document: OpenApiDocument;
  before(async () => {
    app = await ttsApp();
    document = await documentOf(app);
  });
  after(() => app.close());

  describe('happy', () => {
    it('is a valid OpenAPI 3.1 document, as JSON, without an API key', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      assert.match(String(response.headers['x-request-id']), /^req_/);
      assert.equal(document.openapi, '3.1.0');
      assert.equal(document.info.title, 'Ijwi speech API');
      const result = await validate(structuredClone(response.json<Parameters<typeof validate>[0]>()));
      assert.ok(result.valid, compileErrors(result));
      assert.deepEqual(result.warnings, []);
    });

    it('documents every path of the contract with its methods, and nothing else', () => {
      const methods = Object.fromEntries(
        Object.entries(document.paths).map(([path, item]) => [path, Object.keys(item).sort()]),
      );
      assert.deepEqual(methods, {
        '/api/v1/tts.php': ['post'],
        '/api/v1/tts-stream.php': ['post'],
        '/v1/audio/speech': ['post'],
        '/api/v1/voices.php': ['get'],
        '/v1/models': ['get'],
        '/v1/audio/voices': ['get'],
        '/api/v1/health.php': ['get'],
        '/generated/audio_{id}.{extension}': ['get', 'head'],
        '/api/v1/openapi.json': ['get'],
        '/api/v1/dictionaries': ['get', 'post'],
        '/api/v1/dictionaries/{id}': ['delete', 'get', 'put'],
        '/api/v1/dictionaries/{id}/entries': ['post'],
        '/api/v1/dictionaries/{id}/entries/remove': ['post'],
        '/api/v1/dictionaries/{id}/pls': ['get'],
      });
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const name = `${method} ${path}`;
          assert.ok(op.operationId && op.summary && op.description, `${name} is described`);
          assert.equal(op.tags?.length, 1, `${name} has a tag`);
          for (const [status, response] of Object.entries(op.responses)) {
            assert.ok(response.description, `${name} ${status} is described`);
            assert.ok(response.headers?.['X-Request-Id'], `${name} ${status} carries X-Request-Id`);
          }
        }
      }
    });

    it('takes its version from the app and its server from the public base URL', async () => {
      assert.equal(document.info.version, '0.0.0-test');
      assert.deepEqual(
        document.servers?.map((s) => s.url),
        [PUBLIC_BASE_URL],
      );
      const withoutTts = await buildTestApp();
      try {
        assert.equal((await documentOf(withoutTts)).servers, undefined);
      } finally {
        await withoutTts.close();
      }
    });

    it('documents both ways of sending the API key on both TTS endpoints', () => {
      assert.deepEqual(document.components?.securitySchemes, {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key from the account dashboard: `Authorization: Bearer ijwi_sk_…`.',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Voice-Api-Key',
          description: 'The same API key, in its own header.',
        },
      });
      for (const path of TTS_PATHS) {
        assert.deepEqual(operation(document, path, 'post').security, [
          { bearerAuth: [] },
          { apiKeyHeader: [] },
        ]);
      }
      assert.equal(operation(document, '/api/v1/voices.php', 'get').security, undefined);
    });

    it('states the request fields with the real languages, speakers and formats', () => {
      for (const path of TTS_PATHS) {
        const body = jsonBodySchema(operation(document, path, 'post'));
        assert.deepEqual(body.required, ['input']);
        const language = property(body, 'language');
        assert.deepEqual(
          language.enum,
          languages.map((l) => l.code),
        );
        assert.equal(language.default, 'rw');
        const speaker = property(body, 'speaker_id');
        assert.equal(speaker.type, 'integer');
        assert.equal(speaker.default, 0);
        for (const field of ['speaker_wav', 'reference_audio', 'voice_sample']) {
          assert.equal(property(body, field).deprecated, true, `${field} is marked retired`);
        }
      }
      const format = property(
        jsonBodySchema(operation(document, '/api/v1/tts-stream.php', 'post')),
        'format',
      );
      assert.deepEqual(format.enum, [...streamFormatNames]);
      assert.equal(format.default, 'pcm16_8k');
      assert.equal(
        jsonBodySchema(operation(document, '/api/v1/tts.php', 'post')).properties?.format,
        undefined,
      );
    });

    it('documents the JSON answer of tts.php with its fixed billing object', () => {
      const ok = operation(document, '/api/v1/tts.php', 'post').responses['200'];
      const schema = ok?.content?.['application/json']?.schema;
      assert.deepEqual(schema?.required, ['output_url', 'seconds', 'language', 'speaker_id', 'billing']);
      assert.deepEqual(property(schema, 'billing').required, [
        'kinyarwanda_free',
        'api_usage',
        'tokens_charged',
        'token_balance',
        'free_uses_remaining',
      ]);
      assert.deepEqual(Object.keys(ok?.headers ?? {}).sort(), [
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'X-Request-Id',
      ]);
    });

    it('documents the stream as raw audio in each content type, with its fixed headers', () => {
      const ok = operation(document, '/api/v1/tts-stream.php', 'post').responses['200'];
      const formats = Object.values(streamFormats);
      assert.deepEqual(
        Object.keys(ok?.content ?? {}).sort(),
        unique(formats.map((f) => f.contentType)).sort(),
      );
      assert.deepEqual(Object.keys(ok?.content ?? {}).sort(), [
        'audio/basic',
        'audio/l16',
        'audio/x-alaw-basic',
      ]);
      for (const media of Object.values(ok?.content ?? {})) {
        assert.deepEqual(media.schema, { type: 'string', format: 'binary' });
      }
      assert.deepEqual(Object.keys(ok?.headers ?? {}).sort(), [
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'X-Request-Id',
        'X-Voice-Encoding',
        'X-Voice-Free-Uses-Remaining',
        'X-Voice-Kinyarwanda-Free',
        'X-Voice-Sample-Rate',
        'X-Voice-Token-Balance',
        'X-Voice-Tokens-Charged',
        'X-Voice-Ttfa-Ms',
      ]);
      assert.deepEqual(
        ok?.headers?.['X-Voice-Encoding']?.schema.enum,
        unique(formats.map((f) => f.encoding)),
      );
      assert.deepEqual(
        ok?.headers?.['X-Voice-Sample-Rate']?.schema.enum,
        unique(formats.map((f) => f.sampleRate)),
      );
    });

    it('documents the error body, with its codes, for every error status of the TTS endpoints', () => {
      for (const path of TTS_PATHS) {
        const { responses } = operation(document, path, 'post');
        assert.deepEqual(
          Object.keys(responses).filter((status) => status !== '200'),
          TTS_ERROR_STATUSES,
          path,
        );
        for (const status of TTS_ERROR_STATUSES) {
          const schema = responses[status]?.content?.['application/json']?.schema;
          assert.deepEqual(schema?.required, ['error'], `${path} ${status}`);
          const error = property(schema, 'error');
          for (const field of ['code', 'message', 'param', 'request_id']) {
            assert.ok(error.required?.includes(field), `${path} ${status} error.${field}`);
          }
          assert.deepEqual(property(error, 'param').type, ['string', 'null']);
          assert.deepEqual([...(property(error, 'code').enum ?? [])].sort(), codesOf(Number(status)));
        }
        const details = property(responses['402']?.content?.['application/json']?.schema, 'error');
        for (const field of ['balance', 'tokens_needed', 'minimum_top_up']) {
          assert.ok(details.required?.includes(field), `402 error.${field}`);
        }
        assert.equal(responses['401']?.headers?.['WWW-Authenticate']?.schema.const, 'Bearer');
        for (const name of ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          assert.ok(responses['429']?.headers?.[name], `429 carries ${name}`);
        }
        assert.ok(responses['503']?.headers?.['Retry-After'], '503 carries Retry-After');
      }
      assert.deepEqual(
        property(jsonBodySchema(operation(document, '/api/v1/tts.php', 'post')), 'input').maxLength,
        10_000,
      );
    });

    it('documents voices as JSON and HTML, and health as 200 or 503', () => {
      const voices = operation(document, '/api/v1/voices.php', 'get');
      assert.deepEqual(
        voices.parameters?.map((p) => [p.in, p.name, p.required]),
        [['query', 'format', false]],
      );
      const content = voices.responses['200']?.content ?? {};
      assert.deepEqual(Object.keys(content).sort(), ['application/json', 'text/html']);
      assert.deepEqual(content['application/json']?.schema.required, ['languages', 'formats', 'limits']);
      const health = operation(document, '/api/v1/health.php', 'get');
      assert.deepEqual(Object.keys(health.responses), ['200', '503']);
      assert.deepEqual(
        property(health.responses['503']?.content?.['application/json']?.schema, 'status').enum,
        ['not_ready'],
      );
    });

    it('documents the generated file: GET with ranges (206, 416) and HEAD', () => {
      const get = operation(document, '/generated/audio_{id}.{extension}', 'get');
      assert.deepEqual(Object.keys(get.responses), ['200', '206', '404', '416']);
      assert.deepEqual(
        get.parameters?.map((p) => [p.in, p.name]),
        [
          ['path', 'id'],
          ['path', 'extension'],
          ['header', 'Range'],
          ['header', 'If-Range'],
        ],
      );
      assert.deepEqual(Object.keys(get.responses['206']?.content ?? {}), [
        'audio/wav',
        'audio/mpeg',
        'audio/ogg; codecs=opus',
        'audio/flac',
      ]);
      assert.ok(get.responses['206']?.headers?.['Content-Range']);
      assert.ok(get.responses['416']?.headers?.['Content-Range']);
      assert.ok(get.responses['416']?.content?.['application/json']);
      const head = operation(document, '/generated/audio_{id}.{extension}', 'head');
      assert.deepEqual(Object.keys(head.responses), ['200', '404']);
      assert.equal(head.responses['200']?.content, undefined, 'HEAD has no body');
      assert.ok(head.responses['200']?.headers?.['Content-Length']);
    });
  });

  describe('follows the app', () => {
    // Limits unlike the contract's, so a number copied into the document would show.
    const limits: Limits = { fileMaxChars: 120, streamMaxChars: 60, requestsPerMinute: 1000 };
    let custom: FastifyInstance;
    let customDocument: OpenApiDocument;
    before(async () => {
      custom = await ttsApp(limits);
      customDocument = await documentOf(custom);
    });
    after(() => custom.close());

    it('states the limits the app was given', () => {
      const input = (path: string) =>
        property(jsonBodySchema(operation(customDocument, path, 'post')), 'input');
      assert.equal(input('/api/v1/tts.php').maxLength, limits.fileMaxChars);
      assert.equal(input('/api/v1/tts-stream.php').maxLength, limits.streamMaxChars);
      const listing = operation(customDocument, '/api/v1/voices.php', 'get').responses['200']?.content?.[
        'application/json'
      ]?.schema;
      const listed = property(listing, 'limits');
      assert.deepEqual(
        ['file_max_chars', 'stream_max_chars', 'requests_per_minute'].map(
          (name) => property(listed, name).enum,
        ),
        [[limits.fileMaxChars], [limits.streamMaxChars], [limits.requestsPerMinute]],
      );
      const tooMany = operation(customDocument, '/api/v1/tts.php', 'post').responses['429'];
      assert.match(tooMany?.description ?? '', /More than 1000 requests/);
    });

    it('states the body limit Fastify enforces', () => {
      const tooLarge = operation(customDocument, '/api/v1/tts.php', 'post').responses['413'];
      assert.match(
        tooLarge?.description ?? '',
        new RegExp(`larger than ${custom.initialConfig.bodyLimit} bytes`),
      );
    });

    // The TTS bodies are validated by the handlers (after authentication, with the contract's
    // codes) and documented by a schema built from the same constants: this is the check that
    // the two say the same thing, request by request, with the document's own JSON Schema.
    for (const path of TTS_PATHS) {
      it(`passes what the document calls valid, and refuses what it calls invalid, on ${path}`, async () => {
        const stream = path === '/api/v1/tts-stream.php';
        const max = stream ? limits.streamMaxChars : limits.fileMaxChars;
        const ajv = new Ajv2020({ strict: false, validateFormats: false });
        const documented = ajv.compile(jsonBodySchema(operation(customDocument, path, 'post')));
        const bodies: unknown[] = [
          { input: 'Muraho' },
          { input: 'a'.repeat(max) },
          { input: 'a'.repeat(max + 1) },
          // Characters are code points: an emoji is one.
          { input: `a${'🙏'.repeat(max - 1)}` },
          { input: `a${'🙏'.repeat(max)}` },
          // Nothing to speak: no letter or digit.
          { input: '🙏!?' },
          {},
          { input: '' },
          { input: '  \n\t ' },
          { input: 42 },
          { input: null },
          { input: 'x', language: 'sw' },
          { input: 'x', language: 1 },
          { input: 'x', speaker_id: 1.5 },
          { input: 'x', speaker_id: true },
          { input: 'x', speaker_id: 3 },
          { input: 'x', temperature: 0.7 },
          { input: 'x', speaker_wav: 'a.wav' },
          { input: 'x', reference_audio: '...' },
          { input: 'x', voice_sample: null },
          // Control characters other than tab, line feed and carriage return; lone surrogates.
          { input: 'a\u0000b' },
          { input: 'a\u001bb' },
          { input: 'a\u0085b' },
          { input: 'a\ud800b' },
          { input: 'a\tb\nc\rd' },
          { input: 'x', text_type: 'text' },
          { input: '<speak>Muraho</speak>', text_type: 'ssml' },
          { input: 'x', text_type: 'html' },
          { input: 'x', text_type: null },
          ['x'],
          'x',
        ];
        for (const language of languages) {
          const { min, max: last } = speakerIdRange(language.code);
          for (let id = min - 1; id <= last + 1; id++)
            bodies.push({ input: 'x', language: language.code, speaker_id: id });
        }
        if (stream) {
          for (const format of streamFormatNames) bodies.push({ input: 'x', format });
          bodies.push(
            { input: 'x', format: 'mp3' },
            { input: 'x', format: null },
            { input: 'x', format: 'PCM16_8K' },
          );
        }
        const outcomes = { valid: 0, invalid: 0 };
        for (const body of bodies) {
          const valid = documented(body);
          outcomes[valid ? 'valid' : 'invalid']++;
          const response = await custom.inject({
            method: 'POST',
            url: path,
            headers: HEADERS,
            payload: JSON.stringify(body),
          });
          const name = `${JSON.stringify(body).slice(0, 60)}: documented as ${valid ? 'valid' : 'invalid'}`;
          if (valid) {
            assert.equal(response.statusCode, 503, name);
            assert.equal(response.json().error.code, 'not_ready', name);
          } else {
            const cloning =
              typeof body === 'object' &&
              body !== null &&
              !Array.isArray(body) &&
              ['speaker_wav', 'reference_audio', 'voice_sample'].some((f) => f in body);
            assert.equal(response.statusCode, cloning ? 410 : 400, `${name}: ${response.body}`);
          }
        }
        assert.ok(outcomes.valid >= 10 && outcomes.invalid >= 15, JSON.stringify(outcomes));
      });
    }
  });

  describe('behaviour kept', () => {
    it('still serves the voices page for any other ?format, as before the query was documented', async () => {
      for (const query of ['?format=xml', '?format=json&format=json', '?format=', '?format[a]=1']) {
        const response = await app.inject({ method: 'GET', url: `/api/v1/voices.php${query}` });
        assert.equal(response.statusCode, 200, query);
        assert.match(String(response.headers['content-type']), /text\/html/, query);
      }
    });

    it('still answers a malformed generated-file name with the one 404, not a 400', async () => {
      const response = await app.inject({ method: 'GET', url: '/generated/not-a-file.txt' });
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().error.code, 'not_found');
    });

    it('answers 405 with Allow for a wrong method on the document', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/v1/openapi.json' });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'GET, HEAD');
    });
  });
});
