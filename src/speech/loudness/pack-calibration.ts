import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE, type VoicePackManifest } from '../engines/neural/voice-pack.ts';
import { EnginePool } from '../pool/engine-pool.ts';
import { assignedVoice } from '../voices/assigned-voices.ts';
import { calibrate } from './calibration.ts';

/**
 * A voice pack's speakers measured as the built-in voices are (`calibration.ts`: the same
 * sentences, meter and gain rule, through the same pipeline) and each one's gain written into the
 * installed pack's manifest, where the service reads it when the speaker is assigned to a voice.
 * Measuring a speaker takes a few seconds of a neural voice's synthesis, so `voice install` measures
 * the first `SPEAKERS_AT_INSTALL` and `voice assign` any other it is given.
 */

/** The speakers `voice install` measures; a pack of hundreds (LibriTTS's) gets the rest measured when assigned. */
export const SPEAKERS_AT_INSTALL = 4;

/** One speaker's measurement: its loudness as the pack makes it and its gain, or why it has none. */
export type SpeakerCalibration =
  | { readonly speaker: number; readonly measuredLufs: number; readonly gainDb: number }
  | { readonly speaker: number; readonly problem: string };

/**
 * Measures `speakers` of the installed pack `id` and records their gains in its manifest. A
 * speaker that cannot be measured (the runtime fails on it, or it makes only silence) is
 * reported and keeps no gain: the service then speaks it as the pack makes it, under the same
 * true-peak ceiling, and the voices listing gives its loudness as unknown.
 */
export async function calibratePackSpeakers(
  voicesDir: string,
  id: string,
  speakers: readonly number[],
): Promise<SpeakerCalibration[]> {
  const folder = join(voicesDir, id);
  const manifest = JSON.parse(await readFile(join(folder, MANIFEST_FILE), 'utf8')) as VoicePackManifest;
  const results: SpeakerCalibration[] = [];
  const pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  try {
    for (const speaker of speakers) {
      // Any voice of the pack's language serves as the slot: only the pack's speaker is measured.
      const slot = { voice: id, language: manifest.language, speakerId: 0, speaker };
      const voice = await assignedVoice(voicesDir, slot);
      if (Array.isArray(voice)) {
        results.push({ speaker, problem: voice.join('; ') });
        continue;
      }
      const measured = await calibrate(pool, voice).catch((error: unknown) =>
        error instanceof Error ? error.message : String(error),
      );
      if (typeof measured === 'string') results.push({ speaker, problem: measured });
      else if (measured === undefined)
        results.push({ speaker, problem: 'it made no audio loud enough to measure' });
      else results.push({ speaker, ...measured });
    }
  } finally {
    await pool.close();
  }
  const gains = new Map(results.flatMap((r) => ('gainDb' in r ? [[r.speaker, r.gainDb] as const] : [])));
  if (gains.size > 0) {
    const updated: VoicePackManifest = {
      ...manifest,
      speakers: manifest.speakers.map((s) => (gains.has(s.id) ? { ...s, gainDb: gains.get(s.id) } : s)),
    };
    // Written beside and renamed over, so a manifest is never half written.
    const partial = join(folder, `.${MANIFEST_FILE}.partial`);
    await writeFile(partial, JSON.stringify(updated, null, 2));
    await rename(partial, join(folder, MANIFEST_FILE));
  }
  return results;
}
