/**
 * Engine PCM -> the bytes of a stream format: resample to the format's rate, then write
 * little-endian 16-bit PCM or G.711. Streaming: chunks go in as the engine makes them, and
 * `flush()` at the end of each clause returns what the resampler held back.
 */

import type { StreamEncoding } from './formats.ts';
import { encodeAlaw, encodeMulaw } from './g711.ts';
import { int16ToLittleEndianBytes } from './pcm.ts';
import { type Resampler, ResamplerBackend } from './resampler.ts';

/** What an encoder produces: audio at this rate in this encoding (a `StreamFormat` is one). */
export interface OutputEncoding {
  readonly sampleRate: number;
  readonly encoding: StreamEncoding;
}

/** One stream's conversion from engine samples to format bytes. */
export interface StreamEncoder {
  /**
   * Encodes the next engine chunk. The bytes are the caller's to keep or transfer; for 16-bit
   * PCM at the engine's own rate they share memory with `samples` (the engine does not reuse
   * its chunks). The result can be empty while the resampler fills its filter.
   */
  encode(samples: Int16Array): Uint8Array;
  /** Ends the stream: the held-back tail, encoded. The encoder is then ready for a new stream. */
  flush(): Uint8Array;
  /** Drops the stream in progress (a cancelled job). */
  reset(): void;
}

function encoderFor(encoding: StreamEncoding): (samples: Int16Array) => Uint8Array {
  switch (encoding) {
    case 'pcm_s16le':
      return int16ToLittleEndianBytes;
    case 'mulaw':
      return encodeMulaw;
    case 'alaw':
      return encodeAlaw;
  }
}

/** A stream encoder over a resampler that already goes from the engine's rate to the output rate. */
export function createStreamEncoder(resampler: Resampler, encoding: StreamEncoding): StreamEncoder {
  const write = encoderFor(encoding);
  return {
    encode: (samples) => write(resampler.process(samples)),
    flush: () => write(resampler.flush()),
    reset: () => resampler.reset(),
  };
}

/** The encoders of one engine worker thread, reused job after job. */
export interface StreamEncoderCache {
  /**
   * The encoder from `inputRate` engine audio to `output`, reset for a new stream. The cache
   * keeps one encoder per pair of rate and encoding and resets it here, so a stream left
   * unfinished loses its state to the next one: one stream at a time, as a worker runs jobs.
   */
  get(inputRate: number, output: OutputEncoding): StreamEncoder;
}

/**
 * Loads and warms the resampler backend (a few milliseconds) and returns a cache that
 * makes encoders from it: one per (engine rate, output rate, encoding), built on first use.
 * Create one per worker thread, before the worker reports ready.
 */
export async function createStreamEncoderCache(): Promise<StreamEncoderCache> {
  const backend = await ResamplerBackend.load();
  const encoders = new Map<string, StreamEncoder>();
  return {
    get(inputRate, output) {
      const key = `${inputRate}>${output.sampleRate}:${output.encoding}`;
      let encoder = encoders.get(key);
      if (encoder) {
        encoder.reset();
      } else {
        encoder = createStreamEncoder(backend.resampler(inputRate, output.sampleRate), output.encoding);
        encoders.set(key, encoder);
      }
      return encoder;
    },
  };
}
