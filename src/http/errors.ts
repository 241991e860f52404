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
  body_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  expectation_failed: 417,
  rate_limited: 429,
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
