import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readOnnxModel } from './onnx-model.ts';
import { type PiperConfig, piperMetadata, piperTokens, readPiperConfig } from './piper-voice.ts';

/**
 * A neural voice pack: a folder an operator supplies with a VITS model (a Piper voice, or one of
 * Meta's MMS voices), its tokens, and our manifest (`ijwi-voice.json`). The neural runtime ends
 * the whole process on some malformed models (a missing metadata key) and crashes on an
 * espeak-ng voice its data does not know, so a pack is checked here, in JavaScript, before the
 * runtime ever sees it: every problem is named, and a pack with any is refused.
 */

export const MANIFEST_FILE = 'ijwi-voice.json';
/** The largest model accepted: Piper's high-quality voices are about 110 MB, MMS's about 140. */
const MAX_MODEL_BYTES = 512 * 1024 * 1024;
const MAX_TOKENS_BYTES = 1024 * 1024;
const MAX_MANIFEST_BYTES = 64 * 1024;

/** A file of the pack: a plain name inside its folder, never a path out of it. */
const fileName = z
  .string()
  .min(1)
  .max(200)
  .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'a file name inside the pack');

/**
 * Text of the manifest shown to people (`voice list`, the voices page): a pack downloaded from
 * anywhere may hold terminal escape sequences or other control characters, which are refused.
 */
const shownText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !/\p{Cc}/u.test(text), 'no control characters');

const manifestSchema = z
  .strictObject({
    /** What the operator calls the pack (`voice list`). */
    name: shownText(100),
    /** The input convention: Piper's (`input`, `input_lengths`, `scales`) or MMS/VITS's (`x`...). */
    kind: z.enum(['piper', 'mms']),
    language: z.enum(['rw', 'en', 'fr']),
    sampleRate: z.number().int().min(8000).max(48_000),
    speakers: z
      .array(
        z.strictObject({
          id: z.number().int().min(0),
          name: shownText(100),
          /**
           * The speaker's calibrated gain (`../../loudness/pack-calibration.ts`), written when the
           * pack is installed or the speaker assigned; absent until it has been measured.
           */
          gainDb: z.number().min(-60).max(60).optional(),
        }),
      )
      .min(1)
      .max(1000),
    model: fileName,
    /** The tokens file (`symbol id` a line); a raw Piper voice has `piperConfig` instead. */
    tokens: fileName.optional(),
    /**
     * A raw Piper voice's `.onnx.json`: its model lacks the metadata the runtime needs, which
     * `voice install` writes from this file, with the tokens file (`piper-voice.ts`).
     */
    piperConfig: fileName.optional(),
    /** Piper's phonemizer data (an `espeak-ng-data` folder in the pack); MMS reads characters. */
    espeakData: fileName.optional(),
    /** `{"name": "unknown", "url": null, "commercial": null}` when nobody stated it. */
    licence: z.strictObject({
      name: shownText(100),
      /** Shown as a link on the voices page: http(s) only; null when there is none. */
      url: z
        .url({ protocol: /^https?$/ })
        .max(500)
        .nullable(),
      /** False for voices whose licence forbids commercial use (CC BY-NC, the MMS models); null when not known. */
      commercial: z.boolean().nullable(),
    }),
    attribution: shownText(1000),
  })
  .refine((m) => (m.tokens === undefined) !== (m.piperConfig === undefined), {
    message: 'give tokens, or for a raw Piper voice piperConfig, not both',
    path: ['tokens'],
  })
  .refine((m) => m.piperConfig === undefined || m.kind === 'piper', {
    message: 'only a piper pack has a piperConfig',
    path: ['piperConfig'],
  });

export type VoicePackManifest = z.infer<typeof manifestSchema>;

/** A pack that passed every check: its manifest, with its files as absolute paths. */
export interface VoicePack {
  readonly folder: string;
  readonly manifest: VoicePackManifest;
  readonly modelPath: string;
  readonly espeakDataPath: string | undefined;
  /** What the runtime reads the tokens from: a file of the pack, or a raw Piper voice's config. */
  readonly tokens: { readonly path: string } | { readonly piper: PiperConfig };
}

/**
 * A voice without our manifest, as its makers publish it (`published-voice.ts`): the manifest
 * made for it, and its espeak-ng data when that is not in its folder.
 */
export interface PackSource {
  readonly manifest: unknown;
  readonly espeakDataPath?: string;
}

export type VoicePackCheck =
  | { readonly ok: true; readonly pack: VoicePack }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The graph inputs each kind must have, in order; a multi-speaker model adds `sid`. */
const INPUTS: Readonly<Record<VoicePackManifest['kind'], readonly string[]>> = {
  piper: ['input', 'input_lengths', 'scales'],
  mms: ['x', 'x_length', 'noise_scale', 'length_scale', 'noise_scale_w'],
};
/** Metadata the runtime cannot do without: it ends the process when one is missing. */
const REQUIRED_METADATA = ['sample_rate', 'n_speakers', 'language', 'comment'] as const;
/** An espeak-ng voice name as Piper's metadata gives it (`en-us`, `fr`, `sw`). */
const ESPEAK_VOICE = /^[a-z]{2,3}(-[a-z0-9]{1,8}){0,2}$/i;
const ESPEAK_DATA_FILES = ['phontab', 'phondata', 'phonindex', 'intonations'];

async function readSmall(path: string, limit: number): Promise<Buffer | string> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return 'is missing';
  if (info.size > limit) return `is larger than ${limit} bytes`;
  return readFile(path);
}

/** Whether `folder` holds our manifest (else it may be a voice as its makers publish it). */
export async function hasManifest(folder: string): Promise<boolean> {
  return (await stat(join(folder, MANIFEST_FILE)).catch(() => undefined)) !== undefined;
}

/** The manifest, or the problems with it. */
async function readManifest(
  folder: string,
  given: PackSource | undefined,
): Promise<VoicePackManifest | string[]> {
  let json = given?.manifest;
  if (given === undefined) {
    const bytes = await readSmall(join(folder, MANIFEST_FILE), MAX_MANIFEST_BYTES);
    if (typeof bytes === 'string') return [`${MANIFEST_FILE} ${bytes}`];
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      return [`${MANIFEST_FILE} is not JSON`];
    }
  }
  const parsed = manifestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return parsed.error.issues.map(
    (issue) => `${MANIFEST_FILE}: ${issue.path.join('.') || 'manifest'}: ${issue.message}`,
  );
}

/**
 * A tokens file: one `symbol id` a line, the id last (the symbol may itself be a space), each
 * symbol once. Several symbols may share an id: sherpa-onnx's MMS conversions give a capital
 * letter its small letter's. Returns the number of tokens, or the problem.
 */
export function checkTokens(text: string): number | string {
  const symbols = new Set<string>();
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const [index, line] of lines.entries()) {
    const match = /^(.+?) ([0-9]{1,6})\s*$/su.exec(line.replace(/\r$/, ''));
    if (!match) return `line ${index + 1} is not "symbol id"`;
    const symbol = match[1] as string;
    if (symbols.has(symbol)) return `line ${index + 1}: symbol ${JSON.stringify(symbol)} appears twice`;
    symbols.add(symbol);
  }
  return lines.length === 0 ? 'has no tokens' : lines.length;
}

/** Whether espeak-ng's data has a voice of this name: a file of that name under `lang/`. */
async function espeakKnows(dataPath: string, voice: string): Promise<boolean> {
  const entries = await readdir(join(dataPath, 'lang'), { recursive: true, withFileTypes: true }).catch(
    () => [],
  );
  return entries.some((entry) => entry.isFile() && entry.name.toLowerCase() === voice.toLowerCase());
}

/**
 * The problems of the model against the manifest (none: an empty list). A raw Piper voice is
 * checked with the metadata its installation will write.
 */
async function modelProblems(pack: VoicePack): Promise<string[]> {
  const { manifest } = pack;
  const info = await stat(pack.modelPath).catch(() => undefined);
  if (!info?.isFile()) return [`the model ${manifest.model} is missing`];
  if (info.size > MAX_MODEL_BYTES)
    return [`the model ${manifest.model} is larger than ${MAX_MODEL_BYTES} bytes`];
  let model: ReturnType<typeof readOnnxModel>;
  try {
    model = readOnnxModel(await readFile(pack.modelPath));
  } catch (error) {
    return [
      `the model ${manifest.model} is not an ONNX model (${error instanceof Error ? error.message : error})`,
    ];
  }
  const problems: string[] = [];
  const metadata =
    'piper' in pack.tokens ? new Map(Object.entries(piperMetadata(pack.tokens.piper))) : model.metadata;
  for (const key of REQUIRED_METADATA) {
    if (!metadata.has(key)) problems.push(`the model's metadata has no ${key}`);
  }
  const sampleRate = metadata.get('sample_rate');
  if (sampleRate !== undefined && Number(sampleRate) !== manifest.sampleRate) {
    problems.push(`the model's sample_rate is ${sampleRate}, the manifest says ${manifest.sampleRate}`);
  }
  const speakers = Number(metadata.get('n_speakers'));
  const outside = manifest.speakers.find((speaker) => !(speaker.id < speakers));
  if (metadata.has('n_speakers') && outside) {
    problems.push(
      `speaker ${outside.id} is not among the model's ${metadata.get('n_speakers')} (n_speakers)`,
    );
  }
  const comment = metadata.get('comment') ?? '';
  const piper = comment.includes('piper');
  if (comment && piper !== (manifest.kind === 'piper')) {
    problems.push(`the model's comment "${comment.slice(0, 40)}" does not fit a ${manifest.kind} pack`);
  }
  const expected = [...INPUTS[manifest.kind], ...(speakers > 1 ? ['sid'] : [])];
  if (model.inputs.join(',') !== expected.join(',')) {
    problems.push(
      `the model's inputs are ${model.inputs.join(', ')}; a ${manifest.kind} voice has ${expected.join(', ')}`,
    );
  }
  if (manifest.kind === 'mms' && metadata.get('frontend') !== 'characters') {
    problems.push("an mms model's metadata must say frontend=characters (it reads letters, not phonemes)");
  }
  if (manifest.kind === 'piper') problems.push(...(await espeakProblems(pack, metadata.get('voice'))));
  return problems;
}

async function espeakProblems(pack: VoicePack, voice: string | undefined): Promise<string[]> {
  if (pack.espeakDataPath === undefined) return ['a piper pack needs espeakData, its espeak-ng-data folder'];
  const missing = [];
  for (const file of ESPEAK_DATA_FILES) {
    const info = await stat(join(pack.espeakDataPath, file)).catch(() => undefined);
    if (!info?.isFile()) missing.push(file);
  }
  if (missing.length > 0) return [`${pack.manifest.espeakData} has no ${missing.join(', ')}`];
  if (voice === undefined || !ESPEAK_VOICE.test(voice))
    return ["the model's metadata names no espeak-ng voice"];
  if (!(await espeakKnows(pack.espeakDataPath, voice))) {
    return [`${pack.manifest.espeakData} does not know the espeak-ng voice ${voice}`];
  }
  return [];
}

/**
 * Checks everything in `folder` that the runtime would trip on, with its manifest file or the
 * manifest `given` for a voice as published. Never throws for a bad pack.
 */
export async function checkVoicePack(folder: string, given?: PackSource): Promise<VoicePackCheck> {
  const manifest = await readManifest(folder, given);
  if (Array.isArray(manifest)) return { ok: false, problems: manifest };
  const tokens = await readTokens(folder, manifest);
  if (typeof tokens === 'string') return { ok: false, problems: [tokens] };
  const pack: VoicePack = {
    folder,
    manifest,
    modelPath: join(folder, manifest.model),
    espeakDataPath:
      manifest.espeakData === undefined
        ? undefined
        : (given?.espeakDataPath ?? join(folder, manifest.espeakData)),
    tokens,
  };
  const problems = await modelProblems(pack);
  return problems.length === 0 ? { ok: true, pack } : { ok: false, problems };
}

/** The pack's tokens, checked: its tokens file, or a raw Piper voice's config; else the problem. */
async function readTokens(
  folder: string,
  manifest: VoicePackManifest,
): Promise<VoicePack['tokens'] | string> {
  const name = manifest.tokens ?? manifest.piperConfig ?? '';
  const bytes = await readSmall(join(folder, name), MAX_TOKENS_BYTES);
  if (typeof bytes === 'string')
    return `the ${manifest.tokens ? 'tokens file' : 'Piper config'} ${name} ${bytes}`;
  if (manifest.tokens === undefined) {
    const config = readPiperConfig(bytes.toString('utf8'));
    if (typeof config === 'string') return `the Piper config ${name} ${config}`;
    const checked = checkTokens(piperTokens(config));
    return typeof checked === 'string'
      ? `the Piper config ${name}'s phoneme_id_map: ${checked}`
      : { piper: config };
  }
  const checked = checkTokens(bytes.toString('utf8'));
  return typeof checked === 'string' ? `the tokens file ${name} ${checked}` : { path: join(folder, name) };
}
