import type { FastifyPluginAsync } from 'fastify';
import { allVoices } from '../../speech/voices/voices.ts';
import {
  type ModelList,
  modelsRouteSchema,
  openAiVoicesRouteSchema,
  type VoiceList,
} from '../schemas/openai-listings.ts';

/**
 * The model names OpenAI's clients and their users send: OpenAI's speech models and our own. Every
 * name speaks the same voices (the voice chooses), and any other name is accepted as well.
 */
export const LISTED_MODELS = ['ijwi', 'tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;
/** 2026-01-01: when these names were first listed; a fixed date, so the list never changes under a cache. */
const LISTED_SINCE = 1_767_225_600;

/** GET /v1/models and GET /v1/audio/voices. */
export const openAiListingRoutes: FastifyPluginAsync = async (app) => {
  const models: ModelList = {
    object: 'list',
    data: LISTED_MODELS.map((id) => ({ id, object: 'model', created: LISTED_SINCE, owned_by: 'ijwi' })),
  };
  app.get('/v1/models', { schema: modelsRouteSchema }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').send(models),
  );
  // Built per request: an operator may assign voice packs to voice names while the service runs.
  app.get('/v1/audio/voices', { schema: openAiVoicesRouteSchema }, async (_request, reply) => {
    const voices: VoiceList = { voices: allVoices().map((voice) => voice.name.toLowerCase()) };
    return reply.header('Cache-Control', 'public, max-age=60').send(voices);
  });
};
