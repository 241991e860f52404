import { type ZodType, z } from 'zod';
import { MINIMUM_TOP_UP } from '../../accounts/billing.ts';
import { type ErrorCode, errorStatus } from '../errors.ts';
import { type DocumentedResponse, header, jsonResponse } from './responses.ts';

/** The error codes of one status, from the one table in errors.ts. */
export function codesOf(status: number): ErrorCode[] {
  return (Object.keys(errorStatus) as ErrorCode[]).filter((code) => errorStatus[code] === status);
}

/**
 * The error body for `status`, as `errorBody()` builds it: `details` first, then the four
 * fields every error has. Loose, so a detail added to an error later is never stripped by the
 * serialiser; `code` lists exactly the codes of the status, so it always matches.
 */
function errorBodySchema(status: number, details: Readonly<Record<string, ZodType>> = {}): ZodType {
  const codes = codesOf(status);
  return z.object({
    error: z.looseObject({
      ...details,
      code: z.enum(codes).meta({ description: 'What went wrong, for programs.' }),
      message: z.string().meta({ description: 'What went wrong and what is allowed, for people.' }),
      param: z.string().nullable().meta({ description: 'The request field at fault, or null.' }),
      request_id: z.string().meta({ description: 'The X-Request-Id of the response.' }),
    }),
  });
}

/** An error response: the description, then its codes; `headers` where the status has some. */
/** What a 503 of the speech endpoints means. */
export const BUSY_OR_STARTING =
  'The speech engines are still starting (`not_ready`), or the voice is a neural voice pack that ' +
  'takes no more calls now (`voice_busy`; the other voices still do). Nothing is charged.';

export function errorResponse(
  status: number,
  description: string,
  headers?: Readonly<Record<string, ZodType>>,
): DocumentedResponse {
  const codes = codesOf(status)
    .map((code) => `\`${code}\``)
    .join(', ');
  return jsonResponse(`${description} Codes: ${codes}.`, errorBodySchema(status), headers);
}

/** 402 `insufficient_tokens`, whose error object also says what the request needs. */
export function insufficientTokensResponse(): DocumentedResponse {
  return jsonResponse(
    'Not enough tokens, and no free generation applies. Code: `insufficient_tokens`; the error ' +
      'object also carries the balance, the tokens needed and the minimum top-up.',
    errorBodySchema(402, {
      balance: z.int().meta({ description: 'The account balance, in tokens.' }),
      tokens_needed: z.int().meta({ description: 'The tokens this request needs.' }),
      minimum_top_up: z
        .int()
        .meta({ description: `The smallest top-up accepted, in tokens (${MINIMUM_TOP_UP}).` }),
    }),
  );
}

/** 401, with the challenge the contract fixes. */
export function invalidApiKeyResponse(): DocumentedResponse {
  return errorResponse(401, 'The API key is missing, malformed, unknown or revoked.', {
    'WWW-Authenticate': header('Always `Bearer`.', z.literal('Bearer')),
  });
}
