import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { unusedPort } from './ports.ts';

// A PostgreSQL server of one's own (initdb and pg_ctl over a temporary folder, on a free loopback
// port, its socket in that folder), which a fault can stop and start again as an operator's
// restart would. The machine's shared server is never touched. PostgreSQL refuses to run as root:
// as root, it runs as the `postgres` user the server's package makes.

const run = promisify(execFile);

/** A private PostgreSQL server; `url` reaches its `postgres` database as the `postgres` role. */
export interface PrivatePostgres {
  readonly url: string;
  /** `pg_ctl stop -m fast`: sessions are ended, the server shuts down cleanly. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

const NOT_INSTALLED = 'PostgreSQL is not installed (initdb and pg_ctl are needed)';

/** The folder of `initdb` and `pg_ctl`: on the PATH, else Debian's newest /usr/lib/postgresql/N/bin. */
function binaries(): string | undefined {
  try {
    return join(execFileSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).trim(), '..');
  } catch {
    const versions = (existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [])
      .filter((v) => /^\d+$/.test(v) && existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
      .sort((a, b) => Number(b) - Number(a));
    return versions[0] === undefined ? undefined : `/usr/lib/postgresql/${versions[0]}/bin`;
  }
}

/** The user and group ids to run the server as: the `postgres` user when this process is root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** False, or why a private PostgreSQL cannot run here (for a test's `skip`). */
export const noPrivatePostgres: false | string = (() => {
  if (binaries() === undefined) return NOT_INSTALLED;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres'], { stdio: 'ignore' }).status !== 0)
    return 'PostgreSQL refuses to run as root, and there is no `postgres` user to run it as';
  return false;
})();

/** Creates a cluster in a temporary folder and starts it on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  if (bin === undefined) throw new Error(NOT_INSTALLED);
  const user = serverUser();
  const folder = await mkdtemp(join(tmpdir(), 'ijwi-pg-'));
  if (user) await chown(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const port = await unusedPort();
  const pg = (command: string, args: string[]) =>
    run(join(bin, command), args, { ...user, cwd: folder, timeout: 60_000 });
  await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${folder}`;
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async start() {
      await pg('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', 'start']);
    },
    async close() {
      await server.stop().catch(() => {});
      await rm(folder, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
