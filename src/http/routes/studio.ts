import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { tokensFor } from '../../accounts/billing.ts';
import type { ActiveSession } from '../../accounts/sessions.ts';
import { synthesize } from '../../speech/synthesize.ts';
import { studioPage } from '../../web/pages/studio.ts';
import { ApiError } from '../errors.ts';
import { sendPage } from '../page-headers.ts';
import {
  abortOnDisconnect,
  billingHeaders,
  countRequest,
  readyPool,
  refusalError,
  streamSpeech,
} from '../speech-reply.ts';
import { parseTtsRequest } from '../tts-request.ts';
import type { WebContext } from '../web.ts';
import { sessionOrSignIn } from '../web-session.ts';
import { ESTIMATED_SECONDS_PER_CHARACTER } from './tts.ts';

const notSignedIn = () =>
  new ApiError('not_signed_in', 'sign in to use the studio; your session may have ended');

function signedIn(request: FastifyRequest): ActiveSession {
  if (!request.webSession) throw notSignedIn();
  return request.webSession;
}

/**
 * GET /studio, and POST /studio/tts: speech for the signed-in studio, billed with `studio: true`
 * (Kinyarwanda free, English and French by the free trial then tokens, the same rules as the
 * API otherwise). Requests count under the account's own rate-limit bucket (`account:<id>`, the
 * API's per-minute number): the studio belongs to the person, not to any one key, and a busy key
 * must not lock its owner out of the studio. The body is the audio as raw 16-bit PCM at the
 * voice's rate, streamed as it is produced, for the page to play at once.
 */
export const studioRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  app.get('/studio', async (request, reply) => {
    const session = sessionOrSignIn(request, reply);
    if (!session) return reply;
    const balance = await context.billing.balance(session.user.accountId);
    if (!balance.ok) throw new Error('the signed-in user has no account');
    return sendPage(
      reply,
      studioPage({
        viewer: { kind: 'user', email: session.user.email, csrfToken: session.csrfToken },
        balance: balance.balance,
        freeUsesRemaining: balance.freeUsesRemaining,
        charsPerToken: context.charsPerToken,
        maxChars: context.studioMaxChars,
        requestsPerMinute: context.requestsPerMinute,
        secondsPerCharacter: ESTIMATED_SECONDS_PER_CHARACTER,
      }),
    );
  });

  app.post('/studio/tts', async (request, reply) => {
    const { accountId } = signedIn(request).user;
    await countRequest(reply, context.rateLimit, {
      key: `account:${accountId}`,
      limit: context.requestsPerMinute,
      per: 'account',
    });
    const tts = parseTtsRequest(request.body, context.studioMaxChars);
    const pool = readyPool(context.pool);
    // Billed like the streaming API: free use is decided before synthesis, on the same estimate.
    const estimatedSeconds = tts.characters * ESTIMATED_SECONDS_PER_CHARACTER;
    const tokens = tokensFor(tts.input, context.charsPerToken);
    const precheck = await context.billing.precheck(accountId, tokens, estimatedSeconds, {
      studio: true,
      language: tts.voice.language,
    });
    if (!precheck.ok) throw refusalError(precheck, notSignedIn);
    const controller = abortOnDisconnect(request, reply);
    const events = synthesize(pool, {
      text: tts.input,
      voice: tts.voice,
      target: { kind: 'native' },
      signal: controller.signal,
    });
    await streamSpeech(request, reply, {
      events,
      controller,
      onFirstAudio: async () => {
        const charge = await context.billing.commitCharge(accountId, {
          tokens,
          seconds: estimatedSeconds,
          characters: tts.characters,
          language: tts.voice.language,
          requestId: request.id,
          studio: true,
        });
        if (!charge.ok) throw refusalError(charge, notSignedIn);
        return {
          'Content-Type': 'audio/l16',
          'X-Voice-Sample-Rate': String(tts.voice.sampleRate),
          'X-Voice-Encoding': 'pcm_s16le',
          'Cache-Control': 'no-store',
          ...billingHeaders(charge.billing),
        };
      },
    });
  });
};
