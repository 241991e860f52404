import { parentPort } from 'node:worker_threads';
import { loadFormatEncoders } from './compressed-encoders.ts';
import type { FormatEncoder } from './compressed-formats.ts';
import type { FromEncoder, ToEncoder } from './encoding-protocol.ts';
import { littleEndianBytesToInt16 } from './pcm.ts';

// An encoding thread: the streams' compressed-format encoders, away from the thread that answers
// requests (a second of MP3 costs milliseconds, more than espeak-ng spends making it). A format's
// library is loaded when a stream first asks for it (format-encoders.ts): a service whose clients
// ask only for PCM, G.711 or WAV holds none, and the first MP3 stream waits tens of ms for LAME.

const port = parentPort;
if (!port) throw new Error('encoding-worker must run in a worker thread');

const encoderFor = await loadFormatEncoders();

/** Each open stream's encoder, once made (making an MP3 encoder may wait for an instance). */
const streams = new Map<number, Promise<FormatEncoder>>();

function reply(message: FromEncoder): void {
  const transfer = message.type === 'bytes' ? [message.bytes.buffer as ArrayBuffer] : [];
  port?.postMessage(message, transfer);
}

/** Bytes that own their buffer, so that they can be transferred. */
function owned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

async function handle(message: ToEncoder): Promise<void> {
  if (message.type === 'open') {
    streams.set(message.stream, encoderFor(message.format, message.sampleRate, message.serial));
    return;
  }
  const encoder = streams.get(message.stream);
  if (message.type === 'drop') {
    streams.delete(message.stream);
    (await encoder)?.drop();
    return;
  }
  try {
    if (!encoder) throw new Error('no such encoding stream');
    const ready = await encoder;
    if (message.type === 'end') streams.delete(message.stream);
    const bytes =
      message.type === 'encode' ? ready.encode(littleEndianBytesToInt16(message.pcm)) : ready.end();
    reply({ type: 'bytes', request: message.request, bytes: owned(bytes) });
  } catch (error) {
    streams.delete(message.stream);
    reply({
      type: 'error',
      request: message.request,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

// Messages of one stream are handled in order: each waits for the one before it.
let last: Promise<void> = Promise.resolve();
port.on('message', (message: ToEncoder) => {
  // An encoder that failed to be made fails its stream's requests; nothing else is left to report.
  last = last.then(() => handle(message)).catch(() => {});
});
