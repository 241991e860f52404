import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { allVoices } from '../../../speech/voices/voices.ts';
import { voiceOfPath } from '../voice-id.ts';
import { authenticateElevenLabs, elevenLabsKeyFrom, type KeyCheck } from './api-key.ts';
import { ELEVENLABS_MODEL_IDS, elevenLabsModel, elevenLabsVoice } from './voices.ts';

export interface ElevenLabsOptions {
  readonly accounts: KeyCheck;
  /** The most characters one request speaks (the stream endpoint's limit), as the models list it. */
  readonly maxChars: number;
}

/**
 * ElevenLabs' listings under `/elevenlabs`: `GET /v1/voices` (and `/v2/voices`, what the SDK's
 * `voices.search` reads), `GET /v1/voices/{voice_id}` and `GET /v1/models`. Like Ijwi's own
 * listings they need no key, but a key that is sent must be valid, so a client configured with a
 * wrong key hears it at its first call rather than at its first speech.
 */
export const elevenLabsRoutes: FastifyPluginAsync<ElevenLabsOptions> = async (app, options) => {
  const checkKey = async (request: FastifyRequest) => {
    if (elevenLabsKeyFrom(request.headers) !== undefined)
      await authenticateElevenLabs(options.accounts, request.headers);
  };
  // Built per request: an operator may assign voice packs to voice names while the service runs.
  app.get('/elevenlabs/v1/voices', async (request, reply) => {
    await checkKey(request);
    return reply
      .header('Cache-Control', 'private, max-age=60')
      .send({ voices: allVoices().map(elevenLabsVoice) });
  });
  app.get('/elevenlabs/v2/voices', async (request, reply) => {
    await checkKey(request);
    const voices = allVoices().map(elevenLabsVoice);
    return reply
      .header('Cache-Control', 'private, max-age=60')
      .send({ voices, has_more: false, total_count: voices.length });
  });
  app.get<{ Params: { voice_id: string } }>('/elevenlabs/v1/voices/:voice_id', async (request, reply) => {
    await checkKey(request);
    const voice = voiceOfPath(request.params.voice_id);
    return reply.header('Cache-Control', 'private, max-age=60').send(elevenLabsVoice(voice));
  });
  const models = ELEVENLABS_MODEL_IDS.map((id) => elevenLabsModel(id, options.maxChars));
  app.get('/elevenlabs/v1/models', async (request, reply) => {
    await checkKey(request);
    return reply.header('Cache-Control', 'private, max-age=300').send(models);
  });
};
