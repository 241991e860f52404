import { z } from 'zod';
import type { StreamFormat } from '../../../speech/audio/formats.ts';
import type { WordTiming } from '../../../speech/synthesize.ts';
import type { Voice } from '../../../speech/voices/voices.ts';
import { ApiError } from '../../errors.ts';
import {
  type ClientMessage,
  contextId,
  type LiveProtocol,
  readFrame,
  type ServerMessage,
} from '../../live/protocol.ts';
import { normalizedAlignment } from './alignment.ts';
import { parseOutputFormat, supportedOutputFormats } from './output-format.ts';

// ElevenLabs' two text-to-speech WebSockets as a protocol of the live connection: each frame is
// read into Ijwi's live messages and each live message written as ElevenLabs' frame, so that a
// context is the live endpoint's (the same clause cutting, pacing, barge-in and bill).
//
// `multi-stream-input` (Pipecat's and LiveKit's): contexts by `context_id` (at most 5 open); the
// first frame of a context (ElevenLabs' `{"text": " "}`) opens it; `text` adds to it, `flush`
// speaks what waits; `{"text": "", "flush": true}` ends its input (its audio still comes, then
// `isFinal`); `close_context` on a context whose input has not ended is a barge-in: what it has
// not yet spoken is dropped, unbilled, and it ends (LiveKit sends it right after ending the input,
// where it changes nothing; Pipecat sends it when the caller interrupts); `close_socket` ends them
// all; `{"text": ""}` alone is a keepalive.
// `stream-input`: one context; `{"text": ""}` ends the input, and the socket closes after its audio.
// The server sends `audio` frames (base64), after each clause a frame with no audio and its words'
// `alignment` (as read, in ms from where the previous alignment ended, so that a client adding
// each frame's end to a running total, as ElevenLabs' clients do, gets the words' times), then
// `isFinal` when a context's audio is all sent.

/** The id a `multi-stream-input` frame without `context_id` speaks in, and the one `stream-input` context. */
const DEFAULT_CONTEXT = 'default';

const frameSchema = z.looseObject({
  text: z.string().optional(),
  context_id: contextId.optional(),
  flush: z.boolean().optional(),
  close_context: z.boolean().optional(),
  close_socket: z.boolean().optional(),
  // On the frame that opens a context (ElevenLabs' initialisation message); read when it opens.
  pronunciation_dictionary_locators: z
    .array(
      z.looseObject({
        pronunciation_dictionary_id: z.string().max(100),
        version_id: z.string().max(100).nullish(),
      }),
    )
    .optional(),
});

type Locators = NonNullable<z.infer<typeof frameSchema>['pronunciation_dictionary_locators']>;

/**
 * A locator as the live endpoint's `dictionaries` item, checked when the context opens (a version
 * id is a version's number; anything else is refused there).
 */
const asDictionary = (locator: Locators[number]) => ({
  id: locator.pronunciation_dictionary_id,
  ...(locator.version_id == null
    ? {}
    : { version: /^\d{1,9}$/.test(locator.version_id) ? Number(locator.version_id) : locator.version_id }),
});

/** The raw audio a WebSocket sends for an `output_format`, or the 422 naming the raw ones. */
export function websocketFormat(name: string | undefined): StreamFormat {
  const parsed = parseOutputFormat(name ?? 'pcm_16000');
  if (parsed.ok && parsed.audio.target.kind === 'stream') return parsed.audio.target.format;
  const raw = supportedOutputFormats.filter((format) => /^(pcm|ulaw|alaw)_/.test(format));
  throw new ApiError(
    'unsupported_format',
    `output_format over a WebSocket must be one of ${raw.join(', ')}`,
    {
      param: 'output_format',
    },
  );
}

/** Contexts one `multi-stream-input` socket may hold open (ElevenLabs allows 5; clients that
 * interrupt often close contexts late). */
export const MAX_ELEVENLABS_CONTEXTS = 10;
/** ElevenLabs' `inactivity_timeout`: 20 s unless the client asks, at most 180 s. */
const DEFAULT_INACTIVITY_SECONDS = 20;
const MAX_INACTIVITY_SECONDS = 180;

/** The `inactivity_timeout` query parameter in ms, or the 422 that gives its range. */
export function inactivityMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_INACTIVITY_SECONDS * 1000;
  const seconds = Number(value);
  if (!/^\d{1,3}$/.test(value) || seconds < 1 || seconds > MAX_INACTIVITY_SECONDS) {
    throw new ApiError(
      'invalid_request',
      `inactivity_timeout must be a whole number of seconds from 1 to ${MAX_INACTIVITY_SECONDS}`,
      { param: 'inactivity_timeout' },
    );
  }
  return seconds * 1000;
}

/** ElevenLabs' WebSocket protocol for one connection speaking `voice` in `format`. */
export function elevenLabsProtocol(
  voice: Voice,
  format: StreamFormat,
  multi: boolean,
  idleMs: number,
): LiveProtocol {
  /** Contexts open on this connection: whether their input has ended, and the last word timed. */
  const open = new Map<string, { ended: boolean; last: WordTiming | undefined }>();
  const ending = (context_id: string): ClientMessage => {
    const state = open.get(context_id);
    if (state) state.ended = true;
    return { type: 'end', context_id };
  };
  const opening = (context_id: string, text: string, locators: Locators | undefined): ClientMessage => {
    if (!open.has(context_id)) open.set(context_id, { ended: false, last: undefined });
    return {
      type: 'text',
      context_id,
      text,
      language: voice.language,
      speaker_id: voice.speakerId,
      format: format.name,
      ...(locators === undefined ? {} : { dictionaries: locators.map(asDictionary) }),
    };
  };
  const frame = (contextId: string, fields: Record<string, unknown>) =>
    JSON.stringify(multi ? { ...fields, contextId } : fields);

  return {
    maxContexts: multi ? MAX_ELEVENLABS_CONTEXTS : 1,
    idleMs,
    decode(text) {
      const frame = readFrame(text, frameSchema);
      if (!frame.ok) return frame;
      const message = frame.value;
      const id = (multi ? message.context_id : undefined) ?? DEFAULT_CONTEXT;
      if (message.close_socket) return { ok: true, messages: [{ type: 'close' }] };
      if (message.close_context) {
        // Ended (its isFinal sent), or its input already ended: it finishes as it is.
        if (open.get(id)?.ended !== false) return { ok: true, messages: [] };
        return { ok: true, messages: [{ type: 'clear', context_id: id }, ending(id)] };
      }
      const messages: ClientMessage[] = [];
      if (message.text === '') {
        if (!multi) {
          const rest: ClientMessage[] = open.has(id) ? [ending(id)] : [];
          return { ok: true, messages: [...rest, { type: 'close' }] };
        }
        // A keepalive, unless it ends the context's input.
        if (message.flush && open.get(id)?.ended === false) messages.push(ending(id));
        return { ok: true, messages };
      }
      if (message.text !== undefined)
        messages.push(opening(id, message.text, message.pronunciation_dictionary_locators));
      if (message.flush && open.has(id)) messages.push({ type: 'flush', context_id: id });
      return { ok: true, messages };
    },
    encode(message: ServerMessage) {
      switch (message.type) {
        case 'audio':
          return frame(message.context_id, {
            audio: message.audio,
            isFinal: false,
            alignment: null,
            normalizedAlignment: null,
          });
        case 'words': {
          const words = message.words.map((w) => ({ text: w.text, startMs: w.start_ms, endMs: w.end_ms }));
          const state = open.get(message.context_id);
          const previous = state?.last;
          const alignment = normalizedAlignment(words, previous?.endMs ?? 0, previous);
          if (state) state.last = words[words.length - 1] ?? previous;
          return frame(message.context_id, {
            audio: '',
            isFinal: false,
            alignment,
            normalizedAlignment: alignment,
          });
        }
        case 'done':
          open.delete(message.context_id);
          return frame(message.context_id, { isFinal: true });
        case 'error': {
          const { type: _type, context_id, code, message: text, ...details } = message;
          if (context_id !== undefined) open.delete(context_id);
          return frame(context_id ?? DEFAULT_CONTEXT, { error: code, message: text, ...details });
        }
        case 'cleared':
        case 'flushed':
          return undefined;
      }
    },
  };
}
