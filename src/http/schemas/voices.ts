import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { streamFormatNames, streamFormats } from '../../speech/audio/formats.ts';
import type { EngineId } from '../../speech/engines/engine.ts';
import { engines } from '../../speech/engines/registry.ts';
import { builtInVoices, languages } from '../../speech/voices/voices.ts';
import { tags } from '../openapi.ts';

/** The service's limits on a call, as the listing states them. */
export interface Limits {
  readonly fileMaxChars: number;
  readonly streamMaxChars: number;
  readonly requestsPerMinute: number;
}

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The `?format=json` listing (the contract's shape). The route serialises it with this. */
export function voiceCatalogueSchema(limits: Limits) {
  return z.object({
    languages: z.array(
      z.object({
        code: z.enum(languages.map((l) => l.code)),
        name: z.string(),
        default_speaker_id: z.int(),
        billing: z.object({
          api: z.literal('tokens'),
          studio: z.enum(['free', 'tokens']).meta({ description: 'Kinyarwanda is free in the studio.' }),
        }),
        voices: z.array(
          z.object({
            speaker_id: z.int(),
            name: z.string(),
            group: z.enum(unique(builtInVoices.map((v) => v.group))),
            gender: z.enum(unique(builtInVoices.map((v) => v.gender))),
            sample_rate: z.int().meta({ description: 'The native rate of the voice and of its WAV files.' }),
            engine: z.enum(Object.keys(engines) as [EngineId, ...EngineId[]]).meta({
              description: 'The speech engine that speaks the voice.',
            }),
            loudness_lufs: z
              .number()
              .nullable()
              .meta({
                description:
                  'Integrated loudness (EBU R128, LUFS) the voice is calibrated to: the same for every voice, so a ' +
                  'call that changes voice or language keeps its level. Null for a voice pack speaker installed ' +
                  'without calibration.',
              }),
            licence: z
              .object({
                name: z.string().meta({ description: "`unknown` when the pack's licence was not given." }),
                url: z.string().nullable().meta({ description: "The licence's page; null when not known." }),
                commercial: z.boolean().nullable().meta({
                  description: 'False when the licence forbids commercial use; null when that is not known.',
                }),
              })
              .meta({
                description:
                  "The licence of what speaks the voice: the engine's for a built-in voice, the voice pack's for one an operator assigned.",
              }),
            voice_pack: z
              .object({ name: z.string(), speaker: z.string(), attribution: z.string() })
              .nullable()
              .meta({
                description:
                  'The neural voice pack an operator assigned to this voice; null for a built-in voice.',
              }),
          }),
        ),
      }),
    ),
    formats: z.array(
      z.object({
        format: z.enum(streamFormatNames),
        content_type: z.enum(unique(Object.values(streamFormats).map((f) => f.contentType))),
        sample_rate: z.int(),
        encoding: z.enum(unique(Object.values(streamFormats).map((f) => f.encoding))),
        default: z.boolean(),
      }),
    ),
    limits: z.object({
      file_max_chars: z.literal(limits.fileMaxChars),
      stream_max_chars: z.literal(limits.streamMaxChars),
      requests_per_minute: z.literal(limits.requestsPerMinute),
    }),
  });
}

/** The listing as the handler builds it. */
export type VoiceCatalogue = z.input<ReturnType<typeof voiceCatalogueSchema>>;

/** The `voices.php` route schema. */
export function voicesRouteSchema(limits: Limits): FastifySchema {
  return {
    operationId: 'listVoices',
    summary: 'List languages, voices, stream formats and limits',
    description:
      'A readable HTML page, or with `?format=json` the machine listing. No API key. Voices and ' +
      'health are not under the per-key rate limit.',
    tags: [tags.voices],
    querystring: z.object({
      // Any other value, or several, gives the page as before: `catch` never refuses a query.
      format: z
        .enum(['json'])
        .optional()
        .catch(undefined)
        .meta({ description: '`json` for the machine listing; anything else gives the HTML page.' }),
    }),
    response: {
      200: {
        description: 'The listing: JSON with `?format=json`, else HTML.',
        content: {
          'application/json': { schema: voiceCatalogueSchema(limits) },
          'text/html': { schema: z.string().meta({ description: 'A readable page.' }) },
        },
      },
    },
  };
}
