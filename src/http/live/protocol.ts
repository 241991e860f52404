import { z } from 'zod';
import type { BillingOutcome } from '../../accounts/billing.ts';
import { ApiError, type ErrorCode } from '../errors.ts';

// The live endpoint's messages (api-v1.md, "Live streaming over WebSocket"): what a client may
// send, as one discriminated union that every message passes before anything reads it, and what
// the server sends.

/** At most this many contexts are open at once on one connection. */
export const MAX_CONTEXTS_PER_CONNECTION = 5;
/** A context id (every protocol's): short, printable, so it can be echoed and logged safely. */
export const contextId = z
  .string()
  .regex(/^[\w.:-]{1,64}$/, 'context_id must be 1-64 letters, digits, or _ . : -');

const text = z.strictObject({
  type: z.literal('text'),
  context_id: contextId,
  text: z.string(),
  // Read only when the context opens; validated then, with the stream endpoint's errors.
  language: z.unknown().optional(),
  speaker_id: z.unknown().optional(),
  format: z.unknown().optional(),
  text_type: z.unknown().optional(),
  dictionaries: z.unknown().optional(),
});
const onContext = <T extends string>(type: T) =>
  z.strictObject({ type: z.literal(type), context_id: contextId });

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auth'), api_key: z.string().max(200) }),
  text,
  onContext('flush'),
  onContext('end'),
  onContext('clear'),
  z.strictObject({ type: z.literal('close') }),
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type TextMessage = z.infer<typeof text>;

/** A word of audio already sent, in ms from the context's first sample. */
export interface WordTiming {
  readonly text: string;
  readonly start_ms: number;
  readonly end_ms: number;
}

export type ServerMessage =
  | {
      readonly type: 'audio';
      readonly context_id: string;
      readonly seq: number;
      readonly audio: string;
      readonly ttfa_ms?: number;
    }
  | { readonly type: 'words'; readonly context_id: string; readonly words: readonly WordTiming[] }
  | {
      readonly type: 'done';
      readonly context_id: string;
      readonly seconds: number;
      readonly characters: number;
      readonly billing: BillingOutcome | null;
    }
  | { readonly type: 'cleared'; readonly context_id: string }
  /** Every part before a `flush` has been sent (the `sequence`-th flush of the context). */
  | { readonly type: 'flushed'; readonly context_id: string; readonly sequence: number }
  | {
      readonly type: 'error';
      readonly context_id?: string;
      readonly code: ErrorCode | 'context_limit' | 'idle_timeout' | 'unknown_context';
      readonly message: string;
      readonly param?: string | null;
      readonly [detail: string]: unknown;
    };

/**
 * How a live WebSocket's frames read and write: Ijwi's own messages (`ijwiProtocol`), or another
 * provider's, translated to and from them, so that one connection and one context serve both.
 */
export interface LiveProtocol {
  /** A client's frame as Ijwi's messages (none for a keepalive), or the error to answer it with. */
  decode(text: string):
    | { readonly ok: true; readonly messages: readonly ClientMessage[] }
    | {
        readonly ok: false;
        readonly error: ApiError;
      };
  /** A server message as this protocol's frame (text, or binary bytes); undefined for none. */
  encode(message: ServerMessage): string | Uint8Array | undefined;
  /** A frame sent once the connection is open, before any other. */
  readonly greeting?: string;
  /** Contexts open at once on one connection; `MAX_CONTEXTS_PER_CONNECTION` when absent. */
  readonly maxContexts?: number;
  /** A context, or a connection with none, idle this long is ended; the service's when absent. */
  readonly idleMs?: number;
}

/**
 * A client frame as `schema` reads it, or the error that answers it: `invalid_json`, or what is
 * wrong with it and where (never the frame itself).
 */
export function readFrame<T>(
  text: string,
  schema: z.ZodType<T>,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: new ApiError('invalid_json', 'a message is not valid JSON') };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const param = issue?.path.join('.') || undefined;
  return {
    ok: false,
    error: new ApiError(
      'invalid_request',
      `a message is not valid: ${issue?.message ?? 'unknown shape'}`,
      param ? { param } : {},
    ),
  };
}

/** Ijwi's live protocol: a JSON message each way, every client message checked by one schema. */
export const ijwiProtocol: LiveProtocol = {
  decode(text) {
    const frame = readFrame(text, clientMessageSchema);
    return frame.ok ? { ok: true, messages: [frame.value] } : frame;
  },
  // Flushes are not reported on Ijwi's own socket: its contract has no such message.
  encode: (message) => (message.type === 'flushed' ? undefined : JSON.stringify(message)),
};
