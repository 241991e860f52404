import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CallServices } from '../../calls/call-services.ts';
import { PLAY_WAV_FORMAT, type PlayedStream, speakAndStore } from '../../calls/play-call.ts';
import type { PlayUrlClaims, PlayUrlSigner } from '../../calls/play-url-signer.ts';
import { PLAY_URL_DEFAULT_SECONDS, type PlayUrlRecord, type PlayUrls } from '../../calls/play-urls.ts';
import type { CallRefusal } from '../../calls/refusal.ts';
import { compressedFormats } from '../../speech/audio/compressed-formats.ts';
import { openEndedWavHeader } from '../../speech/audio/wav.ts';
import { admitKey, keyCaller } from '../admission.ts';
import { bodyValidator } from '../body-refusal.ts';
import { ApiError, type RefusalContext, refusalError } from '../errors.ts';
import { documentedAt, validatedByHandler } from '../openapi.ts';
import { PLAY_URL_PATH, playGetSchema, playHeadSchema } from '../schemas/play.ts';
import { type PlayUrlRequest, parseTtsRequest } from '../schemas/speech-body.ts';
import { type TtsUrlResponse, ttsUrlRouteSchema } from '../schemas/tts.ts';
import { replyWithStream } from '../stream-reply.ts';
import { withLexicon } from '../tts-request.ts';
import { sendStoredFile, setFileHeaders } from './generated.ts';
import type { TtsOptions } from './tts.ts';

export interface PlayOptions extends Omit<TtsOptions, 'streamMaxChars'> {
  readonly urls: PlayUrls;
  readonly signer: PlayUrlSigner;
  /** The longest life a URL may ask: 24 hours, or the stored files' lifetime when shorter. */
  readonly maxLifetimeSeconds: number;
}

const PATH = '/play/:name';
/** How long a GET waits for another GET's first fetch to store the audio before a 503. */
const WAIT_FOR_FIRST_MS = 30_000;

/** One 404 for a malformed, altered, forged or unknown URL: probing learns nothing. */
const notFound = () => new ApiError('not_found', 'no such play URL: the address is wrong or was altered');

/**
 * A refusal met by a GET, whose caller holds no key and must learn nothing of the account: a 402
 * without its balance, an account gone as an unknown URL.
 */
function keylessRefusal(refusal: CallRefusal): ApiError {
  if (refusal.code === 'insufficient_tokens')
    return new ApiError(
      'insufficient_tokens',
      'the account that made this URL has too few tokens to speak it',
    );
  if (refusal.code === 'account_gone' || refusal.code === 'invalid_key') return notFound();
  return refusalError(refusal, { caller: 'key', supportEmail: null });
}

/**
 * POST /api/v1/tts-url.php (a key) makes a signed URL; GET /play/<name> (no key) speaks it once,
 * as it streams, and serves the stored audio after; HEAD /play/<name> never speaks.
 */
export const playRoutes: FastifyPluginAsync<PlayOptions> = async (app, options) => {
  const calls: CallServices = options;
  const refusals: RefusalContext = { caller: 'key', supportEmail: options.supportEmail };
  const { urls, signer } = options;

  app.post<{ Body: PlayUrlRequest }>(
    '/api/v1/tts-url.php',
    {
      schema: ttsUrlRouteSchema({
        maxChars: options.fileMaxChars,
        requestsPerMinute: options.requestsPerMinute,
        charsPerToken: options.charsPerToken,
        bodyLimitBytes: app.initialConfig.bodyLimit ?? 1024 * 1024,
        maxLifetimeSeconds: options.maxLifetimeSeconds,
        defaultLifetimeSeconds: Math.min(PLAY_URL_DEFAULT_SECONDS, options.maxLifetimeSeconds),
      }),
      validatorCompiler: bodyValidator,
      preValidation: admitKey(options, 'play'),
    },
    async (request, reply) => {
      const { accountId } = keyCaller(request);
      const { text, format, lifetimeSeconds, ...tts } = request.body;
      request.speechLanguage = tts.voice.language;
      const speech = await withLexicon(tts, accountId, options.lexicons);
      const created = await urls.create(
        accountId,
        {
          input: text,
          reading: {
            language: tts.voice.language,
            speaker_id: tts.voice.speakerId,
            text_type: tts.textType,
            ...(tts.dictionaries?.length ? { dictionaries: tts.dictionaries } : {}),
          },
          format,
          speech,
          lifetimeSeconds,
        },
        request.log,
      );
      if (!created.ok) throw refusalError(created.refusal, refusals);
      const { record } = created;
      const expiresAt = new Date(record.expiresAt);
      return reply.send({
        play_url: `${options.publicBaseUrl}/play/${signer.name({ id: record.id, expiresAt, format })}`,
        expires_at: record.expiresAt,
      } satisfies TtsUrlResponse);
    },
  );

  /** The URL's claims and row, or the 404 or 410; nothing in it is trusted before its signature. */
  async function found(request: FastifyRequest): Promise<{ claims: PlayUrlClaims; record: PlayUrlRecord }> {
    const { name } = request.params as { name?: string };
    const claims = signer.verify(name ?? '');
    if (claims === undefined) throw notFound();
    if (claims.expiresAt.getTime() <= Date.now())
      throw new ApiError(
        'play_url_expired',
        `this play URL expired at ${claims.expiresAt.toISOString()}; make a new one`,
      );
    const record = await urls.find(claims);
    if (record === undefined) throw notFound();
    return { claims, record };
  }

  async function stored(record: PlayUrlRecord) {
    const file = record.fileId === null ? undefined : await options.files.open(record.fileId, record.format);
    // Its file gone before the URL (a store with a shorter life, an operator's clean-up).
    if (file === undefined) throw notFound();
    return { file, extension: record.format, servedUntil: new Date(record.expiresAt) };
  }

  /** The first fetch: spoken as it streams, stored, charged by the stream's rule; the claim settled. */
  async function speakFirst(
    request: FastifyRequest,
    reply: FastifyReply,
    record: PlayUrlRecord,
  ): Promise<void> {
    let played: PlayedStream | undefined;
    let heard = false;
    let refusal: CallRefusal | undefined;
    try {
      const tts = parseTtsRequest({ input: record.input, ...record.reading }, options.fileMaxChars);
      const speech = await withLexicon(tts, record.accountId, options.lexicons);
      const wav = record.format === 'wav';
      const header = wav ? openEndedWavHeader(PLAY_WAV_FORMAT.sampleRate) : new Uint8Array(0);
      await replyWithStream(
        request,
        reply,
        calls,
        {
          accountId: record.accountId,
          speech,
          target: wav
            ? { kind: 'stream', format: PLAY_WAV_FORMAT }
            : { kind: 'compressed', format: compressedFormats.mp3 },
          studio: false,
          path: 'play',
        },
        {
          audioHeaders: () => ({
            'Content-Type': wav ? 'audio/wav' : compressedFormats.mp3.contentType,
            'X-Content-Type-Options': 'nosniff',
          }),
          body: {
            first: (audio) => Buffer.concat([header, audio]),
            next: (audio) => audio,
            last: () => undefined,
          },
          keyless: true,
        },
        refusals,
        async (services, call, delivery, log) => {
          // Watched here too: a call that threw after its audio was heard (and charged) must never
          // leave the URL to be spoken, and charged, again.
          const watched = {
            ...delivery,
            handFirst: async (...args: Parameters<typeof delivery.handFirst>) => {
              heard ||= await delivery.handFirst(...args);
              return heard;
            },
          };
          const outcome = await speakAndStore(services, options.files, call, record.format, watched, log);
          if (outcome.ok) played = outcome;
          else refusal = outcome.refusal;
          return outcome;
        },
      );
    } catch (error) {
      if (refusal !== undefined) throw keylessRefusal(refusal);
      throw error;
    } finally {
      const settlement = !heard
        ? ({ state: 'new' } as const)
        : played?.fileId === undefined
          ? ({ state: 'failed' } as const)
          : ({ state: 'ready', fileId: played.fileId } as const);
      await urls
        .settle(record.id, settlement)
        .catch((error: unknown) =>
          request.log.error({ err: error, play: record.id }, 'play URL not settled'),
        );
    }
  }

  app.route({
    method: 'GET',
    url: PATH,
    // HEAD is declared below: it must never speak.
    exposeHeadRoute: false,
    schema: playGetSchema,
    validatorCompiler: validatedByHandler,
    config: { swaggerTransform: documentedAt(PLAY_URL_PATH) },
    handler: async (request, reply) => {
      let { record } = await found(request);
      for (;;) {
        switch (record.state) {
          case 'ready':
            return sendStoredFile(request, reply, await stored(record));
          case 'failed':
            throw new ApiError('not_found', 'this play URL’s audio could not be made; make a new one');
          case 'speaking': {
            const now = await urls.waitWhileSpeaking(record, WAIT_FOR_FIRST_MS);
            if (now === undefined) throw notFound();
            if (now.state === 'speaking')
              throw new ApiError(
                'not_ready',
                'this URL is being spoken for its first fetch; retry in a moment',
                {
                  headers: { 'Retry-After': '5' },
                },
              );
            record = now;
            break;
          }
          case 'new': {
            if (await urls.claim(record.id)) return speakFirst(request, reply, record);
            const now = await urls.find({
              id: record.id,
              format: record.format,
              expiresAt: new Date(record.expiresAt),
            });
            if (now === undefined) throw notFound();
            record = now;
          }
        }
      }
    },
  });

  app.head(
    PATH,
    {
      schema: playHeadSchema,
      validatorCompiler: validatedByHandler,
      config: { swaggerTransform: documentedAt(PLAY_URL_PATH), swagger: { exposeHeadRoute: true } },
    },
    async (request, reply) => {
      const { record } = await found(request);
      if (record.state === 'failed') throw notFound();
      if (record.state === 'ready') {
        const file = await stored(record);
        setFileHeaders(reply, file);
        return reply.header('Content-Length', String(file.file.size)).send();
      }
      return reply
        .header('Content-Type', record.format === 'wav' ? 'audio/wav' : compressedFormats.mp3.contentType)
        .header('Cache-Control', 'no-store')
        .send();
    },
  );
};
