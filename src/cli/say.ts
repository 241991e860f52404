import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DictionaryService } from '../accounts/dictionaries.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { parseStreamFormat, type StreamFormat } from '../speech/audio/formats.ts';
import { wavHeader } from '../speech/audio/wav.ts';
import { audioBoundSeconds } from '../speech/audio-bound.ts';
import { engines, frontEndOf } from '../speech/engines/registry.ts';
import type { SpeechDocument } from '../speech/input/document.ts';
import { readInputText } from '../speech/input/input-text.ts';
import { EnginePool } from '../speech/pool/engine-pool.ts';
import { type AudioTarget, type SynthesisRequest, synthesize } from '../speech/synthesize.ts';
import { splitClauses } from '../speech/text/clauses.ts';
import { withPronunciations } from '../speech/text/lexicon.ts';
import { withoutMarks } from '../speech/text/word-language/marks.ts';
import { loadAssignedVoices } from '../speech/voices/assigned-voices.ts';
import { allVoices, findVoice, useAssignedVoices, type Voice } from '../speech/voices/voices.ts';
import { openDatabase } from '../store/db/open-database.ts';
import { codePointCount } from '../unicode.ts';

const usage = `usage: npm run say -- [options] "text to speak"

  --language, -l   rw (default), en or fr
  --speaker, -s    speaker_id (default 0; 0-2 for rw and fr, 0-4 for en)
  --format, -f     pcm16_8k, pcm16_16k, pcm16_24k, mulaw_8k, alaw_8k;
                   default: the voice's own rate (22050 Hz; Flite 16000), 16-bit
  --out, -o        file to write: a WAV file, or raw audio with --raw
  --raw            write the bare audio bytes, as the streaming API sends them
  --ssml           read the text as an SSML <speak> document, as the API's
                   "text_type": "ssml" does
  --account        ACCOUNT_ID: say it with that account's pronunciation lexicon, read
                   from the service's database (DATABASE_URL, else DATA_DIR/ijwi.sqlite)
  --show           normalized: print the text as it will be spoken
                   phonemes: print the phonemes of each chunk
                   engine: list every voice with the engine that speaks it
                   (all without synthesising)
  --each-line      with --show: read each line of the text as a text of its own
                   and print what each gives on a line of its own, in order
                   (many checks in one run)`;

class UsageError extends Error {}

// A one-off command gains nothing from warming the engine first.
const noWarmUp = { samples: [], outputs: [] };

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      language: { type: 'string', short: 'l', default: 'rw' },
      speaker: { type: 'string', short: 's', default: '0' },
      format: { type: 'string', short: 'f' },
      out: { type: 'string', short: 'o' },
      raw: { type: 'boolean', default: false },
      ssml: { type: 'boolean', default: false },
      show: { type: 'string' },
      account: { type: 'string' },
      'each-line': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) throw new UsageError('');
  if (values.show === 'engine') return { show: 'engine' } as const;
  const text = positionals.join(' ').trim();
  if (!text) throw new UsageError('give the text to speak');
  const speakerId = Number(values.speaker);
  const voice = findVoice(values.language, speakerId);
  if (!voice)
    throw new UsageError(`no voice for language "${values.language}" and speaker ${values.speaker}`);
  let format: StreamFormat | undefined;
  if (values.format !== undefined) {
    format = parseStreamFormat(values.format);
    if (!format) throw new UsageError(`unknown format "${values.format}"`);
  }
  if (values.show !== undefined && values.show !== 'normalized' && values.show !== 'phonemes') {
    throw new UsageError('--show takes normalized, phonemes or engine');
  }
  if (values['each-line'] && values.show === undefined) throw new UsageError('--each-line needs --show');
  if (values.show === undefined && !values.out) throw new UsageError('give --out FILE');
  if (values.raw && !format) throw new UsageError('--raw needs --format');
  // The same gate as the API: control characters refused, SSML parsed by Ijwi, never the engine.
  const textType = values.ssml ? 'ssml' : 'text';
  const texts = values['each-line'] ? text.split(/\r?\n/).filter((line) => line.trim() !== '') : [text];
  const speeches = texts.map((input, index) => {
    const read = readInputText(input, textType, voice);
    if (!read.ok)
      throw new UsageError(texts.length > 1 ? `line ${index + 1}: ${read.message}` : read.message);
    return {
      document: read.document,
      maxSeconds: audioBoundSeconds(voice.language, codePointCount(input), textType),
    };
  });
  if (speeches.length === 0) throw new UsageError('give the text to speak');
  return {
    text,
    speeches,
    textType,
    voice,
    format,
    out: values.out,
    raw: values.raw,
    show: values.show,
    account: values.account,
  } as const;
}

/** Every voice of the catalogue with the engine that speaks it. */
function showEngines(): void {
  for (const voice of allVoices()) {
    const engine = engines[voice.engineVoice.engine];
    process.stdout.write(
      `${voice.language} ${voice.speakerId} ${voice.name}: ${engine.name} (${engine.id})\n`,
    );
  }
}

/** The document as it will be spoken: text normalised, words as given, IPA between slashes. */
function spokenText(document: SpeechDocument, voice: Voice): string {
  const frontEnd = frontEndOf(voice);
  return document.segments
    .map((s) => {
      if (s.kind === 'text') return frontEnd.normalize(s.text);
      if (s.kind === 'words') return frontEnd.readable(s.text);
      return s.kind === 'phonemes' ? ` /${s.ipa}/ ` : ' ';
    })
    .join('')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

async function show(
  what: 'normalized' | 'phonemes',
  document: SpeechDocument,
  voice: Voice,
  engines: SharedPool,
): Promise<void> {
  const frontEnd = frontEndOf(voice);
  const normalized = spokenText(document, voice);
  if (what === 'normalized') {
    process.stdout.write(`${withoutMarks(normalized)}\n`);
    return;
  }
  const clauses = splitClauses(normalized).map((clause) => ({ clause, input: frontEnd.engineInput(clause) }));
  const { ipa } = frontEnd;
  // Only a clause with words of another language needs the engine, when the front-end knows IPA.
  if (ipa && clauses.every(({ input }) => input?.kind !== 'mixed')) {
    for (const { clause } of clauses) process.stdout.write(`${ipa(clause)}\n`);
    return;
  }
  const pool = await engines.get();
  for (const { clause, input } of clauses) {
    const line =
      ipa && input?.kind !== 'mixed'
        ? ipa(clause)
        : input
          ? await pool.phonemes(input, voice.engineVoice)
          : '';
    process.stdout.write(`${line}\n`);
  }
}

/**
 * One engine pool for every text of a run, started by the first that needs the engine: starting
 * one costs far more than a clause's phonemes, and `--each-line` runs read hundreds of texts.
 */
interface SharedPool {
  get(): Promise<EnginePool>;
  close(): Promise<void>;
}

function sharedPool(): SharedPool {
  let started: Promise<EnginePool> | undefined;
  return {
    get: () => {
      started ??= EnginePool.start({ size: 1, warmUp: noWarmUp });
      return started;
    },
    close: async () => {
      await (await started)?.close();
    },
  };
}

async function speak(
  speech: Pick<SynthesisRequest, 'document' | 'maxSeconds'>,
  voice: Voice,
  format: StreamFormat | undefined,
  out: string,
  raw: boolean,
) {
  const target: AudioTarget = format ? { kind: 'stream', format } : { kind: 'native' };
  const pool = await EnginePool.start({ size: 1, warmUp: noWarmUp });
  try {
    const parts: Uint8Array[] = [];
    let summary = '';
    for await (const event of synthesize(pool, { ...speech, voice, target })) {
      if (event.type === 'audio') parts.push(event.bytes);
      else if (event.type === 'end')
        summary = `${event.seconds.toFixed(2)} s at ${event.sampleRate} Hz, ${event.bytes} bytes of audio`;
    }
    const audio = Buffer.concat(parts);
    const encoding = format?.encoding ?? 'pcm_s16le';
    const sampleRate = format?.sampleRate ?? voice.sampleRate;
    const file = raw ? [audio] : [wavHeader(audio.byteLength, sampleRate, encoding), audio];
    await writeFile(out, Buffer.concat(file));
    process.stderr.write(
      `${out}: ${voice.name} (${voice.language}, speaker ${voice.speakerId}), ${summary}\n`,
    );
  } finally {
    await pool.close();
  }
}

/** The voices the service speaks: the built-in ones, with the voice packs assigned in its DATA_DIR. */
async function useServiceVoices(): Promise<void> {
  const assigned = await loadAssignedVoices(loadConfig().voicesDir);
  for (const problem of assigned.problems) process.stderr.write(`voice pack not used: ${problem}\n`);
  useAssignedVoices(assigned.voices);
}

async function main(): Promise<void> {
  try {
    await useServiceVoices();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  let args: ReturnType<typeof parseCommandLine>;
  try {
    args = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError || (error instanceof TypeError && 'code' in error))) throw error;
    process.stderr.write(`${error.message ? `${error.message}\n\n` : ''}${usage}\n`);
    process.exitCode = error.message ? 2 : 0;
    return;
  }
  if (args.show === 'engine') {
    showEngines();
    return;
  }
  let speeches = args.speeches;
  if (args.account !== undefined) {
    try {
      speeches = await withAccountLexicon(args.account, args);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
      return;
    }
  }
  const [speech] = speeches;
  if (args.show === 'normalized' || args.show === 'phonemes') {
    const engines = sharedPool();
    try {
      for (const each of speeches) await show(args.show, each.document, args.voice, engines);
    } finally {
      await engines.close();
    }
  } else if (args.out && speech) await speak(speech, args.voice, args.format, args.out, args.raw);
}

/** Each speech with the account's lexicon applied, read from the service's own database. */
async function withAccountLexicon(
  accountId: string,
  args: Pick<
    Extract<ReturnType<typeof parseCommandLine>, { text: string }>,
    'speeches' | 'voice' | 'textType'
  >,
): Promise<Pick<SynthesisRequest, 'document' | 'maxSeconds'>[]> {
  const db = await openDatabase(loadConfig().database);
  try {
    if ((await db.accounts.find(accountId)) === undefined) throw new UsageError(`no account ${accountId}`);
    const choice = await new DictionaryService(db.dictionaries).lexiconFor(accountId, args.voice.language);
    if (!choice.ok) throw new UsageError(choice.message);
    const { lexicon } = choice;
    return args.speeches.map((speech) =>
      withPronunciations(speech, lexicon, args.voice.language, args.textType),
    );
  } finally {
    await db.close();
  }
}

await main();
