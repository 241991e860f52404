import { ConfigError, loadConfig } from '../config.ts';
import type { DatabaseSource } from '../store/db/database.ts';
import { openDatabase } from '../store/db/open-database.ts';
import { type AccountTools, accountCommands, accountTools } from './admin/accounts.ts';
import { commandNamed, Refused, readCommandLine, UsageError, usageOf } from './admin/command-line.ts';
import { type VoicePackPlace, voicePackCommands, withPackOperand } from './admin/voice-packs.ts';

// `npm run admin -- <command>`: the operator's two tools behind one command, the accounts tool
// (accounts, keys, the ledger, top-up requests, lexicons: admin/accounts.ts) and the voice packs
// tool (admin/voice-packs.ts). Each tool's table of commands is the one list of its commands: the
// usage is written from it and the command line looked up in it.

const usage = `usage: npm run admin -- <command> [options]

commands:
${usageOf(accountCommands)}
${usageOf(voicePackCommands)}

options:
  --db PATH    an SQLite database file; default: the service's database, that is
               DATABASE_URL when set, else DATA_DIR/ijwi.sqlite (DATA_DIR from the
               environment or ./data)

exit status: 0 done, 1 refused or failed, 2 bad command line`;

/** A command line checked into the run of one tool's command. */
type Run =
  | { readonly tool: 'voice packs'; readonly run: (place: VoicePackPlace) => Promise<string> }
  | {
      readonly tool: 'accounts';
      readonly run: (tools: AccountTools) => Promise<string>;
      readonly db: string | undefined;
    };

function parseCommandLine(argv: string[]): Run {
  const line = readCommandLine(argv);
  const { command, values } = withPackOperand(line.positionals, line.values);
  const voicePack = commandNamed(voicePackCommands, command);
  if (voicePack) return { tool: 'voice packs', run: voicePack.parse(values) };
  const account = commandNamed(accountCommands, command);
  if (account) return { tool: 'accounts', run: account.parse(values), db: values.db };
  throw new UsageError(command ? `unknown command "${command}"` : 'give a command');
}

async function main(): Promise<number> {
  let parsed: Run;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) process.stderr.write(`admin: ${error.message}\n\n`);
    process.stderr.write(`${usage}\n`);
    return error.message ? 2 : 0;
  }
  if (parsed.tool === 'voice packs') {
    const { run } = parsed;
    return report(() => run({ voicesDir: () => loadConfig().voicesDir }));
  }
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
  const { run } = parsed;
  try {
    return await report(() => run(accountTools(db)));
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
