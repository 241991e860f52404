import { stat } from 'node:fs/promises';
import {
  PackArchiveError,
  type UnpackedPack,
  unpackArchive,
} from '../../speech/engines/neural/pack-archive.ts';
import { downloadPack, PackDownloadError } from '../../speech/engines/neural/pack-download.ts';
import {
  type PublishedVoiceOptions,
  packSourceOf,
  statedLicence,
} from '../../speech/engines/neural/published-voice.ts';
import { AssignmentsFileError, VoiceAssignments } from '../../speech/engines/neural/voice-assignments.ts';
import { checkVoicePack, type VoicePackManifest } from '../../speech/engines/neural/voice-pack.ts';
import { type InstallResult, VoiceStore } from '../../speech/engines/neural/voice-store.ts';
import { LOUDNESS_TARGET_LUFS } from '../../speech/loudness/calibration.ts';
import {
  calibratePackSpeakers,
  SPEAKERS_AT_INSTALL,
  type SpeakerCalibration,
} from '../../speech/loudness/pack-calibration.ts';
import { assignedVoice } from '../../speech/voices/assigned-voices.ts';
import {
  type Command,
  Refused,
  required,
  table,
  UsageError,
  type Values,
  wholeNumber,
} from './command-line.ts';

// The voice packs tool: checks, installs, lists, removes neural voice packs and assigns them to
// voices. Files only (DATA_DIR/voices), no database.

/** Where the packs live: read from the configuration only when a command needs it. */
export interface VoicePackPlace {
  readonly voicesDir: () => string;
}

type VoicePackCommand = Command<VoicePackPlace>;

/** A voice of the catalogue, by its public identity. */
interface VoiceSlot {
  readonly language: 'rw' | 'en' | 'fr';
  readonly speakerId: number;
}

/** Every command of the voice packs tool, in the order the usage lists them. */
export const voicePackCommands: readonly VoicePackCommand[] = [
  {
    name: 'voice check',
    usage: [
      ['[--folder] FOLDER', 'checks a neural voice pack (Piper or MMS, our manifest'],
      ['', 'or as published) before install'],
    ],
    parse: (values) => {
      const folder = required(values, 'folder');
      return async () => {
        const given = await packSourceOf(folder);
        if (Array.isArray(given)) throw refusedPack(given);
        const check = await checkVoicePack(folder, given);
        if (!check.ok) throw refusedPack(check.problems);
        return describePack(check.pack.manifest);
      };
    },
  },
  {
    name: 'voice install',
    usage: [
      ['[--folder] FOLDER', 'checks it and installs a copy in DATA_DIR/voices'],
      ['[--file] ARCHIVE', 'the same from a .tar.gz or .tar.bz2 of the folder'],
      ['[--url] URL [--sha256 HEX]', 'the same downloaded'],
      ['', 'a voice as Piper or sherpa-onnx publish it (no'],
      ['', 'ijwi-voice.json) gets one from its own files, with:'],
      ['  [--licence NAME [--licence-url URL] [--commercial yes|no|unknown]]'],
      ['', "its licence; else its MODEL_CARD's, else unknown"],
      ['  [--name NAME] [--language rw|en|fr]', 'when its file names do not say'],
      ['  [--espeak-data FOLDER]', "espeak-ng's data for a Piper voice; else the system's"],
    ],
    parse: (values) => {
      const given = [values.folder, values.file, values.url].filter((v) => v !== undefined);
      if (given.length !== 1) throw new UsageError('give one of --folder, --file or --url');
      if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256))
        throw new UsageError('--sha256 must be 64 hexadecimal digits');
      const published = publishedOptions(values);
      let from: PackSource;
      if (values.url !== undefined) {
        from = { url: values.url, sha256: values.sha256 };
      } else {
        const path = (values.folder ?? values.file ?? '').trim();
        if (!path) throw new UsageError('give --folder or --file');
        from = { path };
      }
      return async ({ voicesDir }) => {
        const unpacked = await packFolder(from);
        try {
          return await installed(
            await new VoiceStore(voicesDir()).install(
              unpacked?.folder ?? ('path' in from ? from.path : ''),
              published,
            ),
            voicesDir(),
          );
        } finally {
          await unpacked?.remove();
        }
      };
    },
  },
  {
    name: 'voice list',
    usage: [['', 'the installed packs, each checked again, and the voices they speak']],
    parse:
      () =>
      async ({ voicesDir }) => {
        const voices = await new VoiceStore(voicesDir()).list();
        if (voices.length === 0) return 'no voice packs installed';
        const assigned = await withAssignments(voicesDir(), (a) => a.read());
        const speaks = (id: string) =>
          assigned
            .filter((a) => a.voice === id)
            .map((a) => `${a.language}/${a.speakerId}`)
            .join(' ') || '-';
        return table(
          ['voice', 'kind', 'language', 'licence', 'speaks', 'state'],
          voices.map(({ id, check }) =>
            check.ok
              ? [
                  id,
                  check.pack.manifest.kind,
                  check.pack.manifest.language,
                  check.pack.manifest.licence.name,
                  speaks(id),
                  'ok',
                ]
              : [id, '-', '-', '-', speaks(id), `broken: ${check.problems[0] ?? ''}`],
          ),
        );
      },
  },
  {
    name: 'voice remove',
    usage: [['[--voice] VOICE_ID', 'refused while it speaks a voice']],
    parse: (values) => {
      const voiceId = required(values, 'voice');
      return async ({ voicesDir }) => {
        const speaking = (await withAssignments(voicesDir(), (a) => a.read())).filter(
          (a) => a.voice === voiceId,
        );
        if (speaking.length > 0) {
          const slots = speaking.map((a) => `${a.language}/${a.speakerId}`).join(', ');
          throw new Refused(`${voiceId} speaks ${slots}: revert first`);
        }
        if (!(await new VoiceStore(voicesDir()).remove(voiceId)))
          throw new Refused(`no voice ${voiceId} is installed`);
        return `removed ${voiceId}`;
      };
    },
  },
  {
    name: 'voice assign',
    usage: [
      ['--voice VOICE_ID --language rw|en|fr --speaker-id N [--pack-speaker N]'],
      ['', 'the pack (its speaker, 0 by default) speaks that voice'],
    ],
    parse: (values) => {
      const voiceId = required(values, 'voice');
      const slot = voiceSlot(values);
      const speaker =
        values['pack-speaker'] === undefined ? 0 : wholeNumber(values['pack-speaker'], 'pack-speaker');
      return async ({ voicesDir }) => {
        const assignment = { ...slot, voice: voiceId, speaker };
        let voice = await assignedVoice(voicesDir(), assignment);
        if (Array.isArray(voice)) throw refusedPack(voice);
        // A speaker the install did not measure is measured now, so the voice is spoken at the target.
        const measured =
          voice.gainDb === undefined ? await calibratePackSpeakers(voicesDir(), voiceId, [speaker]) : [];
        if (measured.length > 0) voice = await assignedVoice(voicesDir(), assignment);
        if (Array.isArray(voice)) throw refusedPack(voice);
        await withAssignments(voicesDir(), (a) => a.assign(assignment));
        const licence = voice.pack?.licence;
        return [
          `${voice.language}/${voice.speakerId} (${voice.name}) is spoken by ${voiceId}, speaker ${speaker} (${voice.pack?.speaker})`,
          ...(licence && licence.commercial !== true
            ? [`licence: ${licence.name}${commercialUse(licence)}`]
            : []),
          ...measured.map(describeCalibration),
          'restart the service to use it',
        ].join('\n');
      };
    },
  },
  {
    name: 'voice revert',
    usage: [
      ['--language rw|en|fr --speaker-id N', 'the built-in voice speaks it again'],
      ['', '(assign and revert take effect when the service starts)'],
    ],
    parse: (values) => {
      const slot = voiceSlot(values);
      return async ({ voicesDir }) => {
        const { language, speakerId } = slot;
        if (!(await withAssignments(voicesDir(), (a) => a.revert(slot))))
          throw new Refused(`no voice pack speaks ${language}/${speakerId}`);
        return `${language}/${speakerId} is the built-in voice again; restart the service to use it`;
      };
    },
  },
];

/**
 * `voice check|install DIR-ARCHIVE-or-URL` and `voice remove VOICE_ID`, the pack named after the
 * command as well as by its option: a URL (http or https) is --url, anything else --folder (a
 * folder or an archive file), or --voice. Any other command line is its words joined, as given.
 */
export function withPackOperand(
  positionals: readonly string[],
  values: Values,
): { command: string; values: Values } {
  const [noun, verb, named, ...rest] = positionals;
  const command = `${noun} ${verb}`;
  if (noun !== 'voice' || named === undefined || rest.length > 0)
    return { command: positionals.join(' '), values };
  if (verb === 'remove') return { command, values: { ...values, voice: values.voice ?? named } };
  if (verb !== 'check' && verb !== 'install') return { command: positionals.join(' '), values };
  if (values.folder !== undefined || values.url !== undefined || values.file !== undefined)
    throw new UsageError(`give the pack once: ${named}, or --folder/--file/--url`);
  const url = verb === 'install' && /^https?:\/\//i.test(named);
  return { command, values: { ...values, ...(url ? { url: named } : { folder: named }) } };
}

/** A folder or an archive file, or a URL. */
type PackSource = { path: string } | { url: string; sha256: string | undefined };

function packLanguage(language: string): VoiceSlot['language'] {
  if (language !== 'rw' && language !== 'en' && language !== 'fr')
    throw new UsageError(`--language must be rw, en or fr, got "${language}"`);
  return language;
}

function voiceSlot(values: Values): VoiceSlot {
  const language = packLanguage(required(values, 'language'));
  const speakerId = wholeNumber(required(values, 'speaker-id'), 'speaker-id');
  if (speakerId > 999) throw new UsageError('--speaker-id must be at most 999');
  return { language, speakerId };
}

/** What the operator says of a voice as published: its licence, name, language, espeak-ng data. */
function publishedOptions(values: Values): PublishedVoiceOptions {
  const { licence, commercial } = values;
  const url = values['licence-url'];
  if (licence === undefined && (url !== undefined || commercial !== undefined))
    throw new UsageError('--licence-url and --commercial go with --licence NAME');
  if (url !== undefined && !/^https?:\/\/[^\s]{1,490}$/i.test(url))
    throw new UsageError('--licence-url must be an http(s) URL');
  if (commercial !== undefined && !['yes', 'no', 'unknown'].includes(commercial))
    throw new UsageError(`--commercial must be yes, no or unknown, got "${commercial}"`);
  if (licence !== undefined && !licence.trim()) throw new UsageError('--licence must name the licence');
  return {
    ...(licence === undefined
      ? {}
      : {
          licence: statedLicence(
            licence,
            url,
            commercial === undefined ? undefined : commercial === 'unknown' ? null : commercial === 'yes',
          ),
        }),
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.language === undefined ? {} : { language: packLanguage(values.language) }),
    ...(values['espeak-data'] === undefined ? {} : { espeakData: values['espeak-data'] }),
  };
}

/** What a licence says of commercial use, for the operator: nothing when it allows it. */
function commercialUse(licence: VoicePackManifest['licence']): string {
  if (licence.commercial === false) return ', NOT for commercial use';
  return licence.commercial === null ? ', commercial use not known: check before selling its audio' : '';
}

function describePack(manifest: VoicePackManifest): string {
  const speakers = manifest.speakers.map((s) => `${s.id} ${s.name}`).join(', ');
  const { licence } = manifest;
  return [
    `${manifest.name}: a ${manifest.kind} voice pack for ${manifest.language}, ${manifest.sampleRate} Hz, speakers ${speakers}`,
    `licence: ${licence.name}${licence.url ? ` (${licence.url})` : ''}${commercialUse(licence)}`,
    `attribution: ${manifest.attribution}`,
  ].join('\n');
}

/** Installs, then measures the first speakers' loudness (`calibratePackSpeakers`) and says what it found. */
async function installed(result: InstallResult, voicesDir: string): Promise<string> {
  if (!result.ok) throw refusedPack(result.problems);
  const { id, manifest } = result.voice;
  const speakers = manifest.speakers.slice(0, SPEAKERS_AT_INSTALL).map((s) => s.id);
  const loudness = await calibratePackSpeakers(voicesDir, id, speakers);
  const rest = manifest.speakers.length - speakers.length;
  return [
    `voice: ${id}`,
    describePack(manifest),
    ...loudness.map(describeCalibration),
    ...(rest > 0 ? [`loudness: the other ${rest} speakers are measured when assigned`] : []),
  ].join('\n');
}

function describeCalibration(result: SpeakerCalibration): string {
  if ('problem' in result) return `loudness of speaker ${result.speaker}: not measured (${result.problem})`;
  const gain = `${result.gainDb >= 0 ? '+' : ''}${result.gainDb}`;
  return `loudness of speaker ${result.speaker}: ${result.measuredLufs.toFixed(1)} LUFS, spoken at ${LOUDNESS_TARGET_LUFS} LUFS (gain ${gain} dB)`;
}

/** Prints a download's progress to stderr, at most once a percent (or once a megabyte). */
function downloadProgress(): (received: number, total: number | undefined) => void {
  let shown = -1;
  return (received, total) => {
    const step =
      total === undefined ? Math.floor(received / 1_048_576) : Math.floor((received / total) * 100);
    if (step === shown) return;
    shown = step;
    process.stderr.write(total === undefined ? `downloaded ${step} MB\n` : `downloaded ${step} %\n`);
  };
}

function refusedPack(problems: readonly string[]): Refused {
  return new Refused(`the voice pack is refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

/** What `use` does with the assignments file; a file that is not ours is a refusal, left as it is. */
async function withAssignments<T>(voicesDir: string, use: (assignments: VoiceAssignments) => Promise<T>) {
  return use(new VoiceAssignments(voicesDir)).catch((error: unknown) => {
    throw error instanceof AssignmentsFileError ? new Refused(error.message) : error;
  });
}

/** The unpacked archive or download to install from; undefined for a folder, installed as it is. */
async function packFolder(from: PackSource): Promise<UnpackedPack | undefined> {
  const refuse = (error: unknown): never => {
    throw error instanceof PackDownloadError || error instanceof PackArchiveError
      ? new Refused(error.message)
      : error;
  };
  // Unpacking a .tar.bz2 of a large voice takes a while (its decoder is JavaScript): say so.
  const unpacking = () => process.stderr.write('unpacking the archive\n');
  if ('url' in from) {
    const options = {
      ...(from.sha256 ? { sha256: from.sha256 } : {}),
      onProgress: downloadProgress(),
      onUnpacking: unpacking,
    };
    return downloadPack(from.url, options).catch(refuse);
  }
  const info = await stat(from.path).catch(() => undefined);
  if (!info) throw new Refused(`${from.path} is neither a folder nor an archive file`);
  if (info.isDirectory()) return undefined;
  unpacking();
  return unpackArchive(from.path).catch(refuse);
}
