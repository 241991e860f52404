import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../../accounts/accounts.ts';
import {
  type BillingOutcome,
  type BillingService,
  type CommitChargeResult,
  type InsufficientTokens,
  type PrecheckResult,
  tokensFor,
} from '../../accounts/billing.ts';
import { wavHeader } from '../../speech/audio/wav.ts';
import type { EnginePool } from '../../speech/pool.ts';
import { type SynthesisEvent, synthesize } from '../../speech/synthesize.ts';
import type { GeneratedFileStore } from '../../store/files/file-store.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import { parseStreamTtsRequest, parseTtsRequest, type TtsRequest } from '../tts-request.ts';

/** What the TTS routes need from accounts: who a key belongs to. */
export type TtsAccounts = Pick<AccountService, 'authenticate'>;
/** What the TTS routes need from billing: an early refusal and the one atomic charge. */
export type TtsBilling = Pick<BillingService, 'precheck' | 'commitCharge'>;

export interface TtsOptions {
  /** The engine pool once it is warm; undefined while it starts. */
  readonly pool: () => EnginePool | undefined;
  readonly accounts: TtsAccounts;
  readonly billing: TtsBilling;
  /** The token rule: 1 token per started `charsPerToken` characters. */
  readonly charsPerToken: number;
  readonly rateLimit: RateLimitStore;
  readonly files: GeneratedFileStore;
  readonly publicBaseUrl: string;
  readonly fileMaxChars: number;
  readonly streamMaxChars: number;
  readonly requestsPerMinute: number;
}

/**
 * The stream endpoint decides free use before synthesis, from this estimate: 0.12 s per
 * character is slower than any of the voices reads (they take 0.06-0.09 s), so the estimate
 * errs towards "long", and a free generation is never given to audio of 120 s or more.
 */
export const ESTIMATED_SECONDS_PER_CHARACTER = 0.12;

function insufficient(refusal: InsufficientTokens): ApiError {
  return new ApiError(
    'insufficient_tokens',
    `this request needs ${refusal.needed} tokens and the balance is ${refusal.balance}; top up at least ${refusal.minimumTopUp} tokens`,
    {
      details: {
        balance: refusal.balance,
        tokens_needed: refusal.needed,
        minimum_top_up: refusal.minimumTopUp,
      },
    },
  );
}

/** A refused precheck or charge as the error the client gets. */
function refusalError(refusal: Exclude<PrecheckResult | CommitChargeResult, { ok: true }>): ApiError {
  switch (refusal.code) {
    case 'insufficient_tokens':
      return insufficient(refusal);
    case 'account_not_found':
      // The key was valid a moment ago: its account has since been removed.
      return new ApiError('invalid_api_key', 'the account of this API key no longer exists', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    case 'duplicate_request':
      throw new Error('a request id was charged twice');
  }
}

const nothingToSay = () =>
  new ApiError('input_required', 'input has nothing to speak: no letters or numbers', { param: 'input' });

function billingHeaders(billing: BillingOutcome): Record<string, string> {
  return {
    'X-Voice-Tokens-Charged': String(billing.tokens_charged),
    'X-Voice-Token-Balance': String(billing.token_balance),
    'X-Voice-Free-Uses-Remaining': String(billing.free_uses_remaining),
    'X-Voice-Kinyarwanda-Free': String(billing.kinyarwanda_free),
  };
}

/** Synthesis stops as soon as the client goes away. */
function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortController {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', onClose);
  return controller;
}

/** POST /api/v1/tts.php and POST /api/v1/tts-stream.php. */
export const ttsRoutes: FastifyPluginAsync<TtsOptions> = async (app, options) => {
  const readyPool = (): EnginePool => {
    const pool = options.pool();
    if (!pool?.ready)
      throw new ApiError('not_ready', 'the speech engines are starting; retry in a few seconds', {
        headers: { 'Retry-After': '5' },
      });
    return pool;
  };

  /** Authentication, then the per-key rate limit (every authenticated request counts, 429s excepted). */
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await options.accounts.authenticate(apiKeyFrom(request.headers));
    if (!auth.ok) {
      throw new ApiError('invalid_api_key', 'the API key is not valid or has been revoked', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    const decision = await options.rateLimit.hit(auth.keyId, options.requestsPerMinute, 60_000);
    const resetSeconds = String(Math.ceil(decision.resetMs / 1000));
    reply.header('RateLimit-Limit', String(decision.limit));
    reply.header('RateLimit-Remaining', String(decision.remaining));
    reply.header('RateLimit-Reset', resetSeconds);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `at most ${decision.limit} requests per minute per key; retry in ${resetSeconds} s`,
        {
          headers: { 'Retry-After': resetSeconds },
        },
      );
    }
    return auth;
  };

  const precheck = async (accountId: string, tts: TtsRequest, seconds: number) => {
    const tokens = tokensFor(tts.input, options.charsPerToken);
    const outcome = await options.billing.precheck(accountId, tokens, seconds, {
      language: tts.voice.language,
    });
    if (!outcome.ok) throw refusalError(outcome);
    return tokens;
  };

  app.post('/api/v1/tts.php', async (request, reply) => {
    const { accountId } = await admit(request, reply);
    const tts = parseTtsRequest(request.body, options.fileMaxChars);
    const pool = readyPool();
    const tokens = await precheck(accountId, tts, 0);
    const controller = abortOnDisconnect(request, reply);
    const parts: Uint8Array[] = [];
    let end: Extract<SynthesisEvent, { type: 'end' }> | undefined;
    for await (const event of synthesize(pool, {
      text: tts.input,
      voice: tts.voice,
      target: { kind: 'native' },
      signal: controller.signal,
    })) {
      if (event.type === 'audio') parts.push(event.bytes);
      else end = event;
    }
    if (!end) throw new Error('synthesis ended without a summary');
    if (end.bytes === 0) throw nothingToSay();
    const audio = Buffer.concat([wavHeader(end.bytes, end.sampleRate), ...parts]);
    // Saved before the charge, deleted if the charge is refused: never a charge without a file.
    const { id } = await options.files.save(audio);
    const charge = await options.billing.commitCharge(accountId, {
      tokens,
      seconds: end.seconds,
      characters: tts.characters,
      language: tts.voice.language,
      requestId: request.id,
      studio: false,
    });
    if (!charge.ok) {
      await options.files.delete(id);
      throw refusalError(charge);
    }
    return reply.send({
      output_url: `${options.publicBaseUrl}/generated/audio_${id}.wav`,
      seconds: Math.round(end.seconds * 100) / 100,
      language: tts.voice.language,
      speaker_id: tts.voice.speakerId,
      billing: charge.billing,
    });
  });

  app.post('/api/v1/tts-stream.php', async (request, reply) => {
    const { accountId } = await admit(request, reply);
    const tts = parseStreamTtsRequest(request.body, options.streamMaxChars);
    const pool = readyPool();
    const estimatedSeconds = tts.characters * ESTIMATED_SECONDS_PER_CHARACTER;
    const tokens = await precheck(accountId, tts, estimatedSeconds);
    const controller = abortOnDisconnect(request, reply);
    const events = synthesize(pool, {
      text: tts.input,
      voice: tts.voice,
      target: { kind: 'stream', format: tts.format },
      signal: controller.signal,
    });
    try {
      const first = await events.next();
      if (first.done || first.value.type !== 'audio') throw nothingToSay();
      const ttfaMs = Math.round(reply.elapsedTime);
      // The charge is committed when the first audio is ready and before any byte leaves:
      // a client gone before that pays nothing, and no audio is ever sent uncharged.
      const charge = await options.billing.commitCharge(accountId, {
        tokens,
        seconds: estimatedSeconds,
        characters: tts.characters,
        language: tts.voice.language,
        requestId: request.id,
        studio: false,
      });
      if (!charge.ok) throw refusalError(charge);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'Content-Type': tts.format.contentType,
        'X-Voice-Sample-Rate': String(tts.format.sampleRate),
        'X-Voice-Encoding': tts.format.encoding,
        'X-Voice-Ttfa-Ms': String(ttfaMs),
        'Cache-Control': 'no-store',
        ...billingHeaders(charge.billing),
      });
      // A slow reader pauses synthesis (the pipeline waits here) instead of filling memory.
      const write = async (bytes: Uint8Array) => {
        if (raw.write(bytes)) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            raw.off('drain', done);
            raw.off('close', done);
            resolve();
          };
          raw.once('drain', done);
          raw.once('close', done);
        });
      };
      try {
        await write(first.value.bytes);
        for await (const event of events) {
          if (event.type === 'audio') await write(event.bytes);
        }
        raw.end();
      } catch (error) {
        // Audio has started: no clean end of the chunked body, so the client knows it is incomplete.
        if (!controller.signal.aborted) request.log.error({ err: error }, 'stream failed after audio began');
        raw.destroy();
      }
    } finally {
      await events.return(undefined);
    }
  });
};
