import type { FastifyPluginAsync } from 'fastify';
import { defaultStreamFormat, streamFormats } from '../../speech/audio/formats.ts';
import { languages, voicesOf } from '../../speech/voices.ts';

export interface Limits {
  readonly fileMaxChars: number;
  readonly streamMaxChars: number;
  readonly requestsPerMinute: number;
}

/** The machine listing of `?format=json`, in the contract's shape. */
export function voiceCatalogue(limits: Limits) {
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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cataloguePage(catalogue: ReturnType<typeof voiceCatalogue>): string {
  const languageSections = catalogue.languages
    .map(
      (l) => `<section>
  <h2>${escapeHtml(l.name)} <code>${l.code}</code></h2>
  <p>API: tokens. Studio: ${l.billing.studio === 'free' ? 'free' : 'tokens'}. Default speaker_id: ${l.default_speaker_id}.</p>
  <table><thead><tr><th>speaker_id</th><th>name</th><th>group</th><th>gender</th><th>sample rate</th></tr></thead><tbody>
${l.voices.map((v) => `    <tr><td>${v.speaker_id}</td><td>${escapeHtml(v.name)}</td><td>${v.group}</td><td>${v.gender}</td><td>${v.sample_rate} Hz</td></tr>`).join('\n')}
  </tbody></table>
</section>`,
    )
    .join('\n');
  const formatRows = catalogue.formats
    .map(
      (f) =>
        `    <tr><td><code>${f.format}</code>${f.default ? ' (default)' : ''}</td><td>${f.content_type}</td><td>${f.sample_rate} Hz</td><td>${f.encoding}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ijwi voices</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d2a2f; line-height: 1.5; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1.5rem; }
th, td { text-align: left; padding: 0.35rem 0.6rem; border-bottom: 1px solid #d6dee0; }
code { background: #eef3f4; padding: 0 0.25rem; border-radius: 3px; }
</style>
</head>
<body>
<h1>Ijwi voices</h1>
<p>Text to speech in Kinyarwanda, English and French. Machine-readable listing: <a href="?format=json"><code>?format=json</code></a>.</p>
${languageSections}
<section>
  <h2>Stream formats</h2>
  <table><thead><tr><th>format</th><th>Content-Type</th><th>rate</th><th>encoding</th></tr></thead><tbody>
${formatRows}
  </tbody></table>
</section>
<section>
  <h2>Limits</h2>
  <p>Up to ${catalogue.limits.file_max_chars} characters per file request, ${catalogue.limits.stream_max_chars} per stream request, ${catalogue.limits.requests_per_minute} requests per minute per key.</p>
</section>
</body>
</html>
`;
}

/** GET /api/v1/voices.php: a readable page, or the JSON listing with `?format=json`. */
export const voicesRoutes: FastifyPluginAsync<{ limits: Limits }> = async (app, options) => {
  const catalogue = voiceCatalogue(options.limits);
  const page = cataloguePage(catalogue);
  app.get('/api/v1/voices.php', async (request, reply) => {
    const { format } = request.query as { format?: unknown };
    reply.header('Cache-Control', 'public, max-age=300');
    if (format === 'json') return reply.send(catalogue);
    return reply.type('text/html; charset=utf-8').send(page);
  });
};
