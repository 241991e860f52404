import { z } from 'zod';

/**
 * A raw Piper voice (`voice.onnx` and `voice.onnx.json`, as Piper's releases publish them) made
 * into what the runtime reads: the metadata sherpa-onnx's own conversion script writes into the
 * model (`scripts/piper/add_meta_data.py`: kind, language, espeak-ng voice, speakers, sample
 * rate) and a tokens file from the config's `phoneme_id_map`.
 */

const configSchema = z.looseObject({
  audio: z.looseObject({ sample_rate: z.number().int().min(8000).max(48_000) }),
  espeak: z.looseObject({ voice: z.string().min(1).max(40) }),
  num_speakers: z.number().int().min(1).max(10_000),
  language: z.looseObject({ name_english: z.string().min(1).max(100) }).optional(),
  phoneme_id_map: z.record(
    // One line of the tokens file each: no line breaks.
    z.string().regex(/^[^\r\n]{1,8}$/u),
    z.array(z.number().int().min(0).max(100_000)).min(1),
  ),
});

export type PiperConfig = z.infer<typeof configSchema>;

/** The config, or what is wrong with it. */
export function readPiperConfig(text: string): PiperConfig | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  const parsed = configSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `has no valid ${issue?.path.join('.') || 'content'}`;
}

/** The metadata the runtime needs, as the conversion script writes it. */
export function piperMetadata(config: PiperConfig): Record<string, string> {
  return {
    model_type: 'vits',
    comment: 'piper',
    language: config.language?.name_english ?? config.espeak.voice,
    voice: config.espeak.voice,
    has_espeak: '1',
    n_speakers: String(config.num_speakers),
    sample_rate: String(config.audio.sample_rate),
  };
}

/** The tokens file: each symbol with its first id, as the conversion script writes it. */
export function piperTokens(config: PiperConfig): string {
  return `${Object.entries(config.phoneme_id_map)
    .map(([symbol, ids]) => `${symbol} ${ids[0]}`)
    .join('\n')}\n`;
}
