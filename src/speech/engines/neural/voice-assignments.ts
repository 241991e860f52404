import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { VOICE_ID } from './voice-store.ts';

/**
 * Which installed pack speaks which voice of the catalogue: `assignments.json` in the voices
 * directory, beside the packs, written by `npm run admin -- voice assign|revert` and read by the
 * service when it starts. Written whole under a temporary name and renamed, so a reader never
 * sees half a file.
 */

const ASSIGNMENTS_FILE = 'assignments.json';
const MAX_ASSIGNMENTS_BYTES = 64 * 1024;

const assignmentSchema = z.strictObject({
  language: z.enum(['rw', 'en', 'fr']),
  speakerId: z.number().int().min(0).max(999),
  /** The installed pack's id. */
  voice: z.string().regex(VOICE_ID, 'an installed voice pack id'),
  /** The pack's speaker. */
  speaker: z.number().int().min(0),
});

export type VoiceAssignment = z.infer<typeof assignmentSchema>;

const fileSchema = z.strictObject({ assignments: z.array(assignmentSchema).max(1000) });

export class AssignmentsFileError extends Error {}

export class VoiceAssignments {
  readonly #dir: string;

  constructor(voicesDir: string) {
    this.#dir = voicesDir;
  }

  /** The assignments, none when there is no file; a file that is not ours throws `AssignmentsFileError`. */
  async read(): Promise<VoiceAssignment[]> {
    const bytes = await readFile(join(this.#dir, ASSIGNMENTS_FILE)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (bytes === undefined) return [];
    if (bytes.length > MAX_ASSIGNMENTS_BYTES)
      throw new AssignmentsFileError(`${ASSIGNMENTS_FILE} is larger than ${MAX_ASSIGNMENTS_BYTES} bytes`);
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new AssignmentsFileError(`${ASSIGNMENTS_FILE} is not JSON`);
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success)
      throw new AssignmentsFileError(
        `${ASSIGNMENTS_FILE}: ${parsed.error.issues[0]?.message ?? 'malformed'}`,
      );
    return parsed.data.assignments;
  }

  /** Sets the pack that speaks (language, speakerId), replacing any there. */
  async assign(assignment: VoiceAssignment): Promise<void> {
    assignmentSchema.parse(assignment);
    const others = (await this.read()).filter((a) => !sameSlot(a, assignment));
    await this.#write([...others, assignment]);
  }

  /** Gives (language, speakerId) back to its built-in voice; false when no pack speaks it. */
  async revert(slot: Pick<VoiceAssignment, 'language' | 'speakerId'>): Promise<boolean> {
    const assignments = await this.read();
    const kept = assignments.filter((a) => !sameSlot(a, slot));
    if (kept.length === assignments.length) return false;
    await this.#write(kept);
    return true;
  }

  async #write(assignments: readonly VoiceAssignment[]): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const partial = join(this.#dir, `.${ASSIGNMENTS_FILE}.${randomBytes(6).toString('hex')}`);
    const sorted = [...assignments].sort(
      (a, b) => a.language.localeCompare(b.language) || a.speakerId - b.speakerId,
    );
    try {
      await writeFile(partial, `${JSON.stringify({ assignments: sorted }, null, 2)}\n`);
      await rename(partial, join(this.#dir, ASSIGNMENTS_FILE));
    } finally {
      await rm(partial, { force: true });
    }
  }
}

function sameSlot(a: Pick<VoiceAssignment, 'language' | 'speakerId'>, b: typeof a): boolean {
  return a.language === b.language && a.speakerId === b.speakerId;
}
