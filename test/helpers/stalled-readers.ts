import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

// Clients that ask for speech and then stop reading: the response's head is read (so a refusal
// is seen), then the socket is paused and nothing more is taken from the kernel. What the service
// holds for such a client is the measure of what a stalled listener costs it.

/** A request a stalled reader makes: an HTTP POST, or a live context on a WebSocket. */
export type StalledRequest =
  | { readonly kind: 'http'; readonly path: string; readonly body: unknown }
  | { readonly kind: 'live'; readonly message: Record<string, unknown> };

/** A client that has stopped reading; `close` hangs up without reading on. */
export interface StalledReader {
  close(): void;
}

/**
 * Sends `request` with `key` and resolves once the service has answered 200 (HTTP) or opened the
 * connection (live), and the client has stopped reading; rejects with what the service said
 * otherwise.
 */
export function stalledReader(base: string, key: string, request: StalledRequest): Promise<StalledReader> {
  return request.kind === 'http'
    ? stalledHttp(base, key, request.path, request.body)
    : stalledLive(base, key, request.message);
}

function stalledHttp(base: string, key: string, path: string, body: unknown): Promise<StalledReader> {
  const url = new URL(base);
  const payload = Buffer.from(JSON.stringify(body));
  const socket: Socket = connect(Number(url.port), url.hostname);
  return new Promise((resolve, reject) => {
    let head = '';
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.pause();
      socket.removeAllListeners('data');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      if (status !== '200') {
        socket.destroy();
        reject(new Error(`${path} answered ${head.slice(0, 400)}`));
        return;
      }
      // Errors after this (the service resetting the connection) are the service's business.
      socket.on('error', () => {});
      resolve({ close: () => socket.destroy() });
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.byteLength}\r\n\r\n`,
    );
    socket.write(payload);
  });
}

function stalledLive(base: string, key: string, message: Record<string, unknown>): Promise<StalledReader> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/tts-live`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`the live upgrade answered ${response.statusCode}`)),
    );
    socket.once('open', () => {
      socket.on('error', () => {});
      const contextId = String(message.context_id ?? 'stalled');
      socket.send(JSON.stringify({ ...message, context_id: contextId }));
      socket.send(JSON.stringify({ type: 'end', context_id: contextId }));
      socket.pause();
      resolve({ close: () => socket.terminate() });
    });
  });
}

/**
 * Sends `request` and reads its answer whole (to a live context's `done`): what the path loads on
 * first use, before stalled readers are measured. Rejects on anything but audio.
 */
export async function readWhole(base: string, key: string, request: StalledRequest): Promise<void> {
  if (request.kind === 'http') {
    const response = await fetch(`${base}${request.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
    });
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${request.path} answered ${response.status}`);
    if (body.byteLength === 0) throw new Error(`${request.path} gave no audio`);
    return;
  }
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/tts-live`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      socket.send(JSON.stringify({ ...request.message, context_id: 'whole' }));
      socket.send(JSON.stringify({ type: 'end', context_id: 'whole' }));
    });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string };
      if (message.type === 'done') resolve();
      else if (message.type === 'error') reject(new Error(`the live context failed: ${data.toString()}`));
    });
  });
  socket.close();
}

/** A process's resident memory in MB (Linux's /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no resident memory for process ${pid}`);
  return Number(kb) / 1024;
}

/**
 * A process's resident memory once it has settled: it moved by less than 1 MB over the last
 * 3 s, sampled every half second (or `limitMs` has passed: the last sample).
 */
export async function settledRssMb(pid: number, limitMs: number): Promise<number> {
  const samples: number[] = [];
  const until = performance.now() + limitMs;
  for (;;) {
    samples.push(rssMb(pid));
    const window = samples.slice(-7);
    if (window.length === 7 && Math.max(...window) - Math.min(...window) < 1) break;
    if (performance.now() > until) break;
    await sleep(500);
  }
  return samples.at(-1) ?? Number.NaN;
}
