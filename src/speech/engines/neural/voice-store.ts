import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withMetadata } from './onnx-model.ts';
import { piperMetadata, piperTokens } from './piper-voice.ts';
import { type PublishedVoiceOptions, packSourceOf } from './published-voice.ts';
import {
  checkVoicePack,
  MANIFEST_FILE,
  type VoicePack,
  type VoicePackCheck,
  type VoicePackManifest,
} from './voice-pack.ts';

/**
 * The installed voice packs of one instance: a folder each under the voices directory
 * (`DATA_DIR/voices`), named by an id made from the pack's name. A pack is checked before it is
 * copied, only the files its manifest names are copied (never a link), the copy is made under a
 * temporary name and renamed into place, so a half-copied pack is never installed, and the copy
 * is checked again. A raw Piper voice is converted on the way (`piper-voice.ts`): the copy of its
 * model gets the metadata the runtime needs, and a tokens file is written from its config. A
 * voice without our manifest, as Piper or sherpa-onnx publish it, gets one written from its own
 * files (`published-voice.ts`).
 */

/** The tokens file a raw Piper voice gets when it is installed. */
const PIPER_TOKENS_FILE = 'tokens.txt';

export interface InstalledVoice {
  readonly id: string;
  readonly manifest: VoicePackManifest;
}

export type InstallResult =
  | { readonly ok: true; readonly voice: InstalledVoice }
  | { readonly ok: false; readonly problems: readonly string[] };

/** An installed pack's id: lower-case letters, digits and dashes, from its name. */
export const VOICE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function voiceId(name: string): string {
  const id = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return id || 'voice';
}

/** The links in `path` (itself or anything below it): a pack holds none. */
async function linksIn(path: string): Promise<string[]> {
  const info = await lstat(path);
  if (info.isSymbolicLink()) return [path];
  if (!info.isDirectory()) return [];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isSymbolicLink()).map((entry) => join(entry.parentPath, entry.name));
}

export class VoiceStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * Checks the pack in `folder` and installs a copy of it; refuses one already installed. A
   * folder without our manifest is taken as its makers publish it, with `published`'s name,
   * language, licence and espeak-ng data where its files do not say.
   */
  async install(folder: string, published: PublishedVoiceOptions = {}): Promise<InstallResult> {
    const given = await packSourceOf(folder, published);
    if (Array.isArray(given)) return { ok: false, problems: given };
    const check = await checkVoicePack(folder, given);
    if (!check.ok) return check;
    const { pack } = check;
    const id = voiceId(pack.manifest.name);
    const target = join(this.#dir, id);
    if (await lstat(target).catch(() => undefined)) {
      return { ok: false, problems: [`a voice ${id} is installed already: remove it first`] };
    }
    const { manifest } = pack;
    const named = [given ? undefined : MANIFEST_FILE, manifest.model, manifest.tokens, manifest.piperConfig];
    const files = named
      .filter((name): name is string => name !== undefined)
      .map((name) => join(folder, name));
    if (pack.espeakDataPath !== undefined) files.push(pack.espeakDataPath);
    const links = (await Promise.all(files.map(linksIn))).flat();
    if (links.length > 0) return { ok: false, problems: [`a pack holds no links: ${links[0]}`] };
    await mkdir(this.#dir, { recursive: true });
    const partial = join(this.#dir, `.partial-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(partial);
      await copyPack(pack, partial);
      const copied = await checkVoicePack(partial);
      if (!copied.ok) return copied;
      await rename(partial, target);
      return { ok: true, voice: { id, manifest: copied.pack.manifest } };
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
  /** The installed packs by id, each checked again (a file may have changed since it was installed). */
  async list(): Promise<{ readonly id: string; readonly check: VoicePackCheck }[]> {
    const entries = await readdir(this.#dir, { withFileTypes: true }).catch(() => []);
    const ids = entries
      .filter((entry) => entry.isDirectory() && VOICE_ID.test(entry.name))
      .map((entry) => entry.name)
      .sort();
    return Promise.all(ids.map(async (id) => ({ id, check: await checkVoicePack(join(this.#dir, id)) })));
  }

  /** Removes an installed pack; false when there is none of that id. */
  async remove(id: string): Promise<boolean> {
    if (!VOICE_ID.test(id)) return false;
    const target = join(this.#dir, id);
    if (!(await lstat(target).catch(() => undefined))?.isDirectory()) return false;
    await rm(target, { recursive: true, force: true });
    return true;
  }
}

/**
 * Copies the files of a checked pack into `into`, converting a raw Piper voice, and writes its
 * manifest as checked (a pack as published has none of its own).
 */
async function copyPack(pack: VoicePack, into: string): Promise<void> {
  const { manifest, folder } = pack;
  if (manifest.espeakData !== undefined && pack.espeakDataPath !== undefined) {
    await cp(pack.espeakDataPath, join(into, manifest.espeakData), { recursive: true });
  }
  const write = (installed: VoicePackManifest) =>
    writeFile(join(into, MANIFEST_FILE), JSON.stringify(installed, null, 2));
  if ('path' in pack.tokens) {
    await cp(join(folder, manifest.model), join(into, manifest.model));
    await cp(pack.tokens.path, join(into, manifest.tokens ?? PIPER_TOKENS_FILE));
    await write(manifest);
    return;
  }
  const config = pack.tokens.piper;
  const model = await readFile(pack.modelPath);
  await writeFile(join(into, manifest.model), withMetadata(model, piperMetadata(config)));
  await writeFile(join(into, PIPER_TOKENS_FILE), piperTokens(config));
  const { piperConfig: _, ...converted } = manifest;
  await write({ ...converted, tokens: PIPER_TOKENS_FILE });
}
