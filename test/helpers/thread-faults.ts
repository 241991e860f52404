import { Session } from 'node:inspector/promises';

/**
 * Ends this process's worker threads whose title holds `name` (`ENCODING_THREAD_NAME`,
 * `POOL_WORKER_NAME`), at most `limit` of them, as a crash in the thread would: `process.exit` run
 * inside it, through the inspector, with no hook in the service. Resolves how many were ended.
 */
export async function killThreads(name: string, limit = Number.POSITIVE_INFINITY): Promise<number> {
  const session = new Session();
  session.connect();
  const matching: string[] = [];
  session.on('NodeWorker.attachedToWorker', (message) => {
    if (message.params.workerInfo.title.includes(name)) matching.push(message.params.sessionId);
  });
  try {
    // The threads already running are reported while `enable` is answered.
    await session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    const ended = matching.slice(0, limit);
    for (const sessionId of ended) {
      const evaluate = { id: 1, method: 'Runtime.evaluate', params: { expression: 'process.exit(70)' } };
      await session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify(evaluate) });
    }
    return ended.length;
  } finally {
    session.disconnect();
  }
}
