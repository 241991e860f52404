import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FreshBurstPlan, FreshCall } from './fresh-burst.ts';
import type { FreshBurstHttp, FreshCalls } from './results.ts';
import { percentiles } from './stats.ts';

export type { FreshCall };

/** Runs one fresh burst in a new process (so every connection is new) and returns its calls. */
export function freshBurst(plan: FreshBurstPlan): Promise<FreshCall[]> {
  const child = fork(fileURLToPath(new URL('./fresh-burst.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { calls: FreshCall[] }) => resolve(message.calls));
    child.once('exit', (code) => reject(new Error(`fresh burst exited with ${code}`)));
    child.send(plan);
  });
}

/** Ijwi's calls of fresh bursts, pooled, the failed ones counted and left out of the times. */
export function freshCalls(ijwi: readonly FreshCall[]): FreshCalls {
  const good = ijwi.filter((c) => c.error === undefined);
  const firstError = ijwi.find((c) => c.error !== undefined)?.error;
  return {
    calls: ijwi.length,
    errors: ijwi.length - good.length,
    ...(firstError ? { firstError } : {}),
    firstByte: percentiles(good.map((c) => c.firstByteMs)),
    serverTtfa: percentiles(good.map((c) => c.serverTtfaMs)),
    lastByte: percentiles(good.map((c) => c.lastByteMs)),
  };
}

/** The calls of one burst size, Ijwi's and the peer's, pooled over the repeats. */
export function freshResults(
  size: number,
  repeats: number,
  ijwi: readonly FreshCall[],
  peer: readonly FreshCall[],
): FreshBurstHttp {
  const peerGood = peer.filter((c) => c.error === undefined);
  return {
    size,
    repeats,
    ...freshCalls(ijwi),
    ...(peer.length > 0
      ? {
          peer: {
            calls: peer.length,
            errors: peer.length - peerGood.length,
            wholeFile: percentiles(peerGood.map((c) => c.lastByteMs)),
          },
        }
      : {}),
  };
}
