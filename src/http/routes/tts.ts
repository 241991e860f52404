import type { FastifyPluginAsync } from 'fastify';
import type { AccountService } from '../../accounts/accounts.ts';
import type { CallBilling, CallMetrics, CallServices } from '../../calls/call-services.ts';
import { speakFile } from '../../calls/file-call.ts';
import type { ClauseCache } from '../../speech/cache/clause-cache.ts';
import type { EnginePool } from '../../speech/pool/engine-pool.ts';
import type { GeneratedFileStore } from '../../store/files/file-store.ts';
import type { RateLimitStore } from '../../store/rate-limit/rate-limit-store.ts';
import { admitKey, keyCaller } from '../admission.ts';
import { bodyValidator } from '../body-refusal.ts';
import { type RefusalContext, refusalError } from '../errors.ts';
import {
  OPENAI_MAX_CHARACTERS,
  type OpenAiSpeechRequest,
  openAiAudio,
  openAiBody,
  openAiContentType,
} from '../openai-speech.ts';
import { openAiSpeechRouteSchema } from '../schemas/openai-speech.ts';
import type { FileTtsRequest } from '../schemas/speech-body.ts';
import {
  type TtsDocOptions,
  type TtsFileResponse,
  ttsFileRouteSchema,
  ttsStreamRouteSchema,
} from '../schemas/tts.ts';
import { abortOnDisconnect, replyWithStream } from '../stream-reply.ts';
import { type StreamTtsRequest, type TtsLexicons, withLexicon } from '../tts-request.ts';

/** What the TTS routes need from accounts: who a key belongs to. */
export type TtsAccounts = Pick<AccountService, 'authenticate'>;
/** What the TTS routes need from billing: the billed call's (`calls/`). */
export type TtsBilling = CallBilling;

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
  readonly metrics: CallMetrics;
  /** Each account's audio of clauses it has had spoken (`clause-cache.ts`); absent: none kept. */
  readonly clauseCache?: ClauseCache;
}

/** POST /api/v1/tts.php, POST /api/v1/tts-stream.php, and OpenAI's POST /v1/audio/speech. */
export const ttsRoutes: FastifyPluginAsync<TtsOptions> = async (app, options) => {
  const calls: CallServices = options;
  const refusals: RefusalContext = { caller: 'key', supportEmail: options.supportEmail };

  // The document states the limits the app enforces: these options, and Fastify's body limit
  // (1 MiB, Fastify's default, when none is configured).
  const documented = (maxChars: number): TtsDocOptions => ({
    maxChars,
    requestsPerMinute: options.requestsPerMinute,
    charsPerToken: options.charsPerToken,
    bodyLimitBytes: app.initialConfig.bodyLimit ?? 1024 * 1024,
  });
  // The key and the rate limit come first, as a hook; the body schema then validates, with the
  // contract's refusals (`bodyValidator`).
  const fileRoute = {
    schema: ttsFileRouteSchema(documented(options.fileMaxChars)),
    validatorCompiler: bodyValidator,
    preValidation: admitKey(options, 'file'),
  };
  const streamRoute = {
    schema: ttsStreamRouteSchema(documented(options.streamMaxChars)),
    validatorCompiler: bodyValidator,
    preValidation: admitKey(options, 'stream'),
  };
  const openAiRoute = {
    schema: openAiSpeechRouteSchema(documented(OPENAI_MAX_CHARACTERS)),
    validatorCompiler: bodyValidator,
    preValidation: admitKey(options, 'openai'),
  };

  app.post<{ Body: FileTtsRequest }>('/api/v1/tts.php', fileRoute, async (request, reply) => {
    const { accountId } = keyCaller(request);
    const { output, ...parsed } = request.body;
    const tts = await withLexicon(parsed, accountId, options.lexicons);
    request.speechLanguage = tts.voice.language;
    const spoken = await speakFile(
      calls,
      options.files,
      {
        accountId,
        requestId: request.id,
        speech: tts,
        format: output.name === 'wav' ? 'wav' : output,
        signal: abortOnDisconnect(request, reply).signal,
      },
      request.log,
    );
    if (!spoken.ok) throw refusalError(spoken.refusal, refusals);
    const { file } = spoken;
    return reply.send({
      output_url: `${options.publicBaseUrl}/generated/audio_${file.id}.${file.extension}`,
      seconds: Math.round(file.seconds * 100) / 100,
      language: tts.voice.language,
      speaker_id: tts.voice.speakerId,
      billing: file.billing,
    } satisfies TtsFileResponse);
  });

  app.post<{ Body: OpenAiSpeechRequest }>('/v1/audio/speech', openAiRoute, async (request, reply) => {
    const { accountId } = keyCaller(request);
    const parsed = request.body;
    const speech = { ...parsed, tts: await withLexicon(parsed.tts, accountId, options.lexicons) };
    const audio = openAiAudio(speech.format, speech.tts.voice);
    await replyWithStream(
      request,
      reply,
      calls,
      { accountId, speech: speech.tts, target: audio.target, studio: false, path: 'openai' },
      {
        audioHeaders: (firstAudioAt) => ({
          'Content-Type': openAiContentType(speech, audio),
          'X-Voice-Model': speech.model,
          'X-Voice-Sample-Rate': String(audio.sampleRate),
          'X-Voice-Ttfa-Ms': String(Math.round(firstAudioAt - request.arrivedAt)),
        }),
        body: openAiBody(speech, audio.sampleRate),
      },
      refusals,
    );
  });

  app.post<{ Body: StreamTtsRequest }>('/api/v1/tts-stream.php', streamRoute, async (request, reply) => {
    const { accountId } = keyCaller(request);
    const tts = await withLexicon(request.body, accountId, options.lexicons);
    await replyWithStream(
      request,
      reply,
      calls,
      {
        accountId,
        speech: tts,
        target: { kind: 'stream', format: tts.format },
        studio: false,
        path: 'stream',
      },
      {
        audioHeaders: (firstAudioAt) => ({
          'Content-Type': tts.format.contentType,
          'X-Voice-Sample-Rate': String(tts.format.sampleRate),
          'X-Voice-Encoding': tts.format.encoding,
          'X-Voice-Ttfa-Ms': String(Math.round(firstAudioAt - request.arrivedAt)),
        }),
      },
      refusals,
    );
  });
};
