import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BillingOutcome } from '../accounts/billing.ts';
import type { CallServices } from '../calls/call-services.ts';
import type { CallResult } from '../calls/refusal.ts';
import { type StreamCall, type StreamDelivery, speakStream } from '../calls/stream-call.ts';
import { type RefusalContext, refusalError } from './errors.ts';
import { firstAudioDelivered } from './first-delivery.ts';
import { type LeadingAudio, type StreamBody, sendLaterAudio, splitFirstWrite } from './stream-writer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** A stream whose client takes nothing for this long while audio waits is disconnected. */
    streamStallMs: number;
  }
}

// A billed stream over HTTP: the call room's stream call (`calls/stream-call.ts`) with its audio
// as a chunked response body, the billing outcome in its headers, and the first write's rule of
// delivery (`first-delivery.ts`).

/** How a stream's response looks: its headers, its body's framing, what runs once it is whole. */
export interface StreamReply {
  /** The headers that describe the audio, given when its first part was ready. */
  readonly audioHeaders: (firstAudioAt: number) => Record<string, string>;
  /** How the audio goes into the body; bare bytes when absent. */
  readonly body?: StreamBody;
  /** Called once the whole audio has been written, before the body ends (a failure is logged). */
  readonly finish?: () => Promise<void>;
  /** A reply to a caller without the account's key (a playable URL): no billing headers. */
  readonly keyless?: boolean;
}

/** The call that speaks a stream: `speakStream`, or one built on it (`speakAndStore`). */
export type StreamSpeaker = (
  services: CallServices,
  call: StreamCall,
  delivery: StreamDelivery,
  log: FastifyRequest['log'],
) => Promise<CallResult<object>>;

const bareAudio: StreamBody = { first: (audio) => audio, next: (audio) => audio, last: () => undefined };

/** Speaks `call` as the response to `request`; a refusal before the audio is thrown as the API's error. */
export async function replyWithStream(
  request: FastifyRequest,
  reply: FastifyReply,
  services: CallServices,
  call: Omit<StreamCall, 'requestId' | 'arrivedAt'>,
  shape: StreamReply,
  refusals: RefusalContext,
  speak: StreamSpeaker = speakStream,
): Promise<void> {
  request.speechLanguage = call.speech.voice.language;
  const body = shape.body ?? bareAudio;
  // Watched from the start: a client gone during the precheck is never synthesised for or charged.
  const controller = abortOnDisconnect(request, reply);
  const raw = reply.raw;
  let leading: LeadingAudio | undefined;
  const delivery: StreamDelivery = {
    signal: controller.signal,
    handFirst: async (first, billing) => {
      reply.hijack();
      if (clientGone(raw, controller.signal)) return false;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        ...shape.audioHeaders(first.readyAt),
        'Cache-Control': 'no-store',
        ...(shape.keyless ? {} : billingHeaders(billing)),
      });
      const split = splitFirstWrite(body.first(first.audio.bytes), first.audio.seconds);
      leading = split.leading;
      const { signal } = controller;
      return firstAudioDelivered(
        raw.socket,
        (done) => raw.write(split.first, done),
        (gone) => {
          raw.once('close', gone);
          signal.addEventListener('abort', gone, { once: true });
          return () => {
            raw.off('close', gone);
            signal.removeEventListener('abort', gone);
          };
        },
      );
    },
    sendRest: (events, delivered) => {
      const finish = async () => {
        await shape
          .finish?.()
          .catch((error: unknown) => request.log.warn({ err: error }, 'stream finish failed'));
      };
      return sendLaterAudio(raw, events, body, finish, delivered, request.server.streamStallMs, leading);
    },
    cut: () => raw.destroy(),
  };
  const outcome = await speak(
    services,
    { ...call, requestId: request.id, arrivedAt: request.arrivedAt },
    delivery,
    request.log,
  );
  if (!outcome.ok) throw refusalError(outcome.refusal, refusals);
}

/** The billing outcome as the stream headers carry it. */
export function billingHeaders(billing: BillingOutcome): Record<string, string> {
  return {
    'X-Voice-Tokens-Charged': String(billing.tokens_charged),
    'X-Voice-Token-Balance': String(billing.token_balance),
    'X-Voice-Free-Uses-Remaining': String(billing.free_uses_remaining),
    'X-Voice-Kinyarwanda-Free': String(billing.kinyarwanda_free),
  };
}

/** Synthesis stops as soon as the client goes away. */
export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortController {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', onClose);
  return controller;
}

/**
 * Whether the client is known to be gone before anything is written: the connection closed, or
 * the client's FIN was read (the server then ends its side, so the socket is no longer writable
 * and a write would be held back, never sent). A FIN not yet read cannot be seen here.
 */
function clientGone(raw: FastifyReply['raw'], signal: AbortSignal): boolean {
  const socket = raw.socket;
  return signal.aborted || raw.destroyed || socket === null || socket.destroyed || !socket.writable;
}
