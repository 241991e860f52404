import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { defaultStreamFormat, streamFormats } from '../../speech/audio/formats.ts';
import { engines } from '../../speech/engines/registry.ts';
import { LOUDNESS_TARGET_LUFS } from '../../speech/loudness/calibration.ts';
import { languages, voicesOf } from '../../speech/voices/voices.ts';
import type { SiteLanguage } from '../../web/i18n/languages.ts';
import { translatorFor } from '../../web/i18n/translator.ts';
import { voicesPage } from '../../web/pages/voices.ts';
import { PAGE_HEADERS } from '../page-headers.ts';
import { pageLanguage } from '../page-language.ts';
import { type Limits, type VoiceCatalogue, voicesRouteSchema } from '../schemas/voices.ts';

/** The machine listing of `?format=json`, in the contract's shape. */
export function voiceCatalogue(limits: Limits): VoiceCatalogue {
  return {
    languages: languages.map((language) => ({
      code: language.code,
      name: language.name,
      default_speaker_id: language.defaultSpeakerId,
      billing: { api: 'tokens', studio: language.code === 'rw' ? 'free' : 'tokens' },
      voices: voicesOf(language.code).map((v) => ({
        speaker_id: v.speakerId,
        name: v.name,
        group: v.group,
        gender: v.gender,
        sample_rate: v.sampleRate,
        engine: v.engineVoice.engine,
        // A calibrated voice is delivered at the target; a pack speaker never measured has no known loudness.
        loudness_lufs: v.gainDb === undefined ? null : LOUDNESS_TARGET_LUFS,
        licence: v.pack
          ? v.pack.licence
          : {
              name: engines[v.engineVoice.engine].licence,
              url: engines[v.engineVoice.engine].licenceUrl,
              commercial: true,
            },
        voice_pack: v.pack
          ? { name: v.pack.name, speaker: v.pack.speaker, attribution: v.pack.attribution }
          : null,
      })),
    })),
    formats: Object.values(streamFormats).map((f) => ({
      format: f.name,
      content_type: f.contentType,
      sample_rate: f.sampleRate,
      encoding: f.encoding,
      default: f === defaultStreamFormat,
    })),
    limits: {
      file_max_chars: limits.fileMaxChars,
      stream_max_chars: limits.streamMaxChars,
      requests_per_minute: limits.requestsPerMinute,
    },
  };
}

export interface VoicesOptions {
  readonly limits: Limits;
  /** The token rule the page states: 1 token per started `charsPerToken` characters. */
  readonly charsPerToken: number;
}

/**
 * GET /api/v1/voices.php: a readable page, or the JSON listing with `?format=json`. The page is
 * the same for everyone who reads it in one language (no session is read here), so each
 * language's copy is rendered once and may be cached like the JSON, by language.
 */
export const voicesRoutes: FastifyPluginAsync<VoicesOptions> = async (app, options) => {
  const catalogue = voiceCatalogue(options.limits);
  // Both addresses serve one page, whose language switcher comes back to the short one.
  const pages = new Map<SiteLanguage, string>();
  const pageFor = (request: FastifyRequest) => {
    const t = translatorFor(pageLanguage(request));
    let found = pages.get(t.language);
    if (found === undefined) {
      const context = { t, viewer: { kind: 'unknown' } as const, path: '/voices' };
      found = voicesPage(context, catalogue, { charsPerToken: options.charsPerToken }).value;
      pages.set(t.language, found);
    }
    return found;
  };
  const pageHeaders = { ...PAGE_HEADERS, 'Cache-Control': 'public, max-age=300' };
  // The same page for people at a short address.
  app.get('/voices', { schema: { hide: true } }, async (request, reply) =>
    reply.headers(pageHeaders).send(pageFor(request)),
  );
  app.get('/api/v1/voices.php', { schema: voicesRouteSchema(options.limits) }, async (request, reply) => {
    const { format } = request.query as { format?: unknown };
    reply.header('Cache-Control', 'public, max-age=300');
    if (format === 'json') return reply.send(catalogue);
    return reply.headers(pageHeaders).send(pageFor(request));
  });
};
