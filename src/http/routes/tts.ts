import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../../accounts/accounts.ts';
import { type BillingService, tokensFor } from '../../accounts/billing.ts';
import type { LexiconService } from '../../accounts/lexicons.ts';
import type { SpeechPath, TransportMetrics } from '../../metrics/metrics.ts';
import { wavHeader } from '../../speech/audio/wav.ts';
import type { ClauseCache } from '../../speech/clause-cache.ts';
import type { EnginePool } from '../../speech/pool/engine-pool.ts';
import { type SynthesisEvent, synthesize } from '../../speech/synthesize.ts';
import type { GeneratedFileStore } from '../../store/files/file-store.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import { apiKeyFrom } from '../api-key.ts';
import { ApiError } from '../errors.ts';
import {
  OPENAI_MAX_CHARACTERS,
  openAiAudio,
  openAiBody,
  openAiContentType,
  parseOpenAiSpeechRequest,
} from '../openai-speech.ts';
import { validatedByHandler } from '../openapi.ts';
import { openAiSpeechRouteSchema } from '../schemas/openai-speech.ts';
import {
  type TtsDocOptions,
  type TtsFileResponse,
  ttsFileRouteSchema,
  ttsStreamRouteSchema,
} from '../schemas/tts.ts';
import {
  abortOnDisconnect,
  countRequest,
  readyPool,
  refusalError,
  streamBilledSpeech,
} from '../speech-reply.ts';
import {
  nothingToSay,
  parseOutputFormat,
  parseStreamTtsRequest,
  parseTtsRequest,
  type TtsRequest,
  withLexicon,
} from '../tts-request.ts';

/** What the TTS routes need from accounts: who a key belongs to. */
export type TtsAccounts = Pick<AccountService, 'authenticate'>;
/**
 * What the TTS routes need from billing: an early refusal, the one atomic charge, its refund for a
 * stream whose client left before its first audio, and the balance a live context ends with.
 */
export type TtsBilling = Pick<
  BillingService,
  'precheck' | 'commitCharge' | 'refundCharge' | 'balance' | 'recordDuration'
>;

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
  /** Each account's pronunciation lexicon, applied to every request it makes. */
  readonly lexicons: TtsLexicons;
  /** The operator's contact for buying tokens, named in a 402; null when none is configured. */
  readonly supportEmail: string | null;
  /** Where each call, its first audio and its refusals are recorded. */
  readonly metrics: TransportMetrics;
  /** Each account's audio of clauses it has had spoken (`clause-cache.ts`); absent: none kept. */
  readonly clauseCache?: ClauseCache;
}

/** What speaking needs from lexicons: an account's lexicon for a language. */
export type TtsLexicons = Pick<LexiconService, 'lexiconFor'>;

// The key was valid a moment ago: its account has since been removed.
const accountGone = () =>
  new ApiError('invalid_api_key', 'the account of this API key no longer exists', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

/** POST /api/v1/tts.php, POST /api/v1/tts-stream.php, and OpenAI's POST /v1/audio/speech. */
export const ttsRoutes: FastifyPluginAsync<TtsOptions> = async (app, options) => {
  /** Authentication, then the per-key rate limit (every authenticated request counts, 429s excepted). */
  const admit = async (request: FastifyRequest, reply: FastifyReply, path: SpeechPath) => {
    const auth = await options.accounts.authenticate(apiKeyFrom(request.headers));
    if (!auth.ok) {
      throw new ApiError('invalid_api_key', 'the API key is not valid or has been revoked', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    await countRequest(
      reply,
      options.rateLimit,
      { key: auth.keyId, limit: options.requestsPerMinute, per: 'key' },
      { metrics: options.metrics, path },
    );
    return auth;
  };

  const precheck = async (accountId: string, tts: TtsRequest, seconds: number) => {
    const tokens = tokensFor(tts.document.spokenCharacters, options.charsPerToken);
    const outcome = await options.billing.precheck(accountId, tokens, seconds, {
      language: tts.voice.language,
    });
    if (!outcome.ok) throw refusalError(outcome, accountGone, options.supportEmail);
    return tokens;
  };

  // The document states the limits the app enforces: these options, and Fastify's body limit
  // (1 MiB, Fastify's default, when none is configured).
  const documented = (maxChars: number): TtsDocOptions => ({
    maxChars,
    requestsPerMinute: options.requestsPerMinute,
    charsPerToken: options.charsPerToken,
    bodyLimitBytes: app.initialConfig.bodyLimit ?? 1024 * 1024,
  });
  // The bodies are validated by parseTtsRequest/parseStreamTtsRequest, after authentication and
  // the rate limit, hence `validatedByHandler` (see schemas/tts.ts).
  const fileRoute = {
    schema: ttsFileRouteSchema(documented(options.fileMaxChars)),
    validatorCompiler: validatedByHandler,
  };
  const streamRoute = {
    schema: ttsStreamRouteSchema(documented(options.streamMaxChars)),
    validatorCompiler: validatedByHandler,
  };

  app.post('/api/v1/tts.php', fileRoute, async (request, reply) => {
    const { accountId } = await admit(request, reply, 'file');
    const parsed = parseTtsRequest(request.body, options.fileMaxChars);
    const output = parseOutputFormat(request.body);
    const tts = await withLexicon(parsed, accountId, options.lexicons);
    request.speechLanguage = tts.voice.language;
    const pool = readyPool(options.pool);
    const tokens = await precheck(accountId, tts, 0);
    const controller = abortOnDisconnect(request, reply);
    const extension = output.name === 'wav' ? 'wav' : output.extension;
    // Written as it is spoken, never held whole (a 10,000-character WAV is tens of MB); the WAV
    // header, which needs the audio's length, fills the bytes reserved at the start (its size
    // does not depend on the length).
    const wav = output.name === 'wav';
    const draft = await options.files.create(extension, wav ? wavHeader(0, tts.voice.sampleRate).length : 0);
    const endCall = options.metrics.callStarted('file');
    let saved: { id: string; end: Extract<SynthesisEvent, { type: 'end' }> };
    try {
      let end: Extract<SynthesisEvent, { type: 'end' }> | undefined;
      for await (const event of synthesize(pool, {
        document: tts.document,
        voice: tts.voice,
        target: wav ? { kind: 'native' } : { kind: 'compressed', format: output },
        file: true,
        maxSeconds: tts.maxSeconds,
        signal: controller.signal,
        clauses: options.clauseCache?.forAccount(accountId),
      })) {
        if (event.type === 'audio') await draft.append(event.bytes);
        else if (event.type === 'end') end = event;
      }
      if (!end) throw new Error('synthesis ended without a summary');
      if (end.bytes === 0) throw nothingToSay();
      // Saved before the charge, deleted unless the charge commits (refused, or the database
      // failed): never a charge without a file, and never a reachable file without a charge.
      const { id } = await draft.commit(wav ? wavHeader(end.bytes, end.sampleRate) : undefined);
      saved = { id, end };
    } finally {
      endCall();
      // Nothing once committed; a temp file a failed removal leaves is swept with the rest.
      await draft.discard().catch(() => {});
    }
    const { id, end } = saved;
    const charge = await options.billing
      .commitCharge(accountId, {
        tokens,
        seconds: end.seconds,
        characters: tts.document.spokenCharacters,
        language: tts.voice.language,
        requestId: request.id,
        studio: false,
      })
      .catch(async (error: unknown) => {
        await options.files.delete(id, extension).catch(() => {});
        throw error;
      });
    if (!charge.ok) {
      await options.files.delete(id, extension);
      throw refusalError(charge, accountGone, options.supportEmail);
    }
    options.metrics.audioDelivered('file', tts.voice.engineVoice.engine, end.seconds);
    return reply.send({
      output_url: `${options.publicBaseUrl}/generated/audio_${id}.${extension}`,
      seconds: Math.round(end.seconds * 100) / 100,
      language: tts.voice.language,
      speaker_id: tts.voice.speakerId,
      billing: charge.billing,
    } satisfies TtsFileResponse);
  });

  const openAiRoute = {
    schema: openAiSpeechRouteSchema(documented(OPENAI_MAX_CHARACTERS)),
    validatorCompiler: validatedByHandler,
  };
  app.post('/v1/audio/speech', openAiRoute, async (request, reply) => {
    const { accountId } = await admit(request, reply, 'openai');
    const parsed = parseOpenAiSpeechRequest(request.body);
    const speech = { ...parsed, tts: await withLexicon(parsed.tts, accountId, options.lexicons) };
    const audio = openAiAudio(speech.format, speech.tts.voice);
    await streamBilledSpeech(request, reply, {
      pool: readyPool(options.pool),
      billing: options.billing,
      charsPerToken: options.charsPerToken,
      accountId,
      clauses: options.clauseCache?.forAccount(accountId),
      tts: speech.tts,
      target: audio.target,
      studio: false,
      metrics: options.metrics,
      path: 'openai',
      accountGone,
      supportEmail: options.supportEmail,
      audioHeaders: (firstAudioAt) => ({
        'Content-Type': openAiContentType(speech, audio),
        'X-Voice-Model': speech.model,
        'X-Voice-Sample-Rate': String(audio.sampleRate),
        'X-Voice-Ttfa-Ms': String(Math.round(firstAudioAt - request.arrivedAt)),
      }),
      body: openAiBody(speech, audio.sampleRate),
    });
  });

  app.post('/api/v1/tts-stream.php', streamRoute, async (request, reply) => {
    const { accountId } = await admit(request, reply, 'stream');
    const parsed = parseStreamTtsRequest(request.body, options.streamMaxChars);
    const tts = await withLexicon(parsed, accountId, options.lexicons);
    await streamBilledSpeech(request, reply, {
      pool: readyPool(options.pool),
      billing: options.billing,
      charsPerToken: options.charsPerToken,
      accountId,
      clauses: options.clauseCache?.forAccount(accountId),
      tts,
      target: { kind: 'stream', format: tts.format },
      studio: false,
      metrics: options.metrics,
      path: 'stream',
      accountGone,
      supportEmail: options.supportEmail,
      audioHeaders: (firstAudioAt) => ({
        'Content-Type': tts.format.contentType,
        'X-Voice-Sample-Rate': String(tts.format.sampleRate),
        'X-Voice-Encoding': tts.format.encoding,
        'X-Voice-Ttfa-Ms': String(Math.round(firstAudioAt - request.arrivedAt)),
      }),
    });
  });
};
