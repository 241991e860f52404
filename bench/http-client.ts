import { Agent, type IncomingMessage, request } from 'node:http';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';

/** The stream format every bench call asks for: the API's default, 16-bit PCM at 8 kHz. */
export const STREAM_FORMAT = 'pcm16_8k';
const STREAM_BYTES_PER_SECOND = 8000 * 2;

/**
 * One connection per call in flight, kept open between calls as a telephony gateway keeps its
 * connections to a TTS service. Idle sockets are dropped after 4 s, before the server's 5 s
 * keep-alive timeout can close one under a request that is just being sent on it.
 */
export function benchAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 2048, maxFreeSockets: 2048, timeout: 4_000 });
}

/** A stream call as the client saw it. Times in ms from the moment the request was sent. */
export interface StreamCall {
  readonly language: LanguageCode;
  /** When the request was sent, on the caller's `performance.now()` clock. */
  readonly sentAt: number;
  readonly status: number;
  /** Set when the call did not give a complete 200 stream. */
  readonly error?: string;
  /** Time to the first audio byte. */
  readonly ttfbMs: number;
  /** Time to the last byte. */
  readonly ttlbMs: number;
  /** The server's own `X-Voice-Ttfa-Ms`: request arrival to first audio ready. */
  readonly serverTtfaMs: number;
  readonly audioSeconds: number;
  /**
   * The worst lateness of any chunk against real-time playback that starts at the first byte:
   * max over chunks of (arrival - (first byte + duration of the audio before the chunk)).
   * Zero or less means the stream never made its listener wait.
   */
  readonly lateMs: number;
}

export interface CallTarget {
  readonly agent: Agent;
  /** `http://host:port` */
  readonly base: string;
  readonly key: string;
}

interface Sent {
  readonly sentAt: number;
  readonly response: Promise<IncomingMessage>;
}

function post(target: CallTarget, path: string, body: unknown): Sent {
  const payload = JSON.stringify(body);
  const sentAt = performance.now();
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${target.base}${path}`, {
      method: 'POST',
      agent: target.agent,
      headers: {
        Authorization: `Bearer ${target.key}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(payload),
      },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(payload);
  });
  return { sentAt, response };
}

async function errorText(response: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += String(chunk);
  return `${response.statusCode}: ${text.slice(0, 200)}`;
}

function failed(language: LanguageCode, sentAt: number, status: number, error: string): StreamCall {
  const none = Number.NaN;
  return {
    language,
    sentAt,
    status,
    error,
    ttfbMs: none,
    ttlbMs: none,
    serverTtfaMs: none,
    audioSeconds: 0,
    lateMs: none,
  };
}

/** One call to the stream endpoint, read as fast as it arrives, with its timings. */
export async function streamCall(
  target: CallTarget,
  language: LanguageCode,
  input: string,
  speakerId: number,
): Promise<StreamCall> {
  const sent = post(target, '/api/v1/tts-stream.php', {
    input,
    language,
    speaker_id: speakerId,
    format: STREAM_FORMAT,
  });
  const { sentAt } = sent;
  try {
    const response = await sent.response;
    if (response.statusCode !== 200) {
      return failed(language, sentAt, response.statusCode ?? 0, await errorText(response));
    }
    const serverTtfaMs = Number(response.headers['x-voice-ttfa-ms']);
    let first = Number.NaN;
    let bytes = 0;
    let lateMs = Number.NEGATIVE_INFINITY;
    return await new Promise<StreamCall>((resolve) => {
      response.on('data', (chunk: Buffer) => {
        const now = performance.now();
        if (bytes === 0) first = now;
        else lateMs = Math.max(lateMs, now - (first + (bytes / STREAM_BYTES_PER_SECOND) * 1000));
        bytes += chunk.byteLength;
      });
      // A stream cut after audio began ends with 'aborted'/'error', not 'end': it counts as failed.
      response.once('error', (error) => resolve(failed(language, sentAt, 200, error.message)));
      response.once('end', () => {
        if (!response.complete) {
          resolve(failed(language, sentAt, 200, 'stream cut short'));
          return;
        }
        resolve({
          language,
          sentAt,
          status: 200,
          ttfbMs: first - sentAt,
          ttlbMs: performance.now() - sentAt,
          serverTtfaMs,
          audioSeconds: bytes / STREAM_BYTES_PER_SECOND,
          lateMs: bytes === 0 ? Number.NaN : Math.max(lateMs, 0),
        });
      });
    });
  } catch (error) {
    return failed(language, sentAt, 0, error instanceof Error ? error.message : String(error));
  }
}

/** A file request: the time to the JSON answer (the file is written), then to the downloaded file. */
export interface FileCall {
  readonly status: number;
  readonly error?: string;
  readonly responseMs: number;
  readonly downloadMs: number;
  readonly audioSeconds: number;
}

export async function fileCall(target: CallTarget, language: LanguageCode, input: string): Promise<FileCall> {
  const sent = post(target, '/api/v1/tts.php', { input, language });
  const response = await sent.response;
  if (response.statusCode !== 200) {
    const error = await errorText(response);
    return {
      status: response.statusCode ?? 0,
      error,
      responseMs: Number.NaN,
      downloadMs: Number.NaN,
      audioSeconds: 0,
    };
  }
  let text = '';
  for await (const chunk of response) text += String(chunk);
  const responseMs = performance.now() - sent.sentAt;
  const body = JSON.parse(text) as { output_url: string; seconds: number };
  const file = await get(target.agent, body.output_url);
  return {
    status: 200,
    responseMs,
    downloadMs: performance.now() - sent.sentAt,
    audioSeconds: body.seconds,
    ...(file === 200 ? {} : { error: `download answered ${file}` }),
  };
}

/** GETs a URL and drains the body; resolves with the status. */
function get(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

/**
 * Opens `count` keep-alive connections (cheap GETs, all at once) so that a burst measures
 * speech, not TCP handshakes.
 */
export async function openConnections(agent: Agent, base: string, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => get(agent, `${base}/api/v1/voices.php?format=json`)));
}

/**
 * Starts a stream, waits for its first audio byte, and returns a function that drops the
 * connection (a caller hanging up mid-reply).
 */
export async function startAndHangUp(
  target: CallTarget,
  language: LanguageCode,
  input: string,
): Promise<() => void> {
  const sent = post(target, '/api/v1/tts-stream.php', { input, language, format: STREAM_FORMAT });
  const response = await sent.response;
  if (response.statusCode !== 200) throw new Error(`long stream refused: ${await errorText(response)}`);
  await new Promise<void>((resolve) => response.once('data', () => resolve()));
  response.on('error', () => {});
  return () => response.socket.destroy();
}

/**
 * Ms from sending `init` to `url` to the first byte of the response body (a status other than 200
 * throws). Then `rest`: `read` reads the body to its end, so the next call finds the engines idle
 * (a call hung up on still holds a worker while it stops, and the side measured next would pay for
 * it); `cancel` hangs up.
 */
export async function firstByteMs(url: string, init: RequestInit, rest: 'read' | 'cancel'): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const first = await reader.read();
  const ms = performance.now() - started;
  if (first.done) throw new Error('an empty body');
  if (rest === 'cancel') await reader.cancel();
  else
    while (!(await reader.read()).done) {
      // the rest of the audio is not timed
    }
  return ms;
}
