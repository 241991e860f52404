import type { FastifySchemaCompiler } from 'fastify';
import { type core, type ZodType, z } from 'zod';
import { ApiError, type ErrorCode } from './errors.ts';

// A body validated by its zod schema and refused with the contract's error: one error, the first
// the contract's order of checks meets, with the contract's code, message and `param`. The schema
// says how: each check carries its message (an `error` option, or the issue a refinement adds);
// a refinement names its own code (`refuse`); any other issue takes the code of its field, from
// the table the schema is registered with (`withRefusals`), whose order is the order of checks.

/** The code of a refusal of each field, in the order the contract checks the fields. */
export type FieldCodes = Readonly<Record<string, ErrorCode>>;

const refusalCodes = z.registry<FieldCodes>();

/** `schema`, registered with its fields' refusal codes; the body schema of a route or `parseBody`. */
export function withRefusals<T extends ZodType>(schema: T, fields: FieldCodes): T {
  refusalCodes.add(schema, fields);
  return schema;
}

interface RefusalParams {
  readonly code: ErrorCode;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Adds to a refinement's `ctx` the contract's refusal of the value at `path` (relative to the
 * refined value): its code and message, and any extra fields of the error.
 */
export function refuse(
  ctx: core.$RefinementCtx,
  path: readonly PropertyKey[],
  code: ErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): void {
  const params: RefusalParams = details ? { code, details } : { code };
  ctx.addIssue({ code: 'custom', path: [...path], message, params, input: ctx.value });
}

/** The field an issue's path names, as the contract writes it: `dictionaries[0].id`. */
export function paramOf(path: readonly PropertyKey[]): string | undefined {
  let param = '';
  for (const key of path) param += typeof key === 'number' ? `[${key}]` : `${param ? '.' : ''}${String(key)}`;
  return param || undefined;
}

function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    // Keys within an item by name: a dictionary's `id` before its `version`, as the contract reads it.
    return String(x) < String(y) ? -1 : 1;
  }
  // The whole before its parts: a list too long before its items.
  return a.length - b.length;
}

function refusalParams(issue: core.$ZodIssue): RefusalParams | undefined {
  return issue.code === 'custom' ? (issue.params as RefusalParams | undefined) : undefined;
}

/**
 * The one refusal of `issues`: the first the contract checks (the body itself, then its fields in
 * `fields`' order, then the parts of a field in order), a refinement's own before zod's on the
 * same value (the contract's rule on a field knows what zod's type check cannot, e.g. the language).
 */
export function refusalOf(issues: readonly core.$ZodIssue[], fields: FieldCodes): ApiError {
  const order = Object.keys(fields);
  const rank = (issue: core.$ZodIssue) => {
    if (issue.path.length === 0) return -1;
    const index = order.indexOf(String(issue.path[0]));
    return index === -1 ? order.length : index;
  };
  const first = [...issues].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      comparePaths(a.path, b.path) ||
      Number(refusalParams(a) === undefined) - Number(refusalParams(b) === undefined),
  )[0];
  if (!first) return new ApiError('invalid_request', 'the body is not valid');
  const own = refusalParams(first);
  const param = paramOf(first.path);
  const code = own?.code ?? (first.path.length ? fields[String(first.path[0])] : undefined);
  return new ApiError(code ?? 'invalid_request', first.message, {
    ...(param === undefined ? {} : { param }),
    ...(own?.details ? { details: own.details } : {}),
  });
}

function codesOf(schema: ZodType): FieldCodes {
  const fields = refusalCodes.get(schema);
  if (!fields) throw new Error('a body schema must be registered withRefusals');
  return fields;
}

/** `body` as `schema` reads it, or the contract's refusal (an `ApiError`) of its first fault. */
export function parseBody<T extends ZodType>(schema: T, body: unknown): z.output<T> {
  const fields = codesOf(schema);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw refusalOf(parsed.error.issues, fields);
  return parsed.data;
}

/**
 * The validator of a route whose body schema is registered `withRefusals`: Fastify runs it after
 * the `onRequest` and `preValidation` hooks (the key and the rate limit come first), and the
 * refusal it returns reaches the error handler as it is.
 */
export const bodyValidator: FastifySchemaCompiler<unknown> = ({ schema }) => {
  if (!(schema instanceof z.ZodType)) throw new Error('a body schema is a zod schema');
  const fields = codesOf(schema);
  return (data) => {
    const parsed = schema.safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: refusalOf(parsed.error.issues, fields) };
  };
};
