// The ledger's seconds kept up with the audio while a call goes on (the charge rule, point 4).

/** How often a call's ledger entries are brought up to the audio handed over so far. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Records `delivered()` every `PROGRESS_EVERY_MS` while a stream or live context goes on, when it
 * has grown, one record at a time, so that a process killed mid-stream leaves its ledger entries at
 * most a couple of seconds short of the audio handed over, not at the bounds their charges were
 * decided on. `stop` ends the records and waits for the one under way; the final record follows.
 */
export function recordProgress(
  delivered: () => number,
  record: (seconds: number) => Promise<void>,
): { stop(): Promise<void> } {
  let recorded = 0;
  let under: Promise<void> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    const seconds = delivered();
    if (busy || seconds <= recorded) return;
    busy = true;
    recorded = seconds;
    under = record(seconds).finally(() => {
      busy = false;
    });
  }, PROGRESS_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await under;
    },
  };
}
