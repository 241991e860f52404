import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The naive peer's address, and how to stop it. */
export interface RunningPeer {
  readonly base: string;
  stop(): void;
}

/**
 * The naive peer (`peer.ts`: one native espeak-ng process per request) in a process of its own;
 * undefined, said through `progress`, where espeak-ng is not installed.
 */
export async function startPeer(progress: (line: string) => void): Promise<RunningPeer | undefined> {
  const installed = await new Promise<boolean>((resolve) => {
    const probe = spawn('espeak-ng', ['--version'], { stdio: 'ignore' });
    probe.once('error', () => resolve(false));
    probe.once('exit', (code) => resolve(code === 0));
  });
  if (!installed) {
    progress('peer: espeak-ng is not installed (apt-get install espeak-ng); fresh bursts run without it');
    return undefined;
  }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./peer.ts', import.meta.url))],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())),
  );
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}
