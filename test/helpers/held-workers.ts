import { once } from 'node:events';
import WebSocket from 'ws';
import type { ServiceProcess } from './service-process.ts';

/** The inspector's address a service started with `--inspect-brk=127.0.0.1:0` prints; fails after `timeoutMs`. */
export async function inspectorUrl(
  service: Pick<ServiceProcess, 'output'>,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const url = /Debugger listening on (ws:\/\/\S+)/.exec(service.output())?.[1];
    if (url) return url;
    if (Date.now() > deadline)
      throw new Error(`no inspector address in ${timeoutMs} ms:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Worker threads held at their start (`holdWorkers`). */
export interface HeldWorkers {
  /** The titles of the workers held so far. */
  readonly held: readonly string[];
  /** Lets every held worker run, and every later one run at once. */
  release(): void;
  /** Disconnects from the inspector (a worker still held then runs). */
  close(): Promise<void>;
}

/**
 * Connects to the inspector of a service started with `--inspect-brk=127.0.0.1:0` (`url`:
 * `inspectorUrl`), makes every worker thread its main thread
 * starts wait for the debugger, lets the main thread run, and lets each worker run as it starts
 * except those whose title holds `name` (`POOL_WORKER_NAME`) after the first `running` of them:
 * those stay before their first line until `release`. No hook in the service: an order of events
 * a test can set without a clock (a worker that has not warmed while the others have).
 */
export async function holdWorkers(url: string, name: string, running: number): Promise<HeldWorkers> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  let id = 0;
  const send = (method: string, params: object = {}) =>
    socket.send(JSON.stringify({ id: ++id, method, params }));
  const run = (sessionId: string) =>
    send('NodeWorker.sendMessageToWorker', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.runIfWaitingForDebugger' }),
    });
  let named = 0;
  const held: { title: string; sessionId: string }[] = [];
  let releasing = false;
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as {
      method?: string;
      params?: { sessionId: string; workerInfo: { title: string } };
    };
    // `--inspect-brk` pauses before the first line once the main thread runs: it goes on.
    if (message.method === 'Debugger.paused') send('Debugger.resume');
    if (message.method !== 'NodeWorker.attachedToWorker' || !message.params) return;
    const { sessionId, workerInfo } = message.params;
    const hold = workerInfo.title.includes(name) && ++named > running;
    if (hold && !releasing) held.push({ title: workerInfo.title, sessionId });
    else run(sessionId);
  });
  send('NodeWorker.enable', { waitForDebuggerOnStart: true });
  send('Debugger.enable');
  send('Runtime.runIfWaitingForDebugger');
  return {
    get held() {
      return held.map((worker) => worker.title);
    },
    release() {
      releasing = true;
      for (const worker of held) run(worker.sessionId);
    },
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = once(socket, 'close');
      socket.close();
      await closed;
    },
  };
}
