import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { AccountService } from '../../accounts/accounts.ts';
import type { CallBilling, CallMetrics } from '../../calls/call-services.ts';
import { openLiveCall } from '../../calls/live-call.ts';
import type { ClauseCache } from '../../speech/cache/clause-cache.ts';
import type { EnginePool } from '../../speech/pool/engine-pool.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import { ApiError, type RefusalContext, refusalError } from '../errors.ts';
import { firstAudioDelivered } from '../first-delivery.ts';
import { parseStreamSettings } from '../schemas/speech-body.ts';
import type { TtsLexicons } from '../tts-request.ts';
import { lexiconOf } from '../tts-request.ts';
import { ClientGone, type ContextOutput, LiveContext } from './live-context.ts';
import {
  type ClientMessage,
  ijwiProtocol,
  type LiveProtocol,
  MAX_CONTEXTS_PER_CONNECTION,
  type ServerMessage,
  type TextMessage,
} from './protocol.ts';

/** Who a connection speaks for, once authenticated. */
export interface LiveCaller {
  readonly accountId: string;
  /** The bucket of the per-key rate limit and of the per-key connection count. */
  readonly keyId: string;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
}

/** The limits and timings of the live endpoint (api-v1.md fixes the 5 contexts and the 20 s). */
export interface LiveLimits {
  /** Code points one context may receive in all: the stream endpoint's limit. */
  readonly maxChars: number;
  readonly requestsPerMinute: number;
  readonly charsPerToken: number;
  /** A connection with no open context, or a context with no message, for this long is closed. */
  readonly idleMs: number;
  /** Time to send `auth` when the upgrade carried no key. */
  readonly authMs: number;
  /** Audio is sent at most this far ahead of real time. */
  readonly leadMs: number;
  /** Bytes the server lets wait in a socket for a client that does not read. */
  readonly highWaterBytes: number;
  /** A client that reads nothing for this long while audio waits is disconnected. */
  readonly stallMs: number;
}

export interface LiveServices {
  readonly pool: () => EnginePool | undefined;
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly billing: CallBilling;
  readonly rateLimit: RateLimitStore;
  readonly limits: LiveLimits;
  readonly lexicons: TtsLexicons;
  /** Each account's audio of clauses it has had spoken; absent: none kept. */
  readonly clauseCache?: ClauseCache | undefined;
  /** The operator's contact, named in a 402. */
  readonly supportEmail: string | null;
  /** Where contexts, their first audio and rate-limit refusals are recorded. */
  readonly metrics: CallMetrics;
}

/** Close codes (RFC 6455): normal, policy violation (auth), unsupported data, going away. */
const CLOSE_NORMAL = 1000;
const CLOSE_POLICY = 1008;
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_TRY_AGAIN = 1013;

/**
 * One live WebSocket connection: authentication by message when the upgrade carried no key, the
 * client's messages validated and handled in order, its contexts (at most 5), idle timeouts, and
 * the one writer its contexts share, which holds back audio while the client does not read.
 */
export class LiveConnection {
  readonly #socket: WebSocket;
  readonly #services: LiveServices;
  readonly #log: FastifyBaseLogger;
  readonly #contexts = new Map<string, { context: LiveContext; idle: NodeJS.Timeout | undefined }>();
  #caller: LiveCaller | undefined;
  /** Messages are handled one after another, in arrival order, though some wait on the store. */
  #chain: Promise<void> = Promise.resolve();
  #idle: NodeJS.Timeout | undefined;
  #closing = false;
  readonly #output: ContextOutput;
  readonly #onAuthenticated: (caller: LiveCaller) => boolean;
  readonly #protocol: LiveProtocol;

  constructor(
    socket: WebSocket,
    services: LiveServices,
    options: {
      readonly caller?: LiveCaller;
      readonly log: FastifyBaseLogger;
      /** The TCP connection under `socket`, on which the first audio's delivery is judged. */
      readonly connection: Socket | null;
      /** Admits the caller (false: too many connections for its key); called once. */
      readonly onAuthenticated: (caller: LiveCaller) => boolean;
      /** How frames read and write; Ijwi's own messages when absent. */
      readonly protocol?: LiveProtocol;
    },
  ) {
    this.#protocol = options.protocol ?? ijwiProtocol;
    this.#socket = socket;
    this.#services = services;
    this.#log = options.log;
    this.#onAuthenticated = options.onAuthenticated;
    this.#output = {
      send: (message) => this.#send(message),
      sendFirst: (message) => this.#sendFirst(message, options.connection),
      ready: () => this.#ready(),
    };
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? undefined : data.toString();
      this.#chain = this.#chain
        .then(() => this.#receive(text))
        .catch((error: unknown) => this.#internal(error));
    });
    socket.on('close', () => this.#closed());
    if (this.#protocol.greeting !== undefined) socket.send(this.#protocol.greeting);
    if (options.caller) this.#admit(options.caller);
    else
      this.#idle = setTimeout(
        () => this.#refuse('send {"type": "auth", "api_key": "..."} first, within 5 s'),
        services.limits.authMs,
      );
  }

  /** Sends `message` while the socket is open; whether it went (not once the client began to close). */
  #send(message: ServerMessage): boolean {
    if (this.#socket.readyState !== this.#socket.OPEN) return false;
    const frame = this.#protocol.encode(message);
    if (frame !== undefined) this.#socket.send(frame);
    return true;
  }

  /** Sends a context's first audio, and resolves whether it reached a client still there. */
  #sendFirst(message: ServerMessage, connection: Socket | null): Promise<boolean> {
    const frame = this.#socket.readyState === this.#socket.OPEN ? this.#protocol.encode(message) : undefined;
    if (frame === undefined) return Promise.resolve(false);
    const socket = this.#socket;
    return firstAudioDelivered(
      connection,
      (done) => socket.send(frame, (error) => done(error)),
      (gone) => {
        socket.once('close', gone);
        return () => socket.off('close', gone);
      },
    );
  }

  /** Resolves once the socket's buffer is under the high-water mark; rejects when it closes or stalls. */
  async #ready(): Promise<void> {
    const { highWaterBytes, stallMs } = this.#services.limits;
    const since = performance.now();
    while (this.#socket.bufferedAmount > highWaterBytes) {
      if (this.#socket.readyState !== this.#socket.OPEN) throw new ClientGone('connection closed');
      if (performance.now() - since > stallMs) {
        this.#log.info({ stallMs }, 'live client stopped reading: disconnected');
        this.#socket.terminate();
        throw new ClientGone('the client stopped reading');
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (this.#socket.readyState !== this.#socket.OPEN) throw new ClientGone('connection closed');
  }

  #admit(caller: LiveCaller): void {
    if (!this.#onAuthenticated(caller)) {
      this.#error(undefined, new ApiError('rate_limited', 'too many live connections for this API key'));
      this.#socket.close(CLOSE_TRY_AGAIN, 'too many connections for this key');
      return;
    }
    this.#caller = caller;
    this.#watchIdle();
  }

  #refuse(message: string): void {
    this.#error(undefined, new ApiError('invalid_api_key', message));
    this.#socket.close(CLOSE_POLICY, 'authentication failed');
  }

  async #receive(text: string | undefined): Promise<void> {
    if (this.#closing) return;
    if (text === undefined) {
      this.#error(undefined, new ApiError('unsupported_media_type', 'messages are JSON text frames'));
      this.#socket.close(CLOSE_UNSUPPORTED, 'binary frames are not accepted');
      return;
    }
    const decoded = this.#protocol.decode(text);
    if (!decoded.ok) {
      this.#error(undefined, decoded.error);
      return;
    }
    const at = performance.now();
    for (const message of decoded.messages) {
      if (this.#closing) return;
      if (this.#caller === undefined) {
        if (message.type !== 'auth') return this.#refuse('the first message must be {"type": "auth", ...}');
        clearTimeout(this.#idle);
        const auth = await this.#services.accounts.authenticate(message.api_key);
        if (!auth.ok) return this.#refuse('the API key is not valid or has been revoked');
        this.#admit({ accountId: auth.accountId, keyId: auth.keyId, studio: false });
        continue;
      }
      await this.#handle(message, this.#caller, at);
    }
  }

  async #handle(message: ClientMessage, caller: LiveCaller, at: number): Promise<void> {
    if (message.type === 'auth')
      return this.#error(undefined, new ApiError('invalid_request', 'already authenticated'));
    if (message.type === 'close') return this.#closeAll();
    const open = this.#contexts.get(message.context_id);
    if (message.type === 'text') {
      const entry = open ?? (await this.#open(message, caller));
      if (entry === undefined) return;
      this.#touch(message.context_id);
      return this.#guard(entry.context, () => entry.context.text(message.text, at));
    }
    if (open === undefined) {
      return this.#error(
        message.context_id,
        new ApiError('invalid_request', `no open context "${message.context_id}"; send text to open one`, {
          param: 'context_id',
        }),
      );
    }
    this.#touch(message.context_id);
    const { context } = open;
    if (message.type === 'flush') this.#guard(context, () => context.flush(at));
    else if (message.type === 'end') {
      this.#stopIdle(message.context_id);
      this.#guard(context, () => context.end(at));
    } else context.clear();
  }

  /** Opens a context: settings, capacity, readiness, the rate limit, then an early 402. */
  async #open(message: TextMessage, caller: LiveCaller) {
    const id = message.context_id;
    try {
      const maxContexts = this.#protocol.maxContexts ?? MAX_CONTEXTS_PER_CONNECTION;
      if (this.#contexts.size >= maxContexts) {
        throw new ApiError(
          'invalid_request',
          `at most ${maxContexts} contexts may be open on one connection`,
          {
            param: 'context_id',
          },
        );
      }
      const settings = parseStreamSettings(message);
      const { limits } = this.#services;
      const opened = await openLiveCall(
        { ...this.#services, charsPerToken: limits.charsPerToken },
        this.#services.rateLimit,
        { key: caller.keyId, limit: limits.requestsPerMinute, per: 'key' },
        caller,
        settings.voice,
      );
      if (!opened.ok) throw refusalError(opened.refusal, this.#refusals());
      const { pool, call, bill } = opened;
      const lexicon = await lexiconOf(
        this.#services.lexicons,
        caller.accountId,
        settings.voice.language,
        settings.dictionaries,
      ).catch((error: unknown) => {
        call.close();
        throw error;
      });
      if (this.#closing) {
        call.close();
        return undefined;
      }
      const context = new LiveContext({
        id,
        pool,
        call,
        settings,
        lexicon,
        clauses: this.#services.clauseCache?.forAccount(caller.accountId),
        bill,
        output: this.#output,
        maxChars: limits.maxChars,
        leadMs: limits.leadMs,
        refusals: this.#refusals(),
        metrics: this.#services.metrics,
        log: (error) => this.#log.error({ err: error, context: id }, 'live context failed'),
        onFinished: () => this.#finished(id),
      });
      const entry = { context, idle: undefined };
      this.#contexts.set(id, entry);
      this.#stopConnectionIdle();
      return entry;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.#error(id, error);
      return undefined;
    }
  }

  /** How a refusal reads to this connection's caller. */
  #refusals(): RefusalContext {
    return { caller: this.#caller?.studio ? 'session' : 'key', supportEmail: this.#services.supportEmail };
  }

  /** Runs a client's instruction on a context; a refusal ends that context only. */
  #guard(context: LiveContext, action: () => void): void {
    try {
      action();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      context.fail(error);
    }
  }

  #finished(id: string): void {
    this.#stopIdle(id);
    this.#contexts.delete(id);
    if (this.#contexts.size > 0) return;
    if (this.#closing) this.#socket.close(CLOSE_NORMAL, 'closed by the client');
    else this.#watchIdle();
  }

  /** Each message for a context restarts its idle clock. */
  #touch(id: string): void {
    const entry = this.#contexts.get(id);
    if (entry === undefined) return;
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      entry.context.fail(
        new ApiError('request_timeout', `no message for this context in ${this.#idleMs() / 1000} s`),
      );
    }, this.#idleMs());
  }

  #idleMs(): number {
    return this.#protocol.idleMs ?? this.#services.limits.idleMs;
  }

  #stopIdle(id: string): void {
    const entry = this.#contexts.get(id);
    if (entry) {
      clearTimeout(entry.idle);
      entry.idle = undefined;
    }
  }

  #watchIdle(): void {
    this.#stopConnectionIdle();
    this.#idle = setTimeout(() => this.#socket.close(CLOSE_NORMAL, 'idle'), this.#idleMs());
  }

  #stopConnectionIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
  }

  /** `close`: every context speaks its rest, then the socket closes. */
  #closeAll(): void {
    this.#closing = true;
    if (this.#contexts.size === 0) {
      this.#socket.close(CLOSE_NORMAL, 'closed by the client');
      return;
    }
    for (const [id, { context }] of this.#contexts) {
      this.#stopIdle(id);
      this.#guard(context, () => context.end(performance.now()));
    }
  }

  #closed(): void {
    this.#closing = true;
    this.#stopConnectionIdle();
    for (const { context, idle } of [...this.#contexts.values()]) {
      clearTimeout(idle);
      context.abandon();
    }
    this.#contexts.clear();
  }

  #error(contextId: string | undefined, error: ApiError): void {
    this.#send({
      type: 'error',
      ...(contextId === undefined ? {} : { context_id: contextId }),
      code: error.code as Extract<ServerMessage, { type: 'error' }>['code'],
      message: error.message,
      param: error.options.param ?? null,
      ...error.options.details,
    });
  }

  #internal(error: unknown): void {
    this.#log.error({ err: error }, 'live connection failed');
    this.#error(undefined, new ApiError('internal_error', 'the server failed; the connection is closing'));
    this.#socket.close(1011, 'internal error');
  }
}
