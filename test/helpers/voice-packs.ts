import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VoiceAssignments } from '../../src/speech/engines/neural/voice-assignments.ts';
import { MANIFEST_FILE } from '../../src/speech/engines/neural/voice-pack.ts';
import { VoiceStore } from '../../src/speech/engines/neural/voice-store.ts';
import { calibratePackSpeakers } from '../../src/speech/loudness/pack-calibration.ts';
import { loadAssignedVoices } from '../../src/speech/voices/assigned-voices.ts';
import { useAssignedVoices } from '../../src/speech/voices/voices.ts';
import { type TinyKind, tinyVitsModel } from './tiny-onnx.ts';

// Voice pack folders for the tests, built from tiny models (tiny-onnx.ts): a good one of each
// kind, which any test may then break one piece of; and voices as their makers publish them.

/** Metadata as sherpa-onnx's conversion scripts write it for each kind. */
export function packMetadata(kind: TinyKind, sampleRate: number): Record<string, string> {
  const common = { model_type: 'vits', sample_rate: String(sampleRate), n_speakers: '1' };
  return kind === 'piper'
    ? { ...common, comment: 'piper', language: 'English', voice: 'en-us', has_espeak: '1' }
    : { ...common, comment: 'mms', language: 'Kinyarwanda', frontend: 'characters', add_blank: '1' };
}

/** An MMS voice reads letters: one token a character, the space among them. */
export const CHARACTER_TOKENS = `${[...' abcdefghijklmnopqrstuvwxyz']
  .map((symbol, id) => `${symbol} ${id}`)
  .join('\n')}\n`;
/** sherpa-onnx's MMS conversions give each capital letter its small letter's id. */
const SHERPA_CHARACTER_TOKENS = CHARACTER_TOKENS.replace(
  /^([a-z]) (\d+)$/gm,
  (line, letter: string, id) => `${line}\n${letter.toUpperCase()} ${id}`,
);
/** A Piper voice reads espeak-ng's phonemes: these, in its tests. */
const PHONEMES = [...'_^$ abdefhijklmnoprstuvwzæðŋɐɑɔəɚɛɜɡɪɹʃʊʌʒθˈˌː,.!?'];
const PHONEME_TOKENS = `${PHONEMES.map((symbol, id) => `${symbol} ${id}`).join('\n')}\n`;

/** A Piper voice's `.onnx.json`, as Piper's releases publish it (the fields that matter here). */
export function piperConfig(sampleRate: number): Record<string, unknown> {
  return {
    audio: { sample_rate: sampleRate, quality: 'medium' },
    espeak: { voice: 'en-us' },
    language: { code: 'en_US', name_english: 'English' },
    num_speakers: 1,
    speaker_id_map: {},
    phoneme_id_map: Object.fromEntries(PHONEMES.map((symbol, id) => [symbol, [id]])),
  };
}

/** Stand-in espeak-ng data: the files a Piper pack's data must hold, and the voice its model names. */
export function writeEspeakData(data: string): string {
  mkdirSync(join(data, 'lang', 'gmw'), { recursive: true });
  for (const file of ['phontab', 'phondata', 'phonindex', 'intonations']) writeFileSync(join(data, file), '');
  writeFileSync(join(data, 'lang', 'gmw', 'en-US'), 'name English (America)\n');
  return data;
}

export interface PackOptions {
  readonly kind: TinyKind;
  /** A raw Piper voice: a model without metadata and its `.onnx.json`, no tokens file. */
  readonly raw?: boolean;
  readonly sampleRate?: number;
  readonly metadata?: Record<string, string>;
  readonly manifest?: Record<string, unknown>;
}

/** Writes a voice pack into `folder` (made if need be) and returns the folder. */
export function writeVoicePack(
  folder: string,
  { kind, raw = false, sampleRate = 16_000, metadata, manifest }: PackOptions,
): string {
  mkdirSync(folder, { recursive: true });
  const modelMetadata = raw ? {} : (metadata ?? packMetadata(kind, sampleRate));
  writeFileSync(join(folder, 'model.onnx'), tinyVitsModel({ kind, metadata: modelMetadata }));
  if (raw) writeFileSync(join(folder, 'model.onnx.json'), JSON.stringify(piperConfig(sampleRate)));
  else writeFileSync(join(folder, 'tokens.txt'), kind === 'piper' ? PHONEME_TOKENS : CHARACTER_TOKENS);
  if (kind === 'piper') writeEspeakData(join(folder, 'espeak-ng-data'));
  const base = {
    name: `Tiny ${kind}`,
    kind,
    language: kind === 'piper' ? 'en' : 'rw',
    sampleRate,
    speakers: [{ id: 0, name: 'Test speaker' }],
    model: 'model.onnx',
    ...(raw ? { piperConfig: 'model.onnx.json' } : { tokens: 'tokens.txt' }),
    ...(kind === 'piper' ? { espeakData: 'espeak-ng-data' } : {}),
    licence: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/', commercial: true },
    attribution: 'Built by the tests',
  };
  writeFileSync(join(folder, MANIFEST_FILE), JSON.stringify({ ...base, ...manifest }));
  return folder;
}

/**
 * As an operator does it (`voice install`, `voice assign`): a tiny MMS pack written into a new
 * folder `dir` (made when absent), installed under `dir/voices`, its speaker's loudness measured,
 * and assigned to (`language`, `speakerId`) in this process's catalogue. Resolves with `dir`;
 * `useAssignedVoices([])` gives the built-in voices back.
 */
export async function assignTinyPack(
  language: 'rw',
  speakerId: number,
  options: {
    readonly dir?: string;
    readonly sampleRate?: number;
    readonly manifest?: Record<string, unknown>;
  } = {},
): Promise<string> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'ijwi-tiny-pack-'));
  const voicesDir = join(dir, 'voices');
  const source = writeVoicePack(join(dir, 'pack'), {
    kind: 'mms',
    ...(options.sampleRate ? { sampleRate: options.sampleRate } : {}),
    ...(options.manifest ? { manifest: options.manifest } : {}),
  });
  const installed = await new VoiceStore(voicesDir).install(source);
  assert.ok(installed.ok);
  const [calibration] = await calibratePackSpeakers(voicesDir, installed.voice.id, [0]);
  assert.ok(calibration && 'gainDb' in calibration, JSON.stringify(calibration));
  await new VoiceAssignments(voicesDir).assign({
    language,
    speakerId,
    voice: installed.voice.id,
    speaker: 0,
  });
  const assigned = await loadAssignedVoices(voicesDir);
  assert.deepEqual(assigned.problems, []);
  useAssignedVoices(assigned.voices);
  return dir;
}

/** Piper's own `MODEL_CARD`, as its voice releases publish it beside the model. */
export function piperModelCard(dataset: string, licence: string): string {
  return [
    `# Model card for ${dataset} (medium)`,
    '',
    '* Language: en_US (English, United States)',
    '* Speakers: 1',
    '* Quality: medium',
    '* Samplerate: 22,050Hz',
    '',
    '## Dataset',
    '',
    `* URL: https://example.org/datasets/${dataset}`,
    `* License: ${licence}`,
    '',
    '## Training',
    '',
    'Trained from scratch.',
    '',
  ].join('\n');
}

/**
 * A Piper voice as Piper's releases publish it: `NAME.onnx` (a model without the runtime's
 * metadata), its config `NAME.onnx.json`, and the `MODEL_CARD` when one is given; no manifest,
 * no tokens file, no espeak-ng data.
 */
export function writePublishedPiperVoice(
  folder: string,
  {
    name,
    sampleRate = 22_050,
    modelCard,
    config,
    speakers = false,
  }: {
    name: string;
    sampleRate?: number;
    modelCard?: string;
    /** Fields of the config to change. */
    config?: Record<string, unknown>;
    /** A model with a `sid` input, as a voice of several speakers has. */
    speakers?: boolean;
  },
): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name}.onnx`), tinyVitsModel({ kind: 'piper', speakers }));
  writeFileSync(
    join(folder, `${name}.onnx.json`),
    JSON.stringify({ ...piperConfig(sampleRate), dataset: name.split('-')[1] ?? name, ...config }),
  );
  if (modelCard !== undefined) writeFileSync(join(folder, 'MODEL_CARD'), modelCard);
  return folder;
}

export interface SherpaVoiceOptions {
  readonly kind: TinyKind;
  /** The model's file: sherpa-onnx names a Piper voice's after the voice, others `model.onnx`. */
  readonly model?: string;
  readonly sampleRate?: number;
  /** A Piper voice's espeak-ng data to copy in as `espeak-ng-data/`; else stand-in files. */
  readonly espeakData?: string;
  readonly readme?: string;
}

/**
 * A voice as sherpa-onnx's converted releases unpack: the model with the runtime's metadata,
 * `tokens.txt`, for a Piper voice its `espeak-ng-data/` and config, and sometimes a README.
 */
export function writeSherpaVoice(
  folder: string,
  { kind, model = 'model.onnx', sampleRate = 16_000, espeakData, readme }: SherpaVoiceOptions,
): string {
  writeVoicePack(folder, { kind, sampleRate });
  rmSync(join(folder, MANIFEST_FILE));
  renameSync(join(folder, 'model.onnx'), join(folder, model));
  if (kind === 'piper') {
    writeFileSync(join(folder, `${model}.json`), JSON.stringify(piperConfig(sampleRate)));
    if (espeakData !== undefined) {
      rmSync(join(folder, 'espeak-ng-data'), { recursive: true });
      cpSync(espeakData, join(folder, 'espeak-ng-data'), { recursive: true });
    }
  } else writeFileSync(join(folder, 'tokens.txt'), SHERPA_CHARACTER_TOKENS);
  if (readme !== undefined) writeFileSync(join(folder, 'README.md'), readme);
  return folder;
}
