import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import type { DocumentedResponse } from './schemas/responses.ts';

/** The OpenAPI version of the document: 3.1, whose schemas are the JSON Schema zod emits. */
export const OPENAPI_VERSION = '3.1.0';

/** Where the document is served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

/** Operation tags, in the order the document lists them. */
export const tags = {
  speech: 'speech',
  voices: 'voices',
  dictionaries: 'dictionaries',
  files: 'files',
  service: 'service',
} as const;

const BEARER = 'bearerAuth';
const API_KEY_HEADER = 'apiKeyHeader';

/** Either way of sending the API key (the contract's two headers); one is enough. */
export const apiKeySecurity: FastifySchema['security'] = [{ [BEARER]: [] }, { [API_KEY_HEADER]: [] }];

export interface OpenApiOptions {
  /** The service version (package.json), as the document's `info.version`. */
  readonly version: string;
  /** Where clients reach the service; the document's server when known. */
  readonly publicBaseUrl?: string;
}

/**
 * A validator for route schemas that are there for the document only: the handler validates
 * itself. The generated-file path is never validated, so a 400 cannot reveal which names are
 * well formed. (The speech bodies are validated by their schemas: `bodyValidator`.)
 */
export const validatedByHandler: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

type TransformInput = Parameters<SwaggerTransform>[0];

function isDocumentedResponse(value: unknown): value is DocumentedResponse {
  return typeof value === 'object' && value !== null && !(value instanceof z.ZodType) && 'content' in value;
}

/**
 * One zod schema as JSON Schema, converted the way the zod type provider converts request
 * schemas (passed through it as a response), so that request and response schemas follow the
 * same rules for the document's OpenAPI version.
 */
function toJsonSchema(input: TransformInput, schema: ZodType): Record<string, unknown> {
  const { schema: converted } = jsonSchemaTransform({ ...input, schema: { response: { 200: schema } } });
  const json = (converted.response as Record<string, Record<string, unknown>> | undefined)?.[200] ?? {};
  // The converter leaves the dialect and a placeholder id at the top; the document builder drops
  // them from bodies but copies header schemas as they are, so they go here.
  const { $schema: _dialect, $id: _placeholder, ...rest } = json;
  return rest;
}

const requestIdHeader = z.string().meta({
  description: 'The id of this request (`req_…`); error bodies carry it as `request_id`.',
});

/**
 * A response for the document builder: content by media type, headers by name, and, for a
 * response without a body, `type: 'null'`, which is how the builder is told not to invent one.
 */
function documentResponse(input: TransformInput, response: DocumentedResponse): Record<string, unknown> {
  const headers = { 'X-Request-Id': requestIdHeader, ...response.headers };
  const content = Object.entries(response.content);
  return {
    description: response.description,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, schema]) => [name, toJsonSchema(input, schema)]),
    ),
    ...(content.length === 0
      ? { type: 'null' }
      : {
          content: Object.fromEntries(
            content.map(([type, { schema }]) => [type, { schema: toJsonSchema(input, schema) }]),
          ),
        }),
  };
}

/**
 * The document's view of a route: request schemas through the zod type provider's transform,
 * responses (which it cannot read: they carry headers and several media types) through
 * `documentResponse`. A plain zod response is taken as a JSON body.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const { response, ...request } = input.schema ?? {};
  const transformed = jsonSchemaTransform({ ...input, schema: request });
  if (transformed.schema.hide || response === undefined) return transformed;
  const responses = Object.entries(response as Record<string, unknown>).map(([status, value]) => {
    const documented: DocumentedResponse = isDocumentedResponse(value)
      ? value
      : {
          description: value instanceof z.ZodType ? (value.description ?? '') : '',
          content: { 'application/json': { schema: value as ZodType } },
        };
    return [status, documentResponse(input, documented)];
  });
  return { ...transformed, schema: { ...transformed.schema, response: Object.fromEntries(responses) } };
};

/**
 * A transform for a route whose router pattern cannot say its public path: the generated files
 * are routed as `/generated/:file` (any name reaches the handler, which answers one 404 for
 * every bad name), but their address is `/generated/audio_{id}.wav`.
 */
export function documentedAt(path: string): SwaggerTransform {
  return (input) => ({ ...openApiTransform(input), url: path });
}

const apiDescription = `Text to speech for Kinyarwanda, English and French, for AI receptionists, telephony and apps.

- **Voices**: a voice is the pair (\`language\`, \`speaker_id\`); \`GET /api/v1/voices.php?format=json\` lists them with the stream formats and limits.
- **Authentication**: an API key (\`ijwi_sk_…\`) in \`Authorization: Bearer <key>\` or in \`X-Voice-Api-Key\`; two different keys in the two headers are a 400.
- **Errors**: every error has the body \`{"error": {"code", "message", "param", "request_id"}}\`; each status below lists its codes. A wrong method on a known path is a 405 with \`Allow\`; an unknown path is a 404.
- **Versioning**: the version is the \`/api/v1/\` prefix; v1 changes only in ways existing clients cannot notice.
- **Voice cloning** is retired: \`/api/v1/clone.php\` and \`/api/v1/voice-clone.php\` answer 410 \`voice_cloning_retired\` to any method and are not listed here.`;

/**
 * Registers the document builder. Must come before the routes: it collects them as they are
 * added. The document itself is served by routes/openapi.ts.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: 'Ijwi speech API', version: options.version, description: apiDescription },
      ...(options.publicBaseUrl !== undefined && {
        servers: [{ url: options.publicBaseUrl, description: 'This service' }],
      }),
      tags: [
        {
          name: tags.speech,
          description:
            'Text to speech: a file (WAV, MP3, Opus, FLAC), raw audio streamed for live calls, or OpenAI-compatible speech.',
        },
        { name: tags.voices, description: 'The voices, stream formats, prices and limits.' },
        {
          name: tags.dictionaries,
          description:
            'Pronunciation dictionaries: named, versioned lists of how to say words, chosen per request; W3C PLS import and export.',
        },
        { name: tags.files, description: 'The generated audio files behind `output_url`.' },
        { name: tags.service, description: 'Readiness and this document.' },
      ],
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key from the account dashboard: `Authorization: Bearer ijwi_sk_…`.',
          },
          [API_KEY_HEADER]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Voice-Api-Key',
            description: 'The same API key, in its own header.',
          },
        },
      },
    },
    // Paths are the app's own; the server URL may carry a prefix a proxy adds, which must stay.
    stripBasePath: false,
    // The document covers the API: every API route has a tag, the web pages and their assets
    // have none and stay out of it.
    hideUntagged: true,
    transform: openApiTransform,
  });
}
