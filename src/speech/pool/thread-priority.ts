import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The most a thread's nice value goes to (Linux's lowest priority). */
const LOWEST = 19;

/**
 * Lowers the calling thread's scheduling priority by `niceness` (its nice value raised, up to 19),
 * leaving the process's other threads as they are. Linux schedules threads one by one:
 * `setpriority` on a thread's id changes that thread only, and `/proc/thread-self` names the
 * caller. Lowering needs no privilege. Returns the thread's nice value after, or undefined where
 * threads cannot be told apart (not Linux) or the system refused: the thread then keeps the
 * process's priority, which is only slower, never wrong.
 */
export function lowerThreadPriority(niceness: number): number | undefined {
  if (niceness <= 0) return undefined;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return undefined;
    const nice = Math.min(LOWEST, getPriority(threadId) + niceness);
    setPriority(threadId, nice);
    return getPriority(threadId);
  } catch {
    return undefined;
  }
}
