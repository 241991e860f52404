import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { allowsCommercialUse, type PackLicence, readModelCard, UNKNOWN_LICENCE } from './model-card.ts';
import { readOnnxModel } from './onnx-model.ts';
import { type PiperConfig, piperEspeakVoice, piperSampleRate, readPiperConfig } from './piper-voice.ts';
import { hasManifest, MANIFEST_FILE, type PackSource, type VoicePackManifest } from './voice-pack.ts';

/**
 * A voice as its makers publish it, without our manifest, made into a pack: the manifest is
 * written from what the voice's own files say. Two layouts are known:
 *
 * - Piper's releases: `NAME.onnx` and its config `NAME.onnx.json` (sample rate, espeak-ng voice,
 *   language, speakers, phonemes), often a `MODEL_CARD` naming the dataset and its licence. The
 *   phonemizer's data is not in it: the pack takes the system's espeak-ng data (Debian's
 *   `espeak-ng-data`) or the folder the operator names.
 * - sherpa-onnx's converted voices (`vits-piper-*`, `vits-mms-*`): the model with the runtime's
 *   metadata already in it (`NAME.onnx` or `model.onnx`), `tokens.txt`, for a Piper voice its
 *   own `espeak-ng-data/` and config, sometimes a `MODEL_CARD` or a README.
 *
 * The licence is the operator's when given, else the model card's, else unknown. Everything
 * made here is checked again by `checkVoicePack`, as a manifest written by hand is.
 */

export type PackLanguage = VoicePackManifest['language'];

export interface PublishedVoiceOptions {
  /** What the pack is called; by default the model's file name (or the folder's, for `model.onnx`). */
  readonly name?: string;
  /** The voice's language, when its files do not tell it. */
  readonly language?: PackLanguage;
  /** The licence the operator states, over the model card's. */
  readonly licence?: PackLicence;
  /** espeak-ng's data for a Piper voice that comes without it; by default the system's. */
  readonly espeakData?: string;
}

/** Where Debian (and most distributions) install espeak-ng's data. */
const SYSTEM_ESPEAK_DATA = [
  '/usr/lib/x86_64-linux-gnu/espeak-ng-data',
  '/usr/lib/aarch64-linux-gnu/espeak-ng-data',
  '/usr/share/espeak-ng-data',
];
const ESPEAK_DATA_FOLDER = 'espeak-ng-data';
const TOKENS_FILE = 'tokens.txt';
/** Files that may hold a model card, in the order they are read. */
const CARD_FILES = ['MODEL_CARD', 'MODEL_CARD.md', 'README.md', 'README'];
const MAX_SMALL_FILE = 1024 * 1024;
const MAX_MODEL_BYTES = 512 * 1024 * 1024;
const MAX_SPEAKERS = 1000;

/** Language names and codes (ISO 639-1, 639-2/3, English names) of the languages Ijwi speaks. */
const LANGUAGES: Readonly<Record<string, PackLanguage>> = {
  en: 'en',
  eng: 'en',
  english: 'en',
  fr: 'fr',
  fra: 'fr',
  fre: 'fr',
  french: 'fr',
  rw: 'rw',
  kin: 'rw',
  kinyarwanda: 'rw',
};

/** The first of `candidates` (`en_US`, `en-us`, `English`, `kin`) that names a language Ijwi speaks. */
function languageOf(candidates: readonly (string | undefined)[]): PackLanguage | undefined {
  for (const candidate of candidates) {
    const key = candidate
      ?.trim()
      .toLowerCase()
      .split(/[-_ ,(]/)[0];
    const language = key === undefined ? undefined : LANGUAGES[key];
    if (language) return language;
  }
  return undefined;
}

/** Text from the voice's files fit to show: no control characters, at most `max` characters. */
function shown(text: string, max = 100): string {
  return text
    .replace(/\p{Cc}|\p{Cf}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/** A small file's text, or undefined when it is missing, not a file or too large. */
async function smallText(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_SMALL_FILE) return undefined;
  return readFile(path, 'utf8');
}

/** The espeak-ng data a Piper voice without its own is given, or the problem. */
async function espeakDataFor(folder: string, options: PublishedVoiceOptions): Promise<string | string[]> {
  if (await isDirectory(join(folder, ESPEAK_DATA_FOLDER))) return join(folder, ESPEAK_DATA_FOLDER);
  if (options.espeakData !== undefined) {
    return (await isDirectory(options.espeakData))
      ? options.espeakData
      : [`--espeak-data ${options.espeakData} is not a folder`];
  }
  for (const candidate of SYSTEM_ESPEAK_DATA) if (await isDirectory(candidate)) return candidate;
  return [
    "a Piper voice needs espeak-ng's data, which this system lacks: install Debian's espeak-ng-data, or give --espeak-data FOLDER",
  ];
}

/** The speakers a config or the model's metadata name; `speaker N` where neither names them. */
function speakersOf(count: number, names: Readonly<Record<string, number>> | undefined, single: string) {
  if (count <= 1) return [{ id: 0, name: shown(single) || 'speaker 0' }];
  const named = new Map<number, string>();
  for (const [name, id] of Object.entries(names ?? {})) {
    if (id < count && !named.has(id) && shown(name)) named.set(id, shown(name));
  }
  return Array.from({ length: Math.min(count, MAX_SPEAKERS) }, (_, id) => ({
    id,
    name: named.get(id) ?? `speaker ${id}`,
  }));
}

/** The licence and dataset the voice's model card gives, if it has one. */
async function cardOf(folder: string) {
  for (const file of CARD_FILES) {
    const text = await smallText(join(folder, file));
    if (text !== undefined) return readModelCard(text);
  }
  return { licence: undefined, datasetUrl: undefined };
}

/**
 * What `folder` is checked with: its own manifest (undefined), or for a voice as published the
 * manifest made for it from its files and `published`; else the problems.
 */
export async function packSourceOf(
  folder: string,
  published: PublishedVoiceOptions = {},
): Promise<PackSource | undefined | string[]> {
  if (!(await hasManifest(folder))) return describePublishedVoice(folder, published);
  if (Object.keys(published).length === 0) return undefined;
  return [
    `the pack's ${MANIFEST_FILE} states its name, language and licence: the options for a voice as published (--licence, --name, --language, --espeak-data) do not apply`,
  ];
}

/**
 * The manifest of the voice in `folder`, as published by Piper or converted by sherpa-onnx, with
 * where its espeak-ng data is; or the problems that keep it from being a pack.
 */
async function describePublishedVoice(
  folder: string,
  options: PublishedVoiceOptions = {},
): Promise<PackSource | string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return [`${folder} is not a folder`];
  const models = entries.filter((e) => e.isFile() && e.name.endsWith('.onnx')).map((e) => e.name);
  if (models.length !== 1) {
    return [
      models.length === 0
        ? 'the folder holds no ijwi-voice.json and no .onnx model (a Piper voice or a sherpa-onnx voice folder)'
        : `the folder holds several models (${models.sort().join(', ')}): give a folder with one`,
    ];
  }
  const model = models[0] as string;
  const stem = model.slice(0, -'.onnx'.length);
  const card = await cardOf(folder);
  const licence = options.licence ?? card.licence ?? UNKNOWN_LICENCE;
  const configText = await smallText(join(folder, `${model}.json`));
  const config = configText === undefined ? undefined : readPiperConfig(configText);
  const sherpa = entries.some((e) => e.isFile() && e.name === TOKENS_FILE);
  // A converted voice needs its config for its speakers' names only; Piper's needs all of it.
  if (typeof config === 'string' && !sherpa) return [`the Piper config ${model}.json ${config}`];
  const piperConfig = typeof config === 'string' ? undefined : config;
  // What its makers call the voice: the model's file name, or its folder's for a `model.onnx`.
  const published = stem === 'model' ? basename(folder) : stem;
  const described = sherpa
    ? await sherpaVoice(folder, model, piperConfig, options)
    : piperConfig === undefined
      ? [
          `${model} has no ${model}.json beside it, nor a ${TOKENS_FILE}: it is not a Piper or sherpa-onnx voice`,
        ]
      : await piperVoice(folder, model, piperConfig, options);
  if (Array.isArray(described)) return described;
  const origin = sherpa
    ? `${described.manifest.kind === 'piper' ? 'Piper' : 'MMS'} voice converted by sherpa-onnx`
    : 'Piper voice';
  const attribution = shown(
    `${origin}: ${published}${card.datasetUrl ? `; dataset: ${card.datasetUrl}` : ''}`,
    1000,
  );
  const name = shown(options.name ?? published);
  return { ...described, manifest: { name, model, licence, ...described.manifest, attribution } };
}

type Described = { manifest: Record<string, unknown>; espeakDataPath?: string } | string[];

/** Piper's layout: everything from the config; the espeak-ng data from beside it or the system. */
async function piperVoice(
  folder: string,
  model: string,
  config: PiperConfig,
  options: PublishedVoiceOptions,
): Promise<Described> {
  const language =
    options.language ??
    languageOf([config.language?.family, config.language?.code, piperEspeakVoice(config)]);
  if (language === undefined) return [notSpoken(config.language?.code ?? piperEspeakVoice(config))];
  const espeakData = await espeakDataFor(folder, options);
  if (Array.isArray(espeakData)) return espeakData;
  return {
    manifest: {
      kind: 'piper',
      language,
      sampleRate: piperSampleRate(config),
      speakers: speakersOf(config.num_speakers, config.speaker_id_map, config.dataset ?? model),
      piperConfig: `${model}.json`,
      espeakData: ESPEAK_DATA_FOLDER,
    },
    espeakDataPath: espeakData,
  };
}

/** sherpa-onnx's layout: the model's metadata says what the voice is. */
async function sherpaVoice(
  folder: string,
  model: string,
  config: PiperConfig | undefined,
  options: PublishedVoiceOptions,
): Promise<Described> {
  const info = await stat(join(folder, model));
  if (info.size > MAX_MODEL_BYTES) return [`the model ${model} is larger than ${MAX_MODEL_BYTES} bytes`];
  let metadata: ReadonlyMap<string, string>;
  try {
    metadata = readOnnxModel(await readFile(join(folder, model))).metadata;
  } catch (error) {
    return [`the model ${model} is not an ONNX model (${error instanceof Error ? error.message : error})`];
  }
  const comment = metadata.get('comment') ?? '';
  const kind = comment.includes('piper')
    ? 'piper'
    : comment.includes('mms') || metadata.get('frontend') === 'characters'
      ? 'mms'
      : undefined;
  if (kind === undefined) {
    return [
      `the model's metadata says comment=${shown(comment, 40) || '(none)'}: Ijwi speaks Piper and MMS voices`,
    ];
  }
  const sampleRate = Number(metadata.get('sample_rate'));
  if (!Number.isInteger(sampleRate)) return ["the model's metadata has no sample_rate"];
  const language =
    options.language ??
    languageOf([config?.language?.family, metadata.get('language'), metadata.get('voice')]);
  if (language === undefined) return [notSpoken(metadata.get('language') ?? 'an unnamed language')];
  const espeakData = kind === 'piper' ? await espeakDataFor(folder, options) : undefined;
  if (Array.isArray(espeakData)) return espeakData;
  const count = Number(metadata.get('n_speakers') ?? 1);
  return {
    manifest: {
      kind,
      language,
      sampleRate,
      speakers: speakersOf(
        Number.isInteger(count) ? count : 1,
        config?.speaker_id_map,
        config?.dataset ?? basename(folder),
      ),
      tokens: TOKENS_FILE,
      ...(espeakData ? { espeakData: ESPEAK_DATA_FOLDER } : {}),
    },
    ...(espeakData ? { espeakDataPath: espeakData } : {}),
  };
}

function notSpoken(language: string): string {
  return `the voice speaks ${shown(language, 40)}, not Kinyarwanda, English or French (give --language rw|en|fr if it does)`;
}

/** A licence the operator states on the command line; whether it allows commercial use is told from its name when not said. */
export function statedLicence(
  name: string,
  url: string | undefined,
  commercial: boolean | null | undefined,
): PackLicence {
  return {
    name: shown(name),
    url: url ?? null,
    commercial: commercial === undefined ? allowsCommercialUse(`${name} ${url ?? ''}`) : commercial,
  };
}
