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
  /** The espeak-ng voice some voices give in place of `espeak.voice`. */
  lang_code: z.string().min(1).max(40).optional(),
  num_speakers: z.number().int().min(1).max(10_000),
  /** Speaker names by id, for a voice of several speakers. */
  speaker_id_map: z.record(z.string().max(200), z.number().int().min(0)).optional(),
  language: z
    .looseObject({
      code: z.string().max(40).optional(),
      family: z.string().max(40).optional(),
      name_english: z.string().min(1).max(100).optional(),
    })
    .optional(),
  /** The dataset the voice was trained on, as Piper's releases name it (`amy`, `lessac`). */
  dataset: z.string().max(200).optional(),
  phoneme_id_map: z.record(z.string().min(1).max(8), z.array(z.number().int().min(0).max(100_000)).min(1)),
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

/** The voice's sample rate: some configs say 22500 for 22050, which the conversion script mends. */
export function piperSampleRate(config: PiperConfig): number {
  return config.audio.sample_rate === 22_500 ? 22_050 : config.audio.sample_rate;
}

/** The espeak-ng voice that phonemizes the voice's text. */
export function piperEspeakVoice(config: PiperConfig): string {
  return config.lang_code ?? config.espeak.voice;
}

/** The metadata the runtime needs, as the conversion script writes it. */
export function piperMetadata(config: PiperConfig): Record<string, string> {
  return {
    model_type: 'vits',
    comment: 'piper',
    language: config.language?.name_english ?? piperEspeakVoice(config),
    voice: piperEspeakVoice(config),
    has_espeak: '1',
    n_speakers: String(config.num_speakers),
    sample_rate: String(piperSampleRate(config)),
  };
}

/**
 * The tokens file: each symbol with its first id, as the conversion script writes it; a symbol
 * that is a line break cannot be a line of the file, and is left out as the script does.
 */
export function piperTokens(config: PiperConfig): string {
  return `${Object.entries(config.phoneme_id_map)
    .filter(([symbol]) => !/[\r\n]/.test(symbol))
    .map(([symbol, ids]) => `${symbol} ${ids[0]}`)
    .join('\n')}\n`;
}
