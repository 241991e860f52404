import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { NeuralVoice } from '../engines/neural/neural-engine.ts';
import {
  AssignmentsFileError,
  type VoiceAssignment,
  VoiceAssignments,
} from '../engines/neural/voice-assignments.ts';
import { checkVoicePack } from '../engines/neural/voice-pack.ts';
import { VOICE_ID } from '../engines/neural/voice-store.ts';
import { builtInVoices, type Voice } from './voices.ts';

/**
 * The voices the installed packs speak in place of built-in ones (`voice-assignments.ts`), each
 * checked again as the runtime will see it: the pack installed and whole, of the voice's
 * language, with the speaker named. A voice keeps its slot's name, group and gender; its engine,
 * sample rate and licence are the pack's.
 */

/** The voice that `assignment` makes, or the problems that keep the built-in one in its place. */
export async function assignedVoice(
  voicesDir: string,
  assignment: VoiceAssignment,
): Promise<Voice | string[]> {
  const slot = `${assignment.language}/${assignment.speakerId}`;
  const builtIn = builtInVoices.find(
    (v) => v.language === assignment.language && v.speakerId === assignment.speakerId,
  );
  if (!builtIn) return [`there is no voice ${slot} to assign`];
  // An id is a folder name inside the voices directory, never a path out of it.
  if (!VOICE_ID.test(assignment.voice)) return [`no voice pack ${assignment.voice} is installed`];
  const check = await checkVoicePack(join(voicesDir, assignment.voice));
  if (!check.ok) return check.problems.map((problem) => `${assignment.voice}: ${problem}`);
  const { manifest, modelPath, espeakDataPath, tokens } = check.pack;
  const problems: string[] = [];
  if (manifest.language !== assignment.language)
    problems.push(`${assignment.voice} speaks ${manifest.language}, not ${assignment.language}`);
  const speaker = manifest.speakers.find((s) => s.id === assignment.speaker);
  if (!speaker) {
    const ids = manifest.speakers.map((s) => s.id).join(', ');
    problems.push(`${assignment.voice} has no speaker ${assignment.speaker} (its speakers: ${ids})`);
  }
  // An installed pack always has its tokens file: a raw Piper voice gets one when it is installed.
  if (!('path' in tokens)) problems.push(`${assignment.voice} is not installed (a raw Piper voice)`);
  if (problems.length > 0 || !speaker || !('path' in tokens)) return problems;
  // The slot's name, group and gender, not its loudness: the pack's speaker has its own gain, or none yet.
  const { gainDb: _slotGain, ...slotVoice } = builtIn;
  const engineVoice: NeuralVoice = {
    engine: 'neural',
    pack: {
      model: modelPath,
      tokens: tokens.path,
      ...(espeakDataPath ? { espeakData: espeakDataPath } : {}),
    },
    sampleRate: manifest.sampleRate,
    speaker: speaker.id,
  };
  return {
    ...slotVoice,
    ...(speaker.gainDb === undefined ? {} : { gainDb: speaker.gainDb }),
    sampleRate: manifest.sampleRate,
    engineVoice,
    pack: {
      id: assignment.voice,
      version: await digestOf([modelPath, tokens.path]),
      name: manifest.name,
      speaker: speaker.name,
      licence: manifest.licence,
      attribution: manifest.attribution,
    },
  };
}

/** A digest of the files' contents, read as streams (a model may be tens of MB). */
async function digestOf(paths: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const path of paths) {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  }
  return hash.digest('base64url');
}

/**
 * Every assigned voice that can be spoken, and the problems of those that cannot: the service
 * speaks the built-in voice in their place and says why, rather than fail to start.
 */
export async function loadAssignedVoices(
  voicesDir: string,
): Promise<{ readonly voices: readonly Voice[]; readonly problems: readonly string[] }> {
  let assignments: VoiceAssignment[];
  try {
    assignments = await new VoiceAssignments(voicesDir).read();
  } catch (error) {
    if (error instanceof AssignmentsFileError) return { voices: [], problems: [error.message] };
    throw error;
  }
  const voices: Voice[] = [];
  const problems: string[] = [];
  for (const assignment of assignments) {
    const voice = await assignedVoice(voicesDir, assignment);
    if (Array.isArray(voice))
      problems.push(`${assignment.language}/${assignment.speakerId}: ${voice.join('; ')}`);
    else voices.push(voice);
  }
  return { voices, problems };
}
