import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { StreamFormat } from '../../../speech/audio/formats.ts';
import type { Voice } from '../../../speech/voices/voices.ts';
import { type ClientMessage, type LiveProtocol, readFrame, type ServerMessage } from '../../live/protocol.ts';
import { voiceIdOf } from '../voice-id.ts';

// Deepgram's speak WebSocket as a protocol of the live connection: the socket is one live context
// (one TTS request for billing, opened by the first `Speak`); `Speak` adds text, `Flush` speaks what
// waits and is answered by `Flushed` once its audio is all sent, `Clear` drops what is not yet sent
// (`Cleared`), `Close` speaks the rest and closes. Audio goes as binary frames of bare samples; a
// `Metadata` frame opens the socket; a refusal is a `Warning` frame with Ijwi's code.

const CONTEXT = 'speak';

const messageSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('Speak'), text: z.string() }),
    z.looseObject({ type: z.literal('Flush') }),
    z.looseObject({ type: z.literal('Clear') }),
    z.looseObject({ type: z.literal('Close') }),
  ],
  { error: 'a message must be Speak (with text), Flush, Clear or Close' },
);

/** Deepgram's protocol for one socket speaking `voice` in `format`. */
export function deepgramProtocol(voice: Voice, format: StreamFormat): LiveProtocol {
  let open = false;
  let cleared = 0;
  return {
    maxContexts: 1,
    greeting: JSON.stringify({
      type: 'Metadata',
      request_id: randomUUID(),
      model_name: voiceIdOf(voice),
      model_version: 'ijwi-1',
      model_uuid: randomUUID(),
    }),
    decode(text) {
      const frame = readFrame(text, messageSchema);
      if (!frame.ok) return frame;
      const message = frame.value;
      if (message.type === 'Close') return { ok: true, messages: [{ type: 'close' }] };
      if (message.type === 'Speak') {
        open = true;
        const speak: ClientMessage = {
          type: 'text',
          context_id: CONTEXT,
          text: message.text,
          language: voice.language,
          speaker_id: voice.speakerId,
          format: format.name,
        };
        return { ok: true, messages: [speak] };
      }
      if (!open) return { ok: true, messages: [] };
      return {
        ok: true,
        messages: [{ type: message.type === 'Flush' ? 'flush' : 'clear', context_id: CONTEXT }],
      };
    },
    encode(message: ServerMessage) {
      switch (message.type) {
        case 'audio':
          return Buffer.from(message.audio, 'base64');
        case 'flushed':
          return JSON.stringify({ type: 'Flushed', sequence_id: message.sequence });
        case 'cleared':
          return JSON.stringify({ type: 'Cleared', sequence_id: ++cleared });
        case 'error':
          if (message.context_id !== undefined) open = false;
          return JSON.stringify({ type: 'Warning', description: message.message, code: message.code });
        case 'done':
          open = false;
          return undefined;
        case 'words':
          return undefined;
      }
    },
  };
}
