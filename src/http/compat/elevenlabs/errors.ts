import { type ApiError, errorBody } from '../../errors.ts';

/** Where the ElevenLabs-compatible surface lives: a client's base URL is `{base_url}/elevenlabs`. */
export const ELEVENLABS_PREFIX = '/elevenlabs/';

/** ElevenLabs' error body: `detail.status` and `detail.message`, which its SDKs show. */
export interface ElevenLabsErrorBody {
  readonly detail: {
    readonly status: string;
    readonly message: string;
    readonly [field: string]: unknown;
  };
}

/**
 * An Ijwi error as ElevenLabs answers it: Ijwi's code as `detail.status` (and `detail.code`), its
 * message, param, request id and details alongside. ElevenLabs refuses bad input with 422, which
 * its SDK turns into `UnprocessableEntityError`, so Ijwi's 400s are sent as 422; every other
 * status (401, 402, 404, 429 with its Retry-After...) is Ijwi's own.
 */
export function elevenLabsError(
  error: ApiError,
  requestId: string,
): { readonly status: number; readonly body: ElevenLabsErrorBody } {
  const { error: fields } = errorBody(error, requestId);
  return {
    status: error.status === 400 ? 422 : error.status,
    body: { detail: { ...fields, status: fields.code } },
  };
}
