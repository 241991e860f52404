import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkVoicePack, MANIFEST_FILE, type VoicePackCheck, type VoicePackManifest } from './voice-pack.ts';

/**
 * The installed voice packs of one instance: a folder each under the voices directory
 * (`DATA_DIR/voices`), named by an id made from the pack's name. A pack is checked before it is
 * copied, only the files its manifest names are copied (never a link), the copy is made under a
 * temporary name and renamed into place, so a half-copied pack is never installed, and the copy
 * is checked again.
 */

export interface InstalledVoice {
  readonly id: string;
  readonly manifest: VoicePackManifest;
}

export type InstallResult =
  | { readonly ok: true; readonly voice: InstalledVoice }
  | { readonly ok: false; readonly problems: readonly string[] };

/** An installed pack's id: lower-case letters, digits and dashes, from its name. */
const VOICE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

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

  /** Checks the pack in `folder` and installs a copy of it; refuses one already installed. */
  async install(folder: string): Promise<InstallResult> {
    const check = await checkVoicePack(folder);
    if (!check.ok) return check;
    const { pack } = check;
    const id = voiceId(pack.manifest.name);
    const target = join(this.#dir, id);
    if (await lstat(target).catch(() => undefined)) {
      return { ok: false, problems: [`a voice ${id} is installed already: remove it first`] };
    }
    const files = [MANIFEST_FILE, pack.manifest.model, pack.manifest.tokens, pack.manifest.espeakData].filter(
      (name): name is string => name !== undefined,
    );
    const links = (await Promise.all(files.map((name) => linksIn(join(folder, name))))).flat();
    if (links.length > 0) return { ok: false, problems: [`a pack holds no links: ${links[0]}`] };
    await mkdir(this.#dir, { recursive: true });
    const partial = join(this.#dir, `.partial-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(partial);
      for (const name of files) await cp(join(folder, name), join(partial, name), { recursive: true });
      const copied = await checkVoicePack(partial);
      if (!copied.ok) return copied;
      await rename(partial, target);
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
    return { ok: true, voice: { id, manifest: pack.manifest } };
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
