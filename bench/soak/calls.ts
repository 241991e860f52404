import { request } from 'node:http';
import WebSocket from 'ws';
import type { LanguageCode } from '../../src/speech/text/verbalizer.ts';
import type { Turns } from '../turns.ts';

// The soak's callers, as a receptionist's traffic: streams in every format and language (some
// callers hang up mid-reply, some never read), OpenAI-compatible calls in every format, file
// requests, live WebSocket contexts with barge-in, and every account's calls opening with its
// own greeting. Each call reports what its client saw, to be set against the ledger.

/** How a call ended, as its client saw it. */
export type CallEnd =
  /** All the audio, or all the caller wanted (a hang-up or a barge-in by design). */
  | 'completed'
  /** An error status with the JSON error body, a live `error` message, or a stream cut after its audio began. */
  | 'error'
  /** Neither: no answer in time, or an answer that is not one of the above. Target: none. */
  | 'lost';

export interface CallRecord {
  readonly kind: 'stream' | 'openai' | 'file' | 'live';
  /** What the caller did beside listening: hang up, never read, barge in. */
  readonly behaviour: string;
  readonly account: number;
  readonly startedAt: number;
  readonly end: CallEnd;
  /** The error code (the body's `error.code`, the live message's `code`, or what the socket said). */
  readonly code?: string;
  /** Request id the service gave (HTTP), to find the call in the ledger. */
  readonly requestId?: string;
  /** Seconds of audio the client received, when it can count them (PCM, G.711, WAV). */
  readonly seconds?: number;
  /** Whether the client received any audio: the call is then charged. */
  readonly heard: boolean;
  /** Tokens the call should cost if charged (one per started 100 characters). */
  readonly tokens: number;
  /**
   * A live context cut after its audio began gets no bill: it paid for the parts it had started,
   * at least one token and at most `tokens` (all its text is sent before its first audio).
   */
  readonly tokensAtLeast?: number;
  /** From the request to the first audio byte, in ms. */
  readonly firstAudioMs?: number;
}

export interface CallerOptions {
  readonly base: () => string;
  /** Keys of each account. */
  readonly keys: readonly (readonly string[])[];
  readonly turns: Turns;
  readonly random: () => number;
}

const TIMEOUT_MS = 90_000;
const STREAM_FORMATS: Readonly<Record<string, number>> = {
  pcm16_8k: 16_000,
  pcm16_16k: 32_000,
  pcm16_24k: 48_000,
  mulaw_8k: 8000,
  alaw_8k: 8000,
};
const OPENAI_FORMATS = ['pcm', 'wav', 'mp3', 'opus', 'flac'] as const;
const VOICES: Readonly<Record<LanguageCode, readonly string[]>> = {
  rw: ['keza', 'mugisha', 'ineza'],
  en: ['grace', 'james', 'olivia', 'amani', 'baraka'],
  fr: ['claire', 'julien', 'aline'],
};
const GREETINGS: Readonly<Record<LanguageCode, string>> = {
  rw: 'Muraho, murakaza neza kuri iyi nomero.',
  en: 'Thank you for calling, how can I help you today?',
  fr: 'Bonjour, merci de votre appel.',
};

const tokensOf = (text: string) => Math.max(1, Math.ceil([...text.trim()].length / 100));

/** The call generator: each `call()` makes one call of a kind chosen at random. */
export class Callers {
  readonly #options: CallerOptions;
  #nextKey = 0;

  constructor(options: CallerOptions) {
    this.#options = options;
  }

  #pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#options.random() * list.length)] as T;
  }

  /** An account, one of its keys, and a turn of a language opening with the account's greeting. */
  #caller(given?: LanguageCode) {
    const { keys, turns } = this.#options;
    const account = Math.floor(this.#options.random() * keys.length);
    const accountKeys = keys[account] ?? [];
    const key = accountKeys[this.#nextKey++ % accountKeys.length] as string;
    const language = given ?? this.#pick<LanguageCode>(['rw', 'en', 'fr']);
    const text = `${GREETINGS[language]} ${this.#pick(turns[language])}`;
    return { account, key, language, text };
  }

  /** One call, of a kind drawn with receptionist-like weights. */
  call(): Promise<CallRecord> {
    const draw = this.#options.random();
    if (draw < 0.45) return this.stream();
    if (draw < 0.65) return this.openai();
    if (draw < 0.8) return this.file();
    return this.live();
  }

  /**
   * A stream in a telephony format; a tenth of callers hang up after a second, a twentieth never
   * read. `voice` fixes the voice (a probe of the neural one); else it is drawn.
   */
  async stream(voice?: { readonly language: LanguageCode; readonly speakerId: number }): Promise<CallRecord> {
    const { account, key, language, text } = this.#caller(voice?.language);
    const format = this.#pick(Object.keys(STREAM_FORMATS));
    const perSecond = STREAM_FORMATS[format] as number;
    const draw = this.#options.random();
    const behaviour = draw < 0.1 ? 'hang-up' : draw < 0.15 ? 'never-read' : 'listen';
    const speakerId = voice?.speakerId ?? Math.floor(this.#options.random() * (language === 'en' ? 5 : 3));
    const body = { input: text, language, speaker_id: speakerId, format };
    const record = await this.#http('/api/v1/tts-stream.php', key, body, {
      hangUpAfterBytes: behaviour === 'hang-up' ? perSecond : undefined,
      neverRead: behaviour === 'never-read',
    });
    return {
      kind: 'stream',
      behaviour: `${behaviour} ${format}`,
      account,
      tokens: tokensOf(text),
      ...record,
      ...(record.bytes !== undefined ? { seconds: record.bytes / perSecond } : {}),
    };
  }

  /** OpenAI's speech endpoint in each of its formats; the seconds of PCM and WAV are counted. */
  async openai(): Promise<CallRecord> {
    const { account, key, language, text } = this.#caller();
    const format = this.#pick(OPENAI_FORMATS);
    const voice = this.#pick(VOICES[language]);
    const record = await this.#http('/v1/audio/speech', key, {
      model: 'tts-1',
      input: text,
      voice,
      response_format: format,
    });
    let seconds: number | undefined;
    if (record.bytes !== undefined && record.end === 'completed') {
      if (format === 'pcm') seconds = record.bytes / 48_000;
      if (format === 'wav' && record.head) seconds = (record.bytes - 44) / (record.head.readUInt32LE(24) * 2);
    }
    return {
      kind: 'openai',
      behaviour: format,
      account,
      tokens: tokensOf(text),
      ...record,
      ...(seconds !== undefined ? { seconds } : {}),
    };
  }

  /** A WAV file by URL, then the file itself. */
  async file(): Promise<CallRecord> {
    const { account, key, language, text } = this.#caller();
    const record = await this.#http('/api/v1/tts.php', key, { input: text, language });
    const base = { kind: 'file' as const, behaviour: 'wav', account, tokens: tokensOf(text), ...record };
    if (record.end !== 'completed' || !record.head) return { ...base, heard: false };
    const reply = JSON.parse(record.head.toString()) as { output_url?: string };
    const path = new URL(reply.output_url ?? '', 'http://x').pathname;
    try {
      const file = Buffer.from(await (await fetch(`${this.#options.base()}${path}`)).arrayBuffer());
      const seconds = (file.byteLength - 44) / (file.readUInt32LE(24) * 2);
      return { ...base, heard: true, seconds };
    } catch {
      // The file was made and charged; the instance went down before it could be fetched.
      return { ...base, heard: true, code: 'file_not_fetched' };
    }
  }

  /** A live context typed in pieces; a third of callers barge in after the first audio and go on. */
  async live(): Promise<CallRecord> {
    const { account, key, language, text } = this.#caller();
    const bargeIn = this.#options.random() < 1 / 3;
    const startedAt = performance.now();
    const record = (fields: Partial<CallRecord> & Pick<CallRecord, 'end'>): CallRecord => ({
      kind: 'live',
      behaviour: bargeIn ? 'barge-in' : 'listen',
      account,
      startedAt,
      tokens: 0,
      heard: false,
      ...fields,
    });
    const socket = new WebSocket(`${this.#options.base().replace(/^http/, 'ws')}/api/v1/tts-live`, {
      headers: { authorization: `Bearer ${key}` },
    });
    let bytes = 0;
    let firstAudioMs: number | undefined;
    return new Promise<CallRecord>((resolve) => {
      const timer = setTimeout(() => finish(record({ end: 'lost', code: 'timeout' })), TIMEOUT_MS);
      const finish = (result: CallRecord) => {
        clearTimeout(timer);
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.close();
        resolve(result);
      };
      const heard = () => ({
        heard: bytes > 0,
        seconds: bytes / 8000,
        ...(bytes > 0 ? { tokens: tokensOf(text), tokensAtLeast: 1 } : {}),
        ...(firstAudioMs ? { firstAudioMs } : {}),
      });
      socket.on('unexpected-response', (_req, response) =>
        finish(record({ end: 'error', code: `http_${response.statusCode}` })),
      );
      socket.on('error', (error: NodeJS.ErrnoException) =>
        finish(record({ end: 'error', code: error.code ?? 'socket_error', ...heard() })),
      );
      socket.on('close', () => finish(record({ end: 'error', code: 'connection_closed', ...heard() })));
      socket.on('open', () => {
        const pieces = text.split(/(?<= )/);
        const send = (message: object) => socket.send(JSON.stringify(message));
        pieces.forEach((piece, i) => {
          send({
            type: 'text',
            context_id: 'c',
            text: piece,
            ...(i === 0 ? { language, format: 'mulaw_8k' } : {}),
          });
        });
        if (!bargeIn) send({ type: 'end', context_id: 'c' });
      });
      let cleared = false;
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as {
          type: string;
          audio?: string;
          code?: string;
          billing?: { tokens_charged: number } | null;
        };
        if (message.type === 'audio') {
          bytes += Buffer.from(message.audio ?? '', 'base64').byteLength;
          firstAudioMs ??= performance.now() - startedAt;
          if (bargeIn && !cleared) {
            cleared = true;
            socket.send(JSON.stringify({ type: 'clear', context_id: 'c' }));
            socket.send(JSON.stringify({ type: 'end', context_id: 'c' }));
          }
        } else if (message.type === 'done') {
          const { tokensAtLeast: _unknown, ...received } = heard();
          finish(record({ end: 'completed', ...received, tokens: message.billing?.tokens_charged ?? 0 }));
        } else if (message.type === 'error') {
          finish(record({ end: 'error', code: message.code ?? 'error', ...heard() }));
        }
      });
    });
  }

  /**
   * One HTTP call: the status, the request id, the body's first bytes (an error body, a WAV
   * header, the file endpoint's JSON) and its length, the first audio time, and how it ended.
   */
  #http(
    path: string,
    key: string,
    body: object,
    how: { hangUpAfterBytes?: number | undefined; neverRead?: boolean } = {},
  ): Promise<
    Pick<CallRecord, 'end' | 'code' | 'requestId' | 'heard' | 'firstAudioMs' | 'startedAt'> & {
      bytes?: number;
      head?: Buffer;
    }
  > {
    const startedAt = performance.now();
    const payload = JSON.stringify(body);
    return new Promise((resolve) => {
      let settled = false;
      const done = (result: Parameters<typeof resolve>[0]) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const timer = setTimeout(() => {
        req.destroy();
        done({ end: 'lost', code: 'timeout', heard: false, startedAt });
      }, TIMEOUT_MS);
      const req = request(`${this.#options.base()}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      });
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({ end: 'error', code: error.code ?? 'request_error', heard: false, startedAt }),
      );
      req.on('response', (response) => {
        const requestId = String(response.headers['x-request-id'] ?? '');
        const status = response.statusCode ?? 0;
        const parts: Buffer[] = [];
        let bytes = 0;
        let firstAudioMs: number | undefined;
        const result = () => ({
          requestId,
          startedAt,
          bytes,
          head: Buffer.concat(parts).subarray(0, 64 * 1024),
        });
        if (status !== 200) {
          response.on('data', (chunk: Buffer) => parts.push(chunk));
          response.on('end', () => {
            let code = `http_${status}`;
            try {
              code = (JSON.parse(Buffer.concat(parts).toString()) as { error: { code: string } }).error.code;
            } catch {
              // no JSON error body: the code says the status
            }
            done({ end: 'error', code, heard: false, requestId, startedAt });
          });
          response.on('error', () =>
            done({ end: 'lost', code: `http_${status}_cut`, heard: false, startedAt }),
          );
          return;
        }
        if (how.neverRead) {
          // Never reads: after 3 s the caller gives up. What the server wrote may be in buffers.
          response.pause();
          setTimeout(() => {
            response.socket.destroy();
            done({ ...result(), end: 'completed', heard: true, firstAudioMs: performance.now() - startedAt });
          }, 3000);
          return;
        }
        response.on('data', (chunk: Buffer) => {
          firstAudioMs ??= performance.now() - startedAt;
          if (bytes < 64 * 1024) parts.push(chunk);
          bytes += chunk.byteLength;
          if (how.hangUpAfterBytes !== undefined && bytes >= how.hangUpAfterBytes) {
            response.socket.destroy();
            done({ ...result(), end: 'completed', heard: true, firstAudioMs });
          }
        });
        response.on('end', () =>
          done({ ...result(), end: 'completed', heard: bytes > 0, firstAudioMs: firstAudioMs ?? 0 }),
        );
        // A body cut after the audio began: the chunked body never ended, which the client sees.
        response.on('error', () =>
          done({
            ...result(),
            end: 'error',
            code: 'stream_cut',
            heard: bytes > 0,
            ...(firstAudioMs ? { firstAudioMs } : {}),
          }),
        );
        response.on('aborted', () =>
          done({
            ...result(),
            end: 'error',
            code: 'stream_cut',
            heard: bytes > 0,
            ...(firstAudioMs ? { firstAudioMs } : {}),
          }),
        );
      });
      req.end(payload);
    });
  }
}
