import { randomBytes } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { DEFAULT_CHARS_PER_TOKEN } from '../accounts/billing.ts';
import { type Metrics, type MetricsExposition, noMetrics } from '../metrics/metrics.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import type { GeneratedFileStore } from '../store/files/file-store.ts';
import { StoreUnavailableError } from '../store/store-unavailable.ts';
import { errorPage } from '../web/pages/error.ts';
import { clientErrorHandler, expectationFailedHandler, requestLineError } from './client-errors.ts';
import { CARTESIA_PREFIX, cartesiaError } from './compat/cartesia/request.ts';
import { cartesiaRoutes } from './compat/cartesia/routes.ts';
import { deepgramRoutes } from './compat/deepgram/routes.ts';
import { DEEPGRAM_PREFIX, deepgramError } from './compat/deepgram/speak.ts';
import { elevenLabsDictionaryRoutes } from './compat/elevenlabs/dictionaries.ts';
import { ELEVENLABS_PREFIX, elevenLabsError } from './compat/elevenlabs/errors.ts';
import { elevenLabsRoutes } from './compat/elevenlabs/routes.ts';
import { elevenLabsSocketRoutes, elevenLabsSpeechRoutes } from './compat/elevenlabs/speech-routes.ts';
import { jambonzRoutes } from './compat/jambonz.ts';
import { vapiRoutes } from './compat/vapi.ts';
import { ApiError, errorBody, knownError } from './errors.ts';
import { discardRefusedBody } from './lingering-close.ts';
import { loggedRequest } from './log-redaction.ts';
import { OPENAI_PREFIX, openAiErrorType } from './openai-speech.ts';
import { registerOpenApi } from './openapi.ts';
import { sendPage } from './page-headers.ts';
import { pageContext } from './page-language.ts';
import { prefersHtml } from './prefers-html.ts';
import { type DictionaryRouteOptions, dictionaryRoutes } from './routes/dictionaries.ts';
import { generatedRoutes } from './routes/generated.ts';
import { type HealthCheck, healthRoutes } from './routes/health.ts';
import {
  defaultLiveTimings,
  LiveSockets,
  type LiveTimings,
  liveRoutes,
  registerWebSockets,
} from './routes/live.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { openAiListingRoutes } from './routes/openai-listings.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { type PlayOptions, playRoutes } from './routes/play.ts';
import { retiredRoutes } from './routes/retired.ts';
import { type TtsOptions, ttsRoutes } from './routes/tts.ts';
import { voicesRoutes } from './routes/voices.ts';
import type { Limits } from './schemas/voices.ts';
import { webPlugin } from './web.ts';
import type { WebServices } from './web-context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * `performance.now()` when the request arrived, for timings the API reports (X-Voice-Ttfa-Ms).
     * Fastify's own `reply.elapsedTime` is not used for them: it reads 0 when logging is off.
     */
    arrivedAt: number;
    /** The language the request speaks in, once the route knows it; for the request metrics. */
    speechLanguage: LanguageCode | undefined;
  }
}

export interface AppDeps {
  readonly version: string;
  /** What must be ready for TTS requests: the engine pool first, then stores as they are added. */
  readonly healthChecks: Readonly<Record<string, HealthCheck>>;
  readonly limits: Limits;
  /** Generated WAV files behind `output_url`. */
  readonly files: GeneratedFileStore;
  /** The TTS endpoints' services; the app serves only the public pages without them. */
  readonly tts?: Pick<
    TtsOptions,
    | 'pool'
    | 'accounts'
    | 'billing'
    | 'charsPerToken'
    | 'rateLimit'
    | 'publicBaseUrl'
    | 'supportEmail'
    | 'clauseCache'
  > & {
    /** Each account's pronunciation dictionaries: spoken by every request, and the dictionaries API. */
    readonly lexicons: DictionaryRouteOptions['dictionaries'] & TtsOptions['lexicons'];
  };
  /** Playable URLs (`POST /api/v1/tts-url.php`, `GET /play/...`); with `tts`, they are served. */
  readonly play?: Pick<PlayOptions, 'urls' | 'signer' | 'maxLifetimeSeconds'>;
  /** Timings of the live endpoint other than its defaults (tests shorten them). */
  readonly liveTimings?: Partial<LiveTimings>;
  /** The website's services (sign-up, sessions, keys, usage); with `tts`, they add the web pages. */
  readonly web?: WebServices;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For gives the client address,
   * e.g. for the per-address sign-in throttle. Empty or absent: the socket's address.
   */
  readonly trustedProxies?: readonly string[];
  /** Where the service records what it does (`src/metrics/`); nothing when absent. */
  readonly metrics?: Metrics;
  /** GET /metrics on this app's port, for a scraper that sends `token` (METRICS_TOKEN); absent: no such route. */
  readonly metricsRoute?: { readonly exposition: MetricsExposition; readonly token: string };
  /** pino options, or false for no logging (tests). */
  readonly logger: false | { readonly level: string };
}

/** Body limit: 10,000 characters of input at up to 4 UTF-8 bytes each, plus the JSON around them. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A fresh request id (`req_` and 16 random base64url characters), for X-Request-Id and error bodies. */
export function requestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

/** Turns any error into an ApiError: known framework errors by their code, anything else is a 500. */
function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof StoreUnavailableError) {
    // An outage, not a bug: the client retries; the operator sees it in health and in this line.
    request.log.warn({ store: error.store, reason: error.reason }, 'store unavailable');
  }
  const known = knownError(error);
  if (known) return known;
  if (!(error instanceof Error)) return internalError(error, request);
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    const param = issue?.instancePath.replace(/^\//, '').replace(/\//g, '.') || undefined;
    return new ApiError(
      'invalid_request',
      `${param ?? 'request'}: ${issue?.message ?? 'invalid'}`,
      param ? { param } : {},
    );
  }
  const code = (error as Partial<FastifyError>).code;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'body_too_large',
        `the body is larger than the ${request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES} bytes allowed`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'unsupported_media_type',
        'send the body as JSON with Content-Type: application/json',
      );
    case 'FST_ERR_BAD_URL':
      return new ApiError('invalid_request', 'the path has invalid percent-encoding; encode % as %25');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // A path segment longer than any name the app gives out: nothing can be there.
      return new ApiError('not_found', `nothing at ${request.url.split('?')[0] ?? ''}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', 'the body is not valid JSON');
  }
  if (error instanceof SyntaxError && 'statusCode' in error && error.statusCode === 400) {
    return new ApiError('invalid_json', 'the body is not valid JSON');
  }
  return internalError(error, request);
}

function internalError(error: unknown, request: FastifyRequest): ApiError {
  request.log.error({ err: error }, 'unhandled error');
  return new ApiError('internal_error', 'something went wrong on our side; the request id helps us find it');
}

function sendError(error: ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
  // A browser asking for a page gets the site's error page; every API client keeps the JSON body.
  if (prefersHtml(request) && !reply.sent)
    return sendPage(
      reply,
      errorPage(pageContext(request, { kind: 'unknown' }), {
        status: error.status,
        code: error.code,
        requestId: request.id,
      }),
      error.status,
    );
  if (request.url.startsWith(DEEPGRAM_PREFIX))
    return reply.status(error.status).send(deepgramError(error, request.id));
  if (request.url.startsWith(CARTESIA_PREFIX))
    return reply.status(error.status).send(cartesiaError(error, request.id));
  if (request.url.startsWith(ELEVENLABS_PREFIX)) {
    const elevenLabs = elevenLabsError(error, request.id);
    return reply.status(elevenLabs.status).send(elevenLabs.body);
  }
  const body = errorBody(error, request.id);
  if (!request.url.startsWith(OPENAI_PREFIX)) return reply.status(error.status).send(body);
  return reply.status(error.status).send({ error: { ...body.error, type: openAiErrorType(error.status) } });
}

/**
 * Builds the HTTP app: plugins, routes, the error and not-found handlers. Never listens, so
 * tests drive it with `inject()` and `main.ts` decides where it listens.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestTimeoutMs = 60_000;
  const app = Fastify({
    logger: deps.logger && { ...deps.logger, serializers: { req: loggedRequest } },
    trustProxy: deps.trustedProxies?.length ? [...deps.trustedProxies] : false,
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Guard the edge: a slow or stalled client cannot hold a connection forever.
    connectionTimeout: 60_000,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: 5_000,
    // Fastify's own 503 while closing has a body of its own and no request id: the onRequest
    // hook answers instead.
    return503OnClosing: false,
    // What Node's parser rejects never reaches the error handler; it gets the same body here.
    clientErrorHandler: clientErrorHandler({ requestId, maxHeaderBytes: maxHeaderSize, requestTimeoutMs }),
    // Node would answer a request without Host a bare 400; the onRequest hook answers it instead.
    http: { requireHostHeader: false },
    // Errors Fastify meets while routing (bad percent-encoding, an over-long path segment) skip
    // the onRequest hooks, so the request id header is set here.
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-Id', request.id);
      sendError(requestLineError(request) ?? toApiError(error, request), request, reply);
    },
  });
  // Node would answer an Expect other than 100-continue with a bare 417.
  app.server.on('checkExpectation', expectationFailedHandler(requestId));
  // Fastify parses text/plain by default, which would turn a plain-text body into a 400 about a
  // missing field; the API takes JSON only, so such a body is a 415 like any other non-JSON type.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Which methods each path answers, for 405 and its Allow header.
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  app.decorateRequest('arrivedAt', 0);
  app.decorateRequest('speechLanguage', undefined);
  app.decorateRequest('keyCaller', undefined);
  // The live socket's stall rule holds for HTTP streams too (api-v1.md, "A listener who stops reading").
  app.decorate('streamStallMs', deps.liveTimings?.stallMs ?? defaultLiveTimings.stallMs);
  const metrics = deps.metrics ?? noMetrics;
  // Set once the app starts to close (a deploy, a restart): requests still reaching it on open
  // connections are sent elsewhere, as the framework would, but with the API's own 503; the
  // health check and status page answer, not ready (`routes/health.ts`).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    request.arrivedAt = performance.now();
    // Accepting it goes ahead of the clauses the engines' listeners need only later.
    deps.tts?.pool()?.requestArrived(request.arrivedAt);
    reply.header('X-Request-Id', request.id);
    // On close, not onResponse: a stream whose client hangs up mid-audio still counts, with the
    // status it was sent. The route is the router's pattern, never the path the client sent.
    reply.raw.once('close', () =>
      metrics.httpRequest(
        request.routeOptions.url,
        reply.raw.headersSent ? reply.raw.statusCode : undefined,
        request.speechLanguage,
      ),
    );
    const refused = requestLineError(request);
    if (refused) throw refused;
    const config = request.routeOptions.config as { answersWhileClosing?: boolean };
    if (closing && config.answersWhileClosing !== true) {
      throw new ApiError('not_ready', 'this instance is shutting down; retry in a moment', {
        headers: { 'Retry-After': '1', Connection: 'close' },
      });
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.code === 'body_too_large') discardRefusedBody(request, reply);
    return sendError(apiError, request, reply);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = methodsByPath.get(path);
    if (allowed) {
      const allow = [...allowed].sort().join(', ');
      return sendError(
        new ApiError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allow}`, {
          headers: { Allow: allow },
        }),
        request,
        reply,
      );
    }
    return sendError(new ApiError('not_found', `nothing at ${path}`), request, reply);
  });

  // The document builder sees only the routes registered after it.
  await registerOpenApi(app, { version: deps.version, publicBaseUrl: deps.tts?.publicBaseUrl });
  await app.register(healthRoutes, {
    version: deps.version,
    checks: deps.healthChecks,
    closing: () => closing,
    metrics,
  });
  if (deps.metricsRoute) await app.register(metricsRoutes, deps.metricsRoute);
  await app.register(voicesRoutes, {
    limits: deps.limits,
    charsPerToken: deps.tts?.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN,
  });
  await app.register(openAiListingRoutes);
  await app.register(generatedRoutes, { store: deps.files });
  await app.register(retiredRoutes);
  await app.register(openApiRoutes);
  if (deps.tts) {
    await registerWebSockets(app);
    await app.register(ttsRoutes, {
      ...deps.tts,
      metrics,
      files: deps.files,
      fileMaxChars: deps.limits.fileMaxChars,
      streamMaxChars: deps.limits.streamMaxChars,
      requestsPerMinute: deps.limits.requestsPerMinute,
    });
    await app.register(dictionaryRoutes, {
      ...deps.tts,
      metrics,
      requestsPerMinute: deps.limits.requestsPerMinute,
      dictionaries: deps.tts.lexicons,
    });
    if (deps.play) {
      await app.register(playRoutes, {
        ...deps.tts,
        ...deps.play,
        metrics,
        files: deps.files,
        fileMaxChars: deps.limits.fileMaxChars,
        requestsPerMinute: deps.limits.requestsPerMinute,
      });
    }
    const liveSockets = new LiveSockets({
      ...deps.tts,
      metrics,
      limits: {
        ...defaultLiveTimings,
        ...deps.liveTimings,
        maxChars: deps.limits.streamMaxChars,
        requestsPerMinute: deps.limits.requestsPerMinute,
        charsPerToken: deps.tts.charsPerToken,
      },
    });
    // The compatible protocols (src/http/compat/): each an adapter over the call room and, for
    // their WebSockets, over this instance's live connections.
    const compatible = {
      ...deps.tts,
      metrics,
      maxChars: deps.limits.streamMaxChars,
      requestsPerMinute: deps.limits.requestsPerMinute,
      sockets: liveSockets,
    };
    await app.register(elevenLabsSocketRoutes, compatible);
    await app.register(deepgramRoutes, compatible);
    await app.register(cartesiaRoutes, compatible);
    await app.register(jambonzRoutes, compatible);
    await app.register(liveRoutes, {
      sockets: liveSockets,
      accounts: deps.tts.accounts,
      publicBaseUrl: deps.tts.publicBaseUrl,
    });
    await app.register(elevenLabsRoutes, {
      accounts: deps.tts.accounts,
      maxChars: deps.limits.streamMaxChars,
    });
    await app.register(elevenLabsSpeechRoutes, compatible);
    await app.register(elevenLabsDictionaryRoutes, { ...compatible, dictionaries: deps.tts.lexicons });
    await app.register(vapiRoutes, compatible);
    if (deps.web) {
      await app.register(webPlugin, {
        ...deps.web,
        pool: deps.tts.pool,
        rateLimit: deps.tts.rateLimit,
        charsPerToken: deps.tts.charsPerToken,
        publicBaseUrl: deps.tts.publicBaseUrl,
        requestsPerMinute: deps.limits.requestsPerMinute,
        // The studio's audio is a WAV for the person to keep: it takes what the file endpoint takes.
        studioMaxChars: deps.limits.fileMaxChars,
        liveSockets,
        supportEmail: deps.tts.supportEmail,
        metrics,
        clauseCache: deps.tts.clauseCache,
      });
    }
  }
  return app;
}
