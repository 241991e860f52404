import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { compressedFormats, isCompressedFormatName } from '../../speech/audio/compressed-formats.ts';
import {
  type FileExtension,
  fileExtensions,
  type GeneratedFileStore,
  type StoredFile,
} from '../../store/files/file-store.ts';
import { parseByteRange } from '../byte-range.ts';
import { ApiError } from '../errors.ts';
import { documentedAt, validatedByHandler } from '../openapi.ts';
import { GENERATED_FILE_PATH, generatedGetSchema, generatedHeadSchema } from '../schemas/generated.ts';

export interface GeneratedOptions {
  readonly store: GeneratedFileStore;
}

const PATH = '/generated/:file';
// Loose on purpose: the store checks the id's exact shape before it builds any path.
const FILE_NAME = new RegExp(`^audio_([^/]+)\\.(${fileExtensions.join('|')})$`);
const ALLOW = 'GET, HEAD';

/**
 * One 404, word for word, for a malformed, unknown or expired id, so that probing ids learns
 * nothing; the message names both causes the user can act on. It does not echo the path.
 */
function notFound(): ApiError {
  return new ApiError('not_found', 'no such generated file: the address is wrong or the file has expired');
}

/** A generated file and the kind its name gives. */
export interface Found {
  readonly file: StoredFile;
  readonly extension: FileExtension;
  /** When the address it was found by stops working, if before the file's own expiry. */
  readonly servedUntil?: Date;
}

async function find(store: GeneratedFileStore, request: FastifyRequest): Promise<Found> {
  // Never validated by a schema: a validation error would be a 400 and would reveal which names
  // are well formed. The routes' params schema describes the public path, for the document only.
  const { file } = request.params as { file?: string };
  const name = FILE_NAME.exec(file ?? '');
  const [id, extension] = [name?.[1], name?.[2] as FileExtension | undefined];
  const stored = id === undefined || extension === undefined ? undefined : await store.open(id, extension);
  if (!stored || extension === undefined) throw notFound();
  return { file: stored, extension };
}

function contentTypeOf(extension: FileExtension): string {
  return isCompressedFormatName(extension) ? compressedFormats[extension].contentType : 'audio/wav';
}

/** The headers of a stored file: its type, ranges, how long a cache may keep it. */
export function setFileHeaders(reply: FastifyReply, { file, extension, servedUntil }: Found): void {
  // A cache must not serve the file after the server has stopped serving it.
  const until = Math.min(file.expiresAt.getTime(), servedUntil?.getTime() ?? Number.POSITIVE_INFINITY);
  const maxAge = Math.max(0, Math.floor((until - Date.now()) / 1000));
  reply
    .header('Content-Type', contentTypeOf(extension))
    .header('Accept-Ranges', 'bytes')
    .header('Cache-Control', `private, max-age=${maxAge}`)
    .header('Last-Modified', file.createdAt.toUTCString())
    .header('X-Content-Type-Options', 'nosniff');
}

/**
 * Whether a `Range` may be honoured given `If-Range` (RFC 9110 13.1.5). A file never changes
 * under its id, so its Last-Modified date is a strong validator; any other value means the
 * client's partial copy is of something else, and it gets the whole file.
 */
function rangeStillApplies(request: FastifyRequest, file: StoredFile): boolean {
  const ifRange = request.headers['if-range'];
  if (ifRange === undefined) return true;
  if (typeof ifRange !== 'string') return false;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(file.createdAt.getTime() / 1000);
}

/**
 * A stored file as the response, whole or the single byte range asked for (`If-Range` honoured),
 * with headers that let players stream and seek it.
 */
export function sendStoredFile(request: FastifyRequest, reply: FastifyReply, found: Found): FastifyReply {
  const { file } = found;
  setFileHeaders(reply, found);
  // Range handling is defined for GET only (RFC 9110 14.2), hence not in HEAD.
  const range = rangeStillApplies(request, file)
    ? parseByteRange(request.headers.range, file.size)
    : ({ kind: 'ignore' } as const);
  if (range.kind === 'unsatisfiable') {
    throw new ApiError('range_not_satisfiable', `the range is outside the file's ${file.size} bytes`, {
      headers: { 'Content-Range': `bytes */${file.size}` },
    });
  }
  if (range.kind === 'range') {
    return reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(file.stream({ start: range.start, end: range.end }));
  }
  return reply.header('Content-Length', String(file.size)).send(file.stream());
}

/**
 * GET and HEAD /generated/audio_<id>.<wav|mp3|opus|flac>: the generated file, streamed from the store, with
 * single byte ranges so players can seek. Other methods on the path get 405 with Allow.
 */
export const generatedRoutes: FastifyPluginAsync<GeneratedOptions> = async (app, { store }) => {
  app.route({
    method: 'GET',
    url: PATH,
    // HEAD is declared below so that it never opens the file.
    exposeHeadRoute: false,
    schema: generatedGetSchema,
    validatorCompiler: validatedByHandler,
    config: { swaggerTransform: documentedAt(GENERATED_FILE_PATH) },
    handler: async (request, reply) => sendStoredFile(request, reply, await find(store, request)),
  });

  app.head(
    PATH,
    {
      schema: generatedHeadSchema,
      validatorCompiler: validatedByHandler,
      config: { swaggerTransform: documentedAt(GENERATED_FILE_PATH), swagger: { exposeHeadRoute: true } },
    },
    async (request, reply) => {
      const found = await find(store, request);
      setFileHeaders(reply, found);
      return reply.header('Content-Length', String(found.file.size)).send();
    },
  );

  // The app's 405 handler matches literal paths only; a parametric path answers for itself.
  app.route({
    method: ['DELETE', 'PATCH', 'POST', 'PUT'],
    url: PATH,
    // Only ever a 405: nothing a client can use, so not in the document.
    schema: { hide: true },
    handler: async (request) => {
      throw new ApiError(
        'method_not_allowed',
        `${request.method} is not allowed on ${request.url.split('?')[0] ?? ''}; use ${ALLOW}`,
        { headers: { Allow: ALLOW } },
      );
    },
  });
};
