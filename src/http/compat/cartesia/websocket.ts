import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { type ClientMessage, type LiveProtocol, readFrame, type ServerMessage } from '../../live/protocol.ts';
import { asFloat32, cartesiaAudio, generationSchema } from './request.ts';

// Cartesia's `/tts/websocket` as a protocol of the live connection: each `context_id` is a live
// context, opened by its first generation request (whose voice and output_format it keeps);
// each request's `transcript` is added to it, and one with `continue: false` (the default) ends
// its input; `{"context_id", "cancel": true}` drops what it has not sent. The server sends
// `chunk` (base64 samples), `timestamps` (when asked: the words of each clause, in seconds from
// the context's start), `done`, and `error` frames, each with its `context_id`.

const cancelSchema = z.looseObject({ context_id: z.string(), cancel: z.literal(true) });

/** Cartesia's socket protocol. */
export function cartesiaProtocol(): LiveProtocol {
  const contexts = new Map<string, { float: boolean; timestamps: boolean; ended: boolean }>();
  const frame = (fields: Record<string, unknown>) => JSON.stringify(fields);
  return {
    maxContexts: 10,
    decode(text) {
      // A cancel is told from a generation request by its `cancel` field.
      const cancel = readFrame(text, cancelSchema);
      if (cancel.ok) {
        const id = cancel.value.context_id;
        const state = contexts.get(id);
        // Done already (its `done` sent): nothing left to cancel.
        if (!state) return { ok: true, messages: [] };
        state.ended = true;
        return {
          ok: true,
          messages: [
            { type: 'clear', context_id: id },
            { type: 'end', context_id: id },
          ],
        };
      }
      const frame = readFrame(text, generationSchema);
      if (!frame.ok) return frame;
      const generation = frame.value;
      const id = generation.context_id ?? randomUUID();
      let audio: ReturnType<typeof cartesiaAudio>;
      try {
        audio = cartesiaAudio(generation);
      } catch (error) {
        if (error instanceof ApiError) return { ok: false, error };
        throw error;
      }
      if (!audio.format)
        return {
          ok: false,
          error: new ApiError(
            'unsupported_format',
            'a WebSocket sends raw samples: output_format.container must be raw',
            {
              param: 'output_format.container',
            },
          ),
        };
      const state = contexts.get(id) ?? {
        float: audio.float,
        timestamps: generation.add_timestamps === true,
        ended: false,
      };
      contexts.set(id, state);
      const messages: ClientMessage[] = [
        {
          type: 'text',
          context_id: id,
          text: generation.transcript,
          language: audio.voice.language,
          speaker_id: audio.voice.speakerId,
          format: audio.format.name,
        },
      ];
      if (generation.continue !== true && !state.ended) {
        state.ended = true;
        messages.push({ type: 'end', context_id: id });
      }
      return { ok: true, messages };
    },
    encode(message: ServerMessage) {
      switch (message.type) {
        case 'audio': {
          const bytes = Buffer.from(message.audio, 'base64');
          const data = contexts.get(message.context_id)?.float ? Buffer.from(asFloat32(bytes)) : bytes;
          return frame({
            type: 'chunk',
            data: data.toString('base64'),
            done: false,
            status_code: 206,
            step_time: 0,
            context_id: message.context_id,
          });
        }
        case 'words':
          if (!contexts.get(message.context_id)?.timestamps) return undefined;
          return frame({
            type: 'timestamps',
            done: false,
            status_code: 206,
            context_id: message.context_id,
            word_timestamps: {
              words: message.words.map((w) => w.text),
              start: message.words.map((w) => w.start_ms / 1000),
              end: message.words.map((w) => w.end_ms / 1000),
            },
          });
        case 'done':
          contexts.delete(message.context_id);
          return frame({ type: 'done', done: true, status_code: 200, context_id: message.context_id });
        case 'error': {
          const { type: _type, context_id, code, message: text, ...details } = message;
          if (context_id !== undefined) contexts.delete(context_id);
          return frame({
            ...details,
            type: 'error',
            done: true,
            status_code: 400,
            title: code,
            error_code: code,
            message: text,
            ...(context_id === undefined ? {} : { context_id }),
          });
        }
        case 'cleared':
        case 'flushed':
          return undefined;
      }
    },
  };
}
