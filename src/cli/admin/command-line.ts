import { parseArgs } from 'node:util';

// What the admin tools share: the command line's options, how a command is declared (one table per
// tool, from which the usage is written and the command found), and the two ways a command fails.

/** A command line that cannot be run (exit status 2, with the usage); an empty message: `--help`. */
export class UsageError extends Error {}
/** A refusal the operator can act on (unknown account, top-up too small...): exit status 1. */
export class Refused extends Error {}

// Every tool's options in one list: parseArgs refuses an option it was not told of, and a command
// ignores the options it does not read, as it always has.
const OPTIONS = {
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
} as const;

/** The options given, by name. */
export type Values = ReturnType<typeof parseOptions>['values'];

function parseOptions(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
}

/** The words and options of a command line; `--help` is a UsageError with no message. */
export function readCommandLine(argv: string[]): { positionals: string[]; values: Values } {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    // parseArgs reports unknown options and missing values as TypeErrors with a readable message.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) throw new UsageError('');
  return parsed;
}

/**
 * One command of a tool. `parse` checks its options into the run before anything is opened (so a
 * mistyped command line never creates a database file): it throws UsageError, or returns what
 * runs the command in the tool's context and answers its output.
 */
export interface Command<Context> {
  /** The words that name it: `key create`. */
  readonly name: string;
  /**
   * Its lines in the usage: what follows the name, and what it does. A line whose synopsis is
   * empty or starts with a space continues the one before, without the name.
   */
  readonly usage: readonly (readonly [synopsis: string, says?: string])[];
  parse(values: Values): (context: Context) => Promise<string>;
}

/** The column where what a command does starts in the usage. */
const SAYS_AT = 48;

/** The usage lines of `commands`, in their order. */
export function usageOf(commands: readonly Command<never>[]): string {
  return commands
    .flatMap(({ name, usage }) =>
      usage.map(([synopsis, says], i) => {
        const continues = i > 0 && (synopsis === '' || synopsis.startsWith(' '));
        const left = continues ? synopsis : `${name}${synopsis ? ` ${synopsis}` : ''}`;
        return `  ${says === undefined ? left : `${left.padEnd(SAYS_AT)}${says}`}`;
      }),
    )
    .join('\n');
}

/** The command of `commands` named `name`, if one is. */
export function commandNamed<Context>(
  commands: readonly Command<Context>[],
  name: string,
): Command<Context> | undefined {
  return commands.find((command) => command.name === name);
}

type RequiredOption =
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
  | 'speaker-id';

/** The value of an option the command cannot do without. */
export function required(values: Values, option: RequiredOption): string {
  const value = values[option]?.trim();
  if (!value) throw new UsageError(`give --${option}`);
  return value;
}

/** `text` as a whole number of at most 15 digits, the option it came from named when it is not. */
export function wholeNumber(text: string, option: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw new UsageError(`--${option} must be a whole number, got "${text}"`);
  return Number(text);
}

/** Rows under headers, each column as wide as its widest cell. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
