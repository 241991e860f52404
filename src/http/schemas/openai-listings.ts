import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { tags } from '../openapi.ts';

// OpenAI's model list and the voice list other OpenAI-compatible speech servers give, for
// clients that list before they speak.

export const modelListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        id: z.string().meta({ examples: ['tts-1'] }),
        object: z.literal('model'),
        created: z.int().meta({ description: 'Unix time the model name was first served.' }),
        owned_by: z.string(),
      }),
    ),
  })
  .meta({ description: "OpenAI's list of models." });

export type ModelList = z.input<typeof modelListSchema>;

export const voiceListSchema = z
  .object({
    voices: z.array(z.string()).meta({
      description:
        "The voice names `voice` takes, in lower case; OpenAI's own voice names are accepted too, as English voices.",
      examples: [['keza', 'grace']],
    }),
  })
  .meta({ description: 'The voices of `POST /v1/audio/speech`.' });

export type VoiceList = z.input<typeof voiceListSchema>;

export const modelsRouteSchema: FastifySchema = {
  operationId: 'openAiModels',
  summary: "The model names of `POST /v1/audio/speech`, in OpenAI's list shape",
  description:
    'Any model name is accepted by the speech endpoint; these are the ones clients usually send. No API key needed.',
  tags: [tags.voices],
  response: { 200: modelListSchema },
};

export const openAiVoicesRouteSchema: FastifySchema = {
  operationId: 'openAiVoices',
  summary: 'The voice names of `POST /v1/audio/speech`',
  description: 'Each voice sets its language (see `GET /api/v1/voices.php`). No API key needed.',
  tags: [tags.voices],
  response: { 200: voiceListSchema },
};
