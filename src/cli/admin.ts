import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AccountService, type ApiKeyView } from '../accounts/accounts.ts';
import { BillingService, MINIMUM_TOP_UP, TOKEN_PRICE_US_CENTS } from '../accounts/billing.ts';
import { type LexiconInput, type LexiconResult, LexiconService } from '../accounts/lexicons.ts';
import { TopUpRequestService } from '../accounts/topup-requests.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { assignedVoice } from '../speech/assigned-voices.ts';
import { PackArchiveError, type UnpackedPack, unpackArchive } from '../speech/engines/neural/pack-archive.ts';
import { downloadPack, PackDownloadError } from '../speech/engines/neural/pack-download.ts';
import {
  type PublishedVoiceOptions,
  packSourceOf,
  statedLicence,
} from '../speech/engines/neural/published-voice.ts';
import { AssignmentsFileError, VoiceAssignments } from '../speech/engines/neural/voice-assignments.ts';
import { checkVoicePack, type VoicePackManifest } from '../speech/engines/neural/voice-pack.ts';
import { type InstallResult, VoiceStore } from '../speech/engines/neural/voice-store.ts';
import { LOUDNESS_TARGET_LUFS } from '../speech/loudness/calibration.ts';
import {
  calibratePackSpeakers,
  SPEAKERS_AT_INSTALL,
  type SpeakerCalibration,
} from '../speech/loudness/pack-calibration.ts';
import type { Database, DatabaseSource } from '../store/db/database.ts';
import { openDatabase } from '../store/db/open-database.ts';

const usage = `usage: npm run admin -- <command> [options]

commands:
  account create --name NAME [--email EMAIL]
  key create --account ACCOUNT_ID [--name NAME]   prints the new key, once
  key list --account ACCOUNT_ID
  key revoke --key KEY_ID
  topup --account ACCOUNT_ID --tokens N           at least ${MINIMUM_TOP_UP} tokens
  balance --account ACCOUNT_ID
  ledger --account ACCOUNT_ID [--limit N]         newest first, 50 by default
  topup-requests                                  customers' requests to buy tokens, waiting for payment
  topup-requests approve --request REQUEST_ID     credits the tokens, once, as a top-up
  topup-requests decline --request REQUEST_ID
  lexicon list --account ACCOUNT_ID
  lexicon add --account ACCOUNT_ID --language rw|en|fr --phrase TEXT (--respelling TEXT | --ipa IPA)
    [--word-language rw|en|fr]                    a respelling said as a word of that language
  lexicon remove --account ACCOUNT_ID --entry ENTRY_ID
  voice check [--folder] FOLDER                   checks a neural voice pack (Piper or MMS, our manifest
                                                  or as published) before install
  voice install [--folder] FOLDER                 checks it and installs a copy in DATA_DIR/voices
  voice install [--file] ARCHIVE                  the same from a .tar.gz or .tar.bz2 of the folder
  voice install [--url] URL [--sha256 HEX]        the same downloaded
                                                  a voice as Piper or sherpa-onnx publish it (no
                                                  ijwi-voice.json) gets one from its own files, with:
    [--licence NAME [--licence-url URL] [--commercial yes|no|unknown]]
                                                  its licence; else its MODEL_CARD's, else unknown
    [--name NAME] [--language rw|en|fr]           when its file names do not say
    [--espeak-data FOLDER]                        espeak-ng's data for a Piper voice; else the system's
  voice list                                      the installed packs, each checked again, and the voices they speak
  voice remove [--voice] VOICE_ID                 refused while it speaks a voice
  voice assign --voice VOICE_ID --language rw|en|fr --speaker-id N [--pack-speaker N]
                                                  the pack (its speaker, 0 by default) speaks that voice
  voice revert --language rw|en|fr --speaker-id N the built-in voice speaks it again
                                                  (assign and revert take effect when the service starts)

options:
  --db PATH    an SQLite database file; default: the service's database, that is
               DATABASE_URL when set, else DATA_DIR/ijwi.sqlite (DATA_DIR from the
               environment or ./data)

exit status: 0 done, 1 refused or failed, 2 bad command line`;

class UsageError extends Error {}
/** A refusal the operator can act on (unknown account, top-up too small...): exit status 1. */
class Refused extends Error {}

// Every argument is checked into one of these before the database is opened, so a mistyped
// command line never creates a database file.
type Action = DatabaseAction | VoiceAction;

/** The commands on neural voice packs: files, no database. */
type VoiceAction =
  | { command: 'voice check'; folder: string }
  | {
      command: 'voice install';
      /** A folder or an archive file, or a URL. */
      from: { path: string } | { url: string; sha256: string | undefined };
      published: PublishedVoiceOptions;
    }
  | { command: 'voice list' }
  | { command: 'voice remove'; voiceId: string }
  | { command: 'voice assign'; voiceId: string; slot: VoiceSlot; speaker: number }
  | { command: 'voice revert'; slot: VoiceSlot };

/** A voice of the catalogue, by its public identity. */
interface VoiceSlot {
  readonly language: 'rw' | 'en' | 'fr';
  readonly speakerId: number;
}

/** The commands that read or write the service's database. */
type DatabaseAction =
  | { command: 'account create'; name: string; email: string | null }
  | { command: 'key create'; accountId: string; name: string | null }
  | { command: 'key list'; accountId: string }
  | { command: 'key revoke'; keyId: string }
  | { command: 'topup'; accountId: string; tokens: number }
  | { command: 'balance'; accountId: string }
  | { command: 'ledger'; accountId: string; limit: number }
  | { command: 'topup-requests' }
  | { command: 'topup-requests approve' | 'topup-requests decline'; requestId: string }
  | { command: 'lexicon list'; accountId: string }
  | { command: 'lexicon add'; accountId: string; input: LexiconInput }
  | { command: 'lexicon remove'; accountId: string; entryId: string };

type Values = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      tokens: { type: 'string' },
      limit: { type: 'string' },
      language: { type: 'string' },
      phrase: { type: 'string' },
      respelling: { type: 'string' },
      ipa: { type: 'string' },
      'word-language': { type: 'string' },
      entry: { type: 'string' },
      request: { type: 'string' },
      folder: { type: 'string' },
      file: { type: 'string' },
      url: { type: 'string' },
      licence: { type: 'string' },
      'licence-url': { type: 'string' },
      commercial: { type: 'string' },
      'espeak-data': { type: 'string' },
      sha256: { type: 'string' },
      voice: { type: 'string' },
      'speaker-id': { type: 'string' },
      'pack-speaker': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function required(
  values: Values,
  option:
    | 'name'
    | 'account'
    | 'key'
    | 'tokens'
    | 'language'
    | 'phrase'
    | 'entry'
    | 'request'
    | 'folder'
    | 'voice'
    | 'speaker-id',
): string {
  const value = values[option]?.trim();
  if (!value) throw new UsageError(`give --${option}`);
  return value;
}

function wholeNumber(text: string, option: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw new UsageError(`--${option} must be a whole number, got "${text}"`);
  return Number(text);
}

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

function toAction(command: string, values: Values): Action {
  switch (command) {
    case 'account create':
      return { command, name: required(values, 'name'), email: values.email ?? null };
    case 'key create':
      return { command, accountId: required(values, 'account'), name: values.name ?? null };
    case 'key list':
    case 'balance':
    case 'lexicon list':
      return { command, accountId: required(values, 'account') };
    case 'key revoke':
      return { command, keyId: required(values, 'key') };
    case 'topup':
      return {
        command,
        accountId: required(values, 'account'),
        tokens: wholeNumber(required(values, 'tokens'), 'tokens'),
      };
    case 'ledger':
      return {
        command,
        accountId: required(values, 'account'),
        limit: values.limit === undefined ? 50 : wholeNumber(values.limit, 'limit'),
      };
    case 'topup-requests':
      return { command };
    case 'topup-requests approve':
    case 'topup-requests decline':
      return { command, requestId: required(values, 'request') };
    case 'lexicon add': {
      if ((values.respelling === undefined) === (values.ipa === undefined))
        throw new UsageError('give one of --respelling or --ipa');
      const input: LexiconInput = {
        language: required(values, 'language'),
        phrase: required(values, 'phrase'),
        kind: values.ipa === undefined ? 'respelling' : 'ipa',
        says: values.ipa ?? values.respelling ?? '',
        wordLanguage: values['word-language'],
      };
      return { command, accountId: required(values, 'account'), input };
    }
    case 'lexicon remove':
      return { command, accountId: required(values, 'account'), entryId: required(values, 'entry') };
    case 'voice check':
      return { command, folder: required(values, 'folder') };
    case 'voice install': {
      const given = [values.folder, values.file, values.url].filter((v) => v !== undefined);
      if (given.length !== 1) throw new UsageError('give one of --folder, --file or --url');
      if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256))
        throw new UsageError('--sha256 must be 64 hexadecimal digits');
      const published = publishedOptions(values);
      if (values.url !== undefined)
        return { command, from: { url: values.url, sha256: values.sha256 }, published };
      const path = (values.folder ?? values.file ?? '').trim();
      if (!path) throw new UsageError('give --folder or --file');
      return { command, from: { path }, published };
    }
    case 'voice list':
      return { command };
    case 'voice remove':
      return { command, voiceId: required(values, 'voice') };
    case 'voice assign':
      return {
        command,
        voiceId: required(values, 'voice'),
        slot: voiceSlot(values),
        speaker:
          values['pack-speaker'] === undefined ? 0 : wholeNumber(values['pack-speaker'], 'pack-speaker'),
      };
    case 'voice revert':
      return { command, slot: voiceSlot(values) };
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'give a command');
  }
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

function parseCommandLine(argv: string[]): { action: Action; db: string | undefined } {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    // parseArgs reports unknown options and missing values as TypeErrors with a readable message.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) throw new UsageError('');
  const { command, values } = withPackArgument(parsed.positionals, parsed.values);
  return { action: toAction(command, values), db: parsed.values.db };
}

/**
 * `voice check|install DIR-ARCHIVE-or-URL` and `voice remove VOICE_ID`, the pack named after the
 * command as well as by its option: a URL (http or https) is --url, anything else --folder (a
 * folder or an archive file), or --voice.
 */
function withPackArgument(
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

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

function keyRow(k: ApiKeyView): string[] {
  return [k.id, k.name ?? '-', k.hint, k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-'];
}

async function run(action: DatabaseAction, db: Database): Promise<string> {
  const accounts = new AccountService(db);
  const billing = new BillingService(db);
  const lexicons = new LexiconService(db.lexicons);
  const topUps = new TopUpRequestService(db.topUpRequests, billing);
  switch (action.command) {
    case 'account create': {
      const result = await accounts.createAccount({ name: action.name, email: action.email });
      if (!result.ok) throw new Refused(result.message);
      const a = result.account;
      return `account: ${a.id}\nname: ${a.name}\nemail: ${a.email ?? '-'}\ncreated: ${a.createdAt}`;
    }
    case 'key create': {
      const result = await accounts.createKey(action.accountId, { name: action.name });
      if (!result.ok) {
        throw new Refused(
          result.code === 'account_not_found' ? `no account ${action.accountId}` : result.message,
        );
      }
      process.stderr.write(
        'WARNING: this is the only time the key is shown. Give it to its owner now over a\n' +
          'secure channel; it cannot be recovered, only revoked and replaced.\n',
      );
      return `id: ${result.record.id}\naccount: ${action.accountId}\nhint: ${result.record.hint}\nkey: ${result.key}`;
    }
    case 'key list': {
      const result = await accounts.listKeys(action.accountId);
      if (!result.ok) throw new Refused(`no account ${action.accountId}`);
      if (result.keys.length === 0) return `no keys for ${action.accountId}`;
      return table(['id', 'name', 'hint', 'created', 'last used', 'revoked'], result.keys.map(keyRow));
    }
    case 'key revoke': {
      const result = await accounts.revokeKey(action.keyId);
      if (!result.ok) {
        throw new Refused(
          result.code === 'key_not_found'
            ? `no key ${action.keyId}`
            : `key ${action.keyId} is already revoked`,
        );
      }
      return `revoked: ${result.key.id}\nrevoked at: ${result.key.revokedAt ?? '-'}`;
    }
    case 'topup': {
      const result = await billing.topUp(action.accountId, action.tokens);
      if (!result.ok) {
        if (result.code === 'top_up_below_minimum') {
          throw new Refused(`a top-up must be at least ${result.minimumTopUp} tokens, got ${action.tokens}`);
        }
        throw new Refused(
          result.code === 'account_not_found' ? `no account ${action.accountId}` : result.message,
        );
      }
      return `topped up: ${action.tokens}\nledger entry: ${result.entry.id}\nbalance: ${result.balance}`;
    }
    case 'balance': {
      const result = await billing.balance(action.accountId);
      if (!result.ok) throw new Refused(`no account ${action.accountId}`);
      return `balance: ${result.balance}\nfree generations left: ${result.freeUsesRemaining}`;
    }
    case 'topup-requests': {
      const pending = await topUps.listPending();
      if (pending.length === 0) return 'no top-up requests waiting';
      return table(
        ['request', 'reference', 'account', 'tokens', 'price', 'asked'],
        pending.map((r) => [
          r.id,
          r.reference,
          r.accountId,
          String(r.tokens),
          `${((r.tokens * TOKEN_PRICE_US_CENTS) / 100).toFixed(2)} USD`,
          r.createdAt,
        ]),
      );
    }
    case 'topup-requests approve': {
      const result = await topUps.approve(action.requestId);
      if (!result.ok) throw new Refused(result.message);
      return `approved ${result.request.reference}: ${result.request.tokens} tokens credited\nbalance: ${result.balance}`;
    }
    case 'topup-requests decline': {
      const result = await topUps.decline(action.requestId);
      if (!result.ok) throw new Refused(result.message);
      return `declined ${result.request.reference}`;
    }
    case 'lexicon list': {
      const entries = await lexicons.list(action.accountId);
      if (entries.length === 0) return `no lexicon entries for ${action.accountId}`;
      return table(
        ['entry', 'language', 'phrase', 'kind', 'says', 'word language'],
        entries.map((e) => [e.id, e.language, e.phrase, e.kind, e.says, e.wordLanguage ?? '-']),
      );
    }
    case 'lexicon add': {
      const result = await lexicons.add(action.accountId, action.input);
      if (!result.ok) throw new Refused(lexiconRefusal(result, action.accountId));
      return `added "${action.input.phrase}" (${action.input.language})`;
    }
    case 'lexicon remove': {
      const result = await lexicons.remove(action.accountId, action.entryId);
      if (!result.ok) throw new Refused(lexiconRefusal(result, action.accountId));
      return `removed ${action.entryId}`;
    }
    case 'ledger': {
      const result = await billing.listLedger(action.accountId, { limit: action.limit });
      if (!result.ok) throw new Refused(`no account ${action.accountId}`);
      if (result.entries.length === 0) return `no ledger entries for ${action.accountId}`;
      return table(
        ['seq', 'created', 'kind', 'tokens', 'chars', 'language', 'seconds', 'request'],
        result.entries.map((e) => [
          String(e.seq),
          e.createdAt,
          e.kind,
          e.tokens > 0 ? `+${e.tokens}` : String(e.tokens),
          e.characters === null ? '-' : String(e.characters),
          e.language ?? '-',
          e.seconds === null ? '-' : e.seconds.toFixed(2),
          e.requestId ?? '-',
        ]),
      );
    }
  }
}

/** The option that gave each field of a lexicon entry. */
const LEXICON_OPTIONS: Readonly<Record<keyof LexiconInput, string>> = {
  language: 'language',
  phrase: 'phrase',
  kind: 'respelling/--ipa',
  says: 'respelling/--ipa',
  wordLanguage: 'word-language',
};

function lexiconRefusal(result: Exclude<LexiconResult, { ok: true }>, accountId: string): string {
  if (result.code === 'invalid_entry') return `--${LEXICON_OPTIONS[result.field]}: ${result.message}`;
  if (result.code === 'not_found') return `no such entry, or no account ${accountId}`;
  return result.message;
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
async function packFolder(
  from: Extract<VoiceAction, { command: 'voice install' }>['from'],
): Promise<UnpackedPack | undefined> {
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

function isVoiceAction(action: Action): action is VoiceAction {
  return action.command.startsWith('voice ');
}

/** The voice pack commands: they read and write files only. */
async function runVoice(action: VoiceAction, voicesDir: () => string): Promise<string> {
  const store = () => new VoiceStore(voicesDir());
  switch (action.command) {
    case 'voice check': {
      const given = await packSourceOf(action.folder);
      if (Array.isArray(given)) throw refusedPack(given);
      const check = await checkVoicePack(action.folder, given);
      if (!check.ok) throw refusedPack(check.problems);
      return describePack(check.pack.manifest);
    }
    case 'voice install': {
      const { from, published } = action;
      const unpacked = await packFolder(from);
      try {
        return await installed(
          await store().install(unpacked?.folder ?? ('path' in from ? from.path : ''), published),
          voicesDir(),
        );
      } finally {
        await unpacked?.remove();
      }
    }
    case 'voice list': {
      const voices = await store().list();
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
    }
    case 'voice assign': {
      const assignment = { ...action.slot, voice: action.voiceId, speaker: action.speaker };
      let voice = await assignedVoice(voicesDir(), assignment);
      if (Array.isArray(voice)) throw refusedPack(voice);
      // A speaker the install did not measure is measured now, so the voice is spoken at the target.
      const measured =
        voice.gainDb === undefined
          ? await calibratePackSpeakers(voicesDir(), action.voiceId, [action.speaker])
          : [];
      if (measured.length > 0) voice = await assignedVoice(voicesDir(), assignment);
      if (Array.isArray(voice)) throw refusedPack(voice);
      await withAssignments(voicesDir(), (a) => a.assign(assignment));
      const licence = voice.pack?.licence;
      return [
        `${voice.language}/${voice.speakerId} (${voice.name}) is spoken by ${action.voiceId}, speaker ${action.speaker} (${voice.pack?.speaker})`,
        ...(licence && licence.commercial !== true
          ? [`licence: ${licence.name}${commercialUse(licence)}`]
          : []),
        ...measured.map(describeCalibration),
        'restart the service to use it',
      ].join('\n');
    }
    case 'voice revert': {
      const { language, speakerId } = action.slot;
      if (!(await withAssignments(voicesDir(), (a) => a.revert(action.slot))))
        throw new Refused(`no voice pack speaks ${language}/${speakerId}`);
      return `${language}/${speakerId} is the built-in voice again; restart the service to use it`;
    }
    case 'voice remove': {
      const speaking = (await withAssignments(voicesDir(), (a) => a.read())).filter(
        (a) => a.voice === action.voiceId,
      );
      if (speaking.length > 0) {
        const slots = speaking.map((a) => `${a.language}/${a.speakerId}`).join(', ');
        throw new Refused(`${action.voiceId} speaks ${slots}: revert first`);
      }
      if (!(await store().remove(action.voiceId)))
        throw new Refused(`no voice ${action.voiceId} is installed`);
      return `removed ${action.voiceId}`;
    }
  }
}

async function main(): Promise<number> {
  let parsed: { action: Action; db: string | undefined };
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) process.stderr.write(`admin: ${error.message}\n\n`);
    process.stderr.write(`${usage}\n`);
    return error.message ? 2 : 0;
  }
  const { action } = parsed;
  if (isVoiceAction(action)) return report(() => runVoice(action, () => loadConfig().voicesDir));
  // The same database the service uses, from the same configuration, unless --db names a file.
  let source: DatabaseSource;
  if (parsed.db !== undefined) {
    source = { kind: 'sqlite', file: parsed.db };
  } else {
    try {
      source = loadConfig().database;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      process.stderr.write(`admin: ${error.message}\n`);
      return 2;
    }
  }
  const db = await openDatabase(source);
  try {
    return await report(() => run(action, db));
  } finally {
    await db.close();
  }
}

/**
 * Prints what a command answers: exit status 0; 1 with the refusal on stderr; 2 for a bad
 * configuration.
 */
async function report(command: () => Promise<string>): Promise<number> {
  try {
    process.stdout.write(`${await command()}\n`);
    return 0;
  } catch (error) {
    if (error instanceof Refused || error instanceof ConfigError) {
      process.stderr.write(`admin: ${error.message}\n`);
      return error instanceof Refused ? 1 : 2;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`admin: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
