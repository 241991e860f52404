import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ActiveSession } from '../../accounts/sessions.ts';
import { AudioDigest, audioDigest } from '../../accounts/studio-audio.ts';
import { compressedFormats, isCompressedFormatName } from '../../speech/audio/compressed-formats.ts';
import { encodeAudio } from '../../speech/audio/encode-recorded.ts';
import { int16ToLittleEndianBytes } from '../../speech/audio/pcm.ts';
import { parseWav, type WavContents } from '../../speech/audio/wav.ts';
import { MAX_SECONDS_PER_CHARACTER } from '../../speech/audio-bound.ts';
import { allVoices, languages } from '../../speech/voices/voices.ts';
import { MAX_DOWNLOAD_SECONDS, studioPage } from '../../web/pages/studio.ts';
import { countRequest, enginesReady } from '../admission.ts';
import { ApiError } from '../errors.ts';
import { sendPage } from '../page-headers.ts';
import { parseTtsRequest } from '../schemas/speech-body.ts';
import { replyWithStream } from '../stream-reply.ts';
import { withLexicon } from '../tts-request.ts';
import type { WebContext } from '../web-context.ts';
import { fromOwnPage, sameToken, sessionOrSignIn, webPageContext } from '../web-session.ts';
import { tooManySockets } from './live.ts';

/** `?text=&language=` (a lexicon entry's "Hear it" link) as the studio's starting text, when valid. */
function initialText(query: unknown, maxChars: number): { initial?: { text: string; language: string } } {
  const { text, language } = (query ?? {}) as { text?: unknown; language?: unknown };
  if (typeof text !== 'string' || typeof language !== 'string') return {};
  if (!languages.some((l) => l.code === language) || [...text].length > maxChars) return {};
  return { initial: { text, language } };
}

/** The body of a download as the studio's own WAV, or the 400 that says it is not. */
function studioWav(body: unknown, rates: ReadonlySet<number>): WavContents {
  const refused = () =>
    new ApiError('invalid_request', "send the studio's WAV: mono 16-bit PCM at a voice's rate", {
      param: 'body',
    });
  if (!Buffer.isBuffer(body)) throw refused();
  let wav: WavContents;
  try {
    wav = parseWav(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  } catch {
    throw refused();
  }
  if (
    wav.channels !== 1 ||
    wav.encoding !== 'pcm_s16le' ||
    !rates.has(wav.sampleRate) ||
    wav.samples.length === 0 ||
    wav.samples.length > MAX_DOWNLOAD_SECONDS * wav.sampleRate
  )
    throw refused();
  return wav;
}

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
      studioPage(webPageContext(request), {
        viewer: { kind: 'user', email: session.user.email, csrfToken: session.csrfToken },
        balance: balance.balance,
        freeUsesRemaining: balance.freeUsesRemaining,
        charsPerToken: context.charsPerToken,
        maxChars: context.studioMaxChars,
        requestsPerMinute: context.requestsPerMinute,
        secondsPerCharacter: MAX_SECONDS_PER_CHARACTER,
        ...initialText(request.query, context.studioMaxChars),
      }),
    );
  });

  // The studio's live mode: the live WebSocket, signed in by the session cookie, from the studio
  // page only (its origin, and the session's anti-forgery token in the URL, since a browser sets
  // no headers on a WebSocket), billed and limited as the studio's other requests are.
  app.route({
    method: 'GET',
    url: '/studio/live',
    schema: { hide: true },
    preValidation: async (request) => {
      if (!request.ws) return;
      const session = signedIn(request);
      const { csrf } = request.query as { csrf?: unknown };
      const token = typeof csrf === 'string' ? csrf : '';
      if (!fromOwnPage(request, context.cookies) || !sameToken(token, session.csrfToken))
        throw new ApiError('forbidden', 'this connection did not come from the studio page; reload it');
      if (context.liveSockets.full(`account:${session.user.accountId}`)) throw tooManySockets();
    },
    handler: async () => {
      throw new ApiError('invalid_request', 'the studio live mode speaks WebSocket');
    },
    wsHandler: (socket, request) => {
      const { accountId } = signedIn(request).user;
      context.liveSockets.serve(socket, request, {
        accountId,
        keyId: `account:${accountId}`,
        studio: true,
      });
    },
  });

  // The studio's requests count under the account, whoever's page sends them; a download counts as one.
  const countForAccount = (reply: FastifyReply, accountId: string) =>
    countRequest(
      reply,
      context.rateLimit,
      { key: `account:${accountId}`, limit: context.requestsPerMinute, per: 'account' },
      context.metrics,
      'studio',
    );

  // Downloads in another format: the page sends back the WAV it made from the stream it heard, and
  // gets it encoded, so a download is never synthesised (nor billed) twice. The WAV must be what
  // the studio makes (mono 16-bit PCM at a voice's rate), at most `MAX_DOWNLOAD_SECONDS` long, and
  // its audio one the studio generated whole for this account in the last day (its fingerprint is
  // kept when the stream ends): no other upload is encoded.
  const voiceRates = () => new Set(allVoices().map((voice) => voice.sampleRate));
  // Voice packs may be assigned while the service runs: the limit holds for any rate up to 48 kHz.
  const downloadLimit = MAX_DOWNLOAD_SECONDS * 48_000 * 2 + 1024;
  await app.register(async (downloads) => {
    downloads.addContentTypeParser(
      'audio/wav',
      { parseAs: 'buffer', bodyLimit: downloadLimit },
      (_r, body, done) => done(null, body),
    );
    downloads.post('/studio/download', async (request, reply) => {
      const { accountId } = signedIn(request).user;
      await countForAccount(reply, accountId);
      const { format } = request.query as { format?: unknown };
      if (!isCompressedFormatName(format)) {
        throw new ApiError('unsupported_format', 'format must be one of mp3, opus, flac', {
          param: 'format',
        });
      }
      const wav = studioWav(request.body, voiceRates());
      const digest = audioDigest(int16ToLittleEndianBytes(wav.samples), wav.sampleRate);
      if (!(await context.studioAudio.madeFor(accountId, digest))) {
        throw new ApiError(
          'invalid_request',
          'send back the WAV of a generation the studio made for you in the last 24 hours; other audio is not encoded',
          { param: 'body' },
        );
      }
      const parts = await encodeAudio(
        enginesReady(context.pool),
        wav.samples,
        wav.sampleRate,
        compressedFormats[format],
      );
      return reply
        .header('Content-Type', compressedFormats[format].contentType)
        .header('Content-Disposition', `attachment; filename="ijwi.${format}"`)
        .header('Cache-Control', 'no-store')
        .send(Buffer.concat(parts));
    });
  });

  app.post('/studio/tts', async (request, reply) => {
    const { accountId } = signedIn(request).user;
    await countForAccount(reply, accountId);
    const parsed = parseTtsRequest(request.body, context.studioMaxChars);
    const tts = await withLexicon(parsed, accountId, context.lexicons);
    // The fingerprint of the audio as sent, kept once all of it is, for a download in another format.
    const digest = new AudioDigest(tts.voice.sampleRate);
    const fingerprinted = (audio: Uint8Array) => {
      digest.update(audio);
      return audio;
    };
    // Billed like the streaming API: free use is decided before synthesis, on the same audio bound.
    await replyWithStream(
      request,
      reply,
      context,
      { accountId, speech: tts, target: { kind: 'native' }, studio: true, path: 'studio' },
      {
        audioHeaders: () => ({
          'Content-Type': 'audio/l16',
          'X-Voice-Sample-Rate': String(tts.voice.sampleRate),
          'X-Voice-Encoding': 'pcm_s16le',
        }),
        body: { first: fingerprinted, next: fingerprinted, last: () => undefined },
        finish: () => context.studioAudio.remember(accountId, digest.digest()),
      },
      { caller: 'session', supportEmail: context.supportEmail },
    );
  });
};
