import WebSocket from 'ws';
import { LiveClauses } from '../src/speech/text/live-clauses.ts';
import type { CallTarget } from './http-client.ts';
import { type Percentiles, percentiles } from './stats.ts';
import type { Turn } from './turns.ts';

// The live scenario: sockets that each stream one reply in word-sized pieces at a language model's
// pace, as a voice agent does, and time the first clause: from the piece that completes it to its
// first audio.

/** Words a language model produces per second, roughly. */
export const WORDS_PER_SECOND = 15;

/** One socket's reply as its client saw it. */
export interface LiveCall {
  /** From sending the piece that completed the first clause to its first audio message. */
  readonly clauseToAudioMs: number;
  /** The server's `ttfa_ms` of the same audio. */
  readonly serverTtfaMs: number;
  readonly error?: string;
}

export interface LiveHttp {
  readonly sockets: number;
  readonly repeats: number;
  readonly calls: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly clauseToAudio: Percentiles;
  readonly serverTtfa: Percentiles;
}

/** Streams `turn` over one new live connection, word by word, and times its first clause. */
export function liveCall(target: CallTarget, turn: Turn): Promise<LiveCall> {
  const url = `${target.base.replace(/^http/, 'ws')}/api/v1/tts-live`;
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${target.key}` } });
  const pieces = turn.text.split(/(?<= )/);
  const clauses = new LiveClauses();
  let completedAt = Number.NaN;
  let firstAudio: { at: number; ttfa: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  return new Promise<LiveCall>((resolve) => {
    const finish = (error?: string) => {
      clearInterval(timer);
      socket.close();
      resolve({
        clauseToAudioMs: firstAudio ? firstAudio.at - completedAt : Number.NaN,
        serverTtfaMs: firstAudio?.ttfa ?? Number.NaN,
        ...(error ? { error } : {}),
      });
    };
    socket.once('error', (error) => finish(error.message));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; ttfa_ms?: number; code?: string };
      if (message.type === 'audio' && firstAudio === undefined)
        firstAudio = { at: performance.now(), ttfa: message.ttfa_ms ?? Number.NaN };
      else if (message.type === 'done') finish();
      else if (message.type === 'error') finish(message.code);
    });
    socket.once('open', () => {
      let next = 0;
      const send = () => {
        const piece = pieces[next++];
        if (piece === undefined) {
          clearInterval(timer);
          socket.send(JSON.stringify({ type: 'end', context_id: 'reply' }));
          if (Number.isNaN(completedAt)) completedAt = performance.now();
          return;
        }
        const opening =
          next === 1 ? { language: turn.language, speaker_id: turn.speakerId, format: 'pcm16_8k' } : {};
        socket.send(JSON.stringify({ type: 'text', context_id: 'reply', text: piece, ...opening }));
        if (Number.isNaN(completedAt) && clauses.push(piece).length > 0) completedAt = performance.now();
      };
      send();
      timer = setInterval(send, 1000 / WORDS_PER_SECOND);
    });
  });
}

/** The calls of one socket count, pooled over its repeats. */
export function liveResults(sockets: number, repeats: number, calls: readonly LiveCall[]): LiveHttp {
  const good = calls.filter((c) => c.error === undefined && !Number.isNaN(c.clauseToAudioMs));
  const firstError = calls.find((c) => c.error !== undefined)?.error;
  return {
    sockets,
    repeats,
    calls: calls.length,
    errors: calls.length - good.length,
    ...(firstError ? { firstError } : {}),
    clauseToAudio: percentiles(good.map((c) => c.clauseToAudioMs)),
    serverTtfa: percentiles(good.map((c) => c.serverTtfaMs)),
  };
}
