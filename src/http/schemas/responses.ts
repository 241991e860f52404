import { type ZodType, z } from 'zod';

/**
 * One response of a route, as the route's `schema.response` gives it. Fastify serialises a JSON
 * body through the zod schema of its media type (so a handler cannot send what the document
 * does not say); the OpenAPI document takes the description, headers and content from here.
 */
export interface DocumentedResponse {
  readonly description: string;
  /** Response headers by name, each schema with its own description. */
  readonly headers?: Readonly<Record<string, ZodType>>;
  /** The body by media type; empty for a response without a body. */
  readonly content: Readonly<Record<string, { readonly schema: ZodType }>>;
}

/** A response header: its value's schema and what it means. */
export function header(description: string, schema: ZodType = z.string()): ZodType {
  return schema.meta({ description });
}

/** A JSON response: Fastify validates and serialises the body with `schema`. */
export function jsonResponse(
  description: string,
  schema: ZodType,
  headers?: Readonly<Record<string, ZodType>>,
): DocumentedResponse {
  return { description, ...(headers && { headers }), content: { 'application/json': { schema } } };
}

// A raw body is never serialised: the route sends a stream or writes to the socket itself. The
// schema is there for the document only.
const binary = z.string().meta({ format: 'binary' });

/** A response whose body is raw bytes (audio) in one of `mediaTypes`. */
export function binaryResponse(
  description: string,
  mediaTypes: readonly string[],
  headers?: Readonly<Record<string, ZodType>>,
): DocumentedResponse {
  return {
    description,
    ...(headers && { headers }),
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: binary }])),
  };
}

/** A response without a body (HEAD). */
export function emptyResponse(
  description: string,
  headers?: Readonly<Record<string, ZodType>>,
): DocumentedResponse {
  return { description, ...(headers && { headers }), content: {} };
}

/** The rate-limit headers of the TTS endpoints, on every response after authentication. */
export function rateLimitHeaders(requestsPerMinute: number): Readonly<Record<string, ZodType>> {
  return {
    'RateLimit-Limit': header(
      `Requests allowed per rolling minute per key (${requestsPerMinute}).`,
      z.int().nonnegative(),
    ),
    'RateLimit-Remaining': header('Requests still allowed in the current window.', z.int().nonnegative()),
    'RateLimit-Reset': header('Seconds until a slot frees up.', z.int().nonnegative()),
  };
}
