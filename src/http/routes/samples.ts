import type { FastifyPluginAsync } from 'fastify';
import { wavHeader } from '../../speech/audio/wav.ts';
import type { EnginePool } from '../../speech/pool/engine-pool.ts';
import { plainSpeech, synthesize } from '../../speech/synthesize.ts';
import { findVoice, type Voice } from '../../speech/voices/voices.ts';
import { sampleSentence } from '../../web/pages/voices.ts';
import { enginesReady } from '../admission.ts';
import { parseByteRange } from '../byte-range.ts';
import { ApiError } from '../errors.ts';

const FILE_NAME = /^(rw|en|fr)-(\d)\.wav$/;

async function speakSample(pool: EnginePool, voice: Voice): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for await (const event of synthesize(pool, {
    ...plainSpeech(sampleSentence(voice.language, voice.name), voice.language),
    voice,
    target: { kind: 'native' },
  })) {
    if (event.type === 'audio') parts.push(event.bytes);
    else if (event.type === 'end') bytes = event.bytes;
  }
  return Buffer.concat([wavHeader(bytes, voice.sampleRate), ...parts]);
}

/**
 * GET /samples/<language>-<speaker_id>.wav: each voice introducing itself, for the voices page.
 * Spoken on first request and then kept in memory (11 voices, a few seconds each: well under
 * 2 MB); synthesis is deterministic, so the cached copy is what a new one would be. Free and
 * unauthenticated, which is why there is one fixed sentence per voice and nothing else.
 */
export const sampleRoutes: FastifyPluginAsync<{ pool: () => EnginePool | undefined }> = async (
  app,
  options,
) => {
  const cache = new Map<string, Promise<Buffer>>();

  app.get('/samples/:file', async (request, reply) => {
    const { file } = request.params as { file?: string };
    const match = FILE_NAME.exec(file ?? '');
    const voice = match ? findVoice(match[1] ?? '', Number(match[2])) : undefined;
    if (!voice || !file) throw new ApiError('not_found', 'no such voice sample');
    let audio = cache.get(file);
    if (!audio) {
      audio = speakSample(enginesReady(options.pool), voice);
      cache.set(file, audio);
      // A failed synthesis is not kept: the next request tries again.
      audio.catch(() => cache.delete(file));
    }
    const body = await audio;
    reply
      .header('Content-Type', 'audio/wav')
      .header('Accept-Ranges', 'bytes')
      .header('Cache-Control', 'public, max-age=86400')
      .header('X-Content-Type-Options', 'nosniff');
    const range = parseByteRange(request.headers.range, body.length);
    if (range.kind === 'unsatisfiable') {
      throw new ApiError('range_not_satisfiable', `the range is outside the sample's ${body.length} bytes`, {
        headers: { 'Content-Range': `bytes */${body.length}` },
      });
    }
    if (range.kind === 'range') {
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${body.length}`)
        .send(body.subarray(range.start, range.end + 1));
    }
    return reply.send(body);
  });
};
