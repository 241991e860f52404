import type { CallRefusal } from '../calls/refusal.ts';
import { VoiceBusy } from '../speech/synthesize.ts';
import { StoreUnavailableError } from '../store/store-unavailable.ts';

/**
 * The one table of error codes and the one error body. Routes throw `ApiError`; the app's
 * error handler turns it, and every framework error, into this body. A 5xx never carries
 * internal details.
 */
export const errorStatus = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_input: 400,
  invalid_ssml: 400,
  input_required: 400,
  input_too_long: 400,
  unsupported_language: 400,
  invalid_speaker: 400,
  unsupported_format: 400,
  invalid_api_key: 401,
  insufficient_tokens: 402,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  voice_cloning_retired: 410,
  play_url_expired: 410,
  body_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  expectation_failed: 417,
  rate_limited: 429,
  too_many_play_urls: 429,
  headers_too_large: 431,
  internal_error: 500,
  not_ready: 503,
  voice_busy: 503,
} as const;

/**
 * Codes of the website's own JSON endpoint (the studio), apart from the API's table so that
 * the API's documented codes stay the API's: no session (signed out, expired), and a request
 * that did not come from the studio page (another site, or no anti-forgery token).
 */
export const webErrorStatus = {
  not_signed_in: 401,
  forbidden: 403,
} as const;

/** A code of the API. */
export type ErrorCode = keyof typeof errorStatus;
/** A code of the website's studio endpoint only. */
export type WebErrorCode = keyof typeof webErrorStatus;

const statusOf: Readonly<Record<ErrorCode | WebErrorCode, number>> = { ...errorStatus, ...webErrorStatus };

export interface ApiErrorOptions {
  /** The request field at fault, when there is one. */
  readonly param?: string;
  /** Headers the response must carry (Allow, Retry-After, WWW-Authenticate...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra fields for the error object, e.g. the balance on a 402. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode | WebErrorCode,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message);
    this.status = statusOf[code];
  }
}

export interface ErrorBody {
  readonly error: {
    readonly code: ErrorCode | WebErrorCode;
    readonly message: string;
    readonly param: string | null;
    readonly request_id: string;
    readonly [detail: string]: unknown;
  };
}

/** The body every error response carries. */
export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      ...error.options.details,
      code: error.code,
      message: error.message,
      param: error.options.param ?? null,
      request_id: requestId,
    },
  };
}

/** How a transport's caller signed in, which decides the error for an account gone since. */
export interface RefusalContext {
  /** An API key, or the website's session (the studio). */
  readonly caller: 'key' | 'session';
  /** The operator's contact for buying tokens, named in a 402; null when none is configured. */
  readonly supportEmail: string | null;
}

/** The one mapping from a call's refusal to the API's error, for every transport. */
export function refusalError(refusal: CallRefusal, context: RefusalContext): ApiError {
  switch (refusal.code) {
    case 'invalid_key':
      return new ApiError('invalid_api_key', 'the API key is not valid or has been revoked', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    case 'account_gone':
      return context.caller === 'session'
        ? new ApiError('not_signed_in', 'sign in to use the studio; your session may have ended')
        : new ApiError('invalid_api_key', 'the account of this API key no longer exists', {
            headers: { 'WWW-Authenticate': 'Bearer' },
          });
    case 'rate_limited': {
      const retry = refusal.retryAfterSeconds;
      return new ApiError(
        'rate_limited',
        `at most ${refusal.limit} requests per minute per ${refusal.per}; retry in ${retry} s`,
        { headers: { 'Retry-After': String(retry) }, details: { retry_after: retry } },
      );
    }
    case 'insufficient_tokens':
      return insufficientTokens(refusal, context.supportEmail);
    case 'voice_busy':
      return new ApiError(
        'voice_busy',
        'this voice is speaking as many calls as it can take; retry shortly, or choose another voice',
        {
          param: 'speaker_id',
          headers: { 'Retry-After': String(refusal.retryAfterSeconds) },
          details: { retry_after: refusal.retryAfterSeconds },
        },
      );
    case 'not_ready':
      return new ApiError(
        'not_ready',
        refusal.store === undefined
          ? 'the speech engines are starting; retry in a few seconds'
          : `the ${refusal.store} is unreachable; retry in a few seconds`,
        { headers: { 'Retry-After': '5' } },
      );
    case 'nothing_to_say':
      return new ApiError('input_required', 'input has nothing to speak: no letters or numbers', {
        param: 'input',
      });
    case 'too_many_play_urls':
      return new ApiError(
        'too_many_play_urls',
        `this account has ${refusal.limit} play URLs that have not expired, the most it may; wait for some to expire`,
      );
  }
}

/**
 * The 402: the balance, the tokens the request needs and the smallest top-up, as fields of the
 * error, and where to buy tokens (the operator's contact when one is configured).
 */
function insufficientTokens(
  refusal: Extract<CallRefusal, { code: 'insufficient_tokens' }>,
  supportEmail: string | null,
): ApiError {
  const where = supportEmail
    ? `: ask for them in the dashboard, or write to ${supportEmail}`
    : ' in the dashboard';
  return new ApiError(
    'insufficient_tokens',
    `this request needs ${refusal.needed} tokens and the balance is ${refusal.balance}; top up at least ${refusal.minimumTopUp} tokens${where}`,
    {
      details: {
        balance: refusal.balance,
        tokens_needed: refusal.needed,
        minimum_top_up: refusal.minimumTopUp,
        ...(supportEmail ? { support_email: supportEmail } : {}),
      },
    },
  );
}

/**
 * An error thrown below the routes as the API's error: an `ApiError` as it is, a refusal the core
 * throws where a value could not be returned (a busy voice, a store outage) by `refusalError`;
 * undefined for anything else (a bug: the caller answers 500).
 */
export function knownError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  // Neither refusal depends on who the caller is.
  const anyCaller: RefusalContext = { caller: 'key', supportEmail: null };
  if (error instanceof VoiceBusy)
    return refusalError({ code: 'voice_busy', retryAfterSeconds: error.retryAfterSeconds }, anyCaller);
  if (error instanceof StoreUnavailableError)
    return refusalError({ code: 'not_ready', store: error.store }, anyCaller);
  return undefined;
}
