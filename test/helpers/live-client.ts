import WebSocket from 'ws';

/** A message from the live endpoint, loosely typed: tests assert its fields. */
export interface LiveMessage {
  readonly type: string;
  readonly context_id?: string;
  readonly [field: string]: unknown;
}

/**
 * A WebSocket client of `/api/v1/tts-live` that records every message with its arrival time and
 * lets a test wait for the one it expects.
 */
export class LiveClient {
  readonly socket: WebSocket;
  readonly messages: { readonly at: number; readonly message: LiveMessage }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { test: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void }[] = [];

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data, isBinary) => {
      // Another protocol's binary frame (bare audio) is kept as its bytes.
      const message = isBinary
        ? ({ type: 'binary', bytes: data } as LiveMessage)
        : (JSON.parse(data.toString()) as LiveMessage);
      this.messages.push({ at: performance.now(), message });
      this.#waiters = this.#waiters.filter((w) => {
        if (!w.test(message)) return true;
        w.resolve(message);
        return false;
      });
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  /**
   * Opens a connection to `base` (http://host:port) with these upgrade headers, at the live
   * endpoint or at `path` (another protocol's socket, whose frames are read loosely).
   */
  static connect(
    base: string,
    headers: Record<string, string> = {},
    path = '/api/v1/tts-live',
  ): Promise<LiveClient> {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new LiveClient(socket)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () =>
          reject(Object.assign(new Error('upgrade refused'), { status: response.statusCode, body })),
        );
      });
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message (already received or still to come) that passes `test`. */
  next(test: (m: LiveMessage) => boolean, timeoutMs = 20_000): Promise<LiveMessage> {
    const seen = this.messages.find((m) => test(m.message));
    if (seen) return Promise.resolve(seen.message);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a live message')), timeoutMs);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  /** The context's `done` or `error`, whichever ends it. */
  ended(contextId: string): Promise<LiveMessage> {
    return this.next((m) => m.context_id === contextId && (m.type === 'done' || m.type === 'error'));
  }

  /** Messages of one context and type, in arrival order. */
  of(contextId: string, type: string): LiveMessage[] {
    return this.messages
      .filter((m) => m.message.context_id === contextId && m.message.type === type)
      .map((m) => m.message);
  }

  /** The context's audio, joined. */
  audio(contextId: string): Buffer {
    return Buffer.concat(this.of(contextId, 'audio').map((m) => Buffer.from(m.audio as string, 'base64')));
  }

  close(): void {
    this.socket.close();
  }
}
