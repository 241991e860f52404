import createFlac from 'libflacjs';
import { joinBytes } from './bytes.ts';
import type { FormatEncoder } from './compressed-formats.ts';

// FLAC by libFLAC compiled to JavaScript (`libflacjs`). Given no seek callback, the encoder
// writes its stream front to back (the STREAMINFO block leaves first, with the length unknown),
// so frames can leave as they are made.

/** libFLAC's default level: within a few percent of the smallest files, at a fraction of the cost. */
const COMPRESSION_LEVEL = 5;
const BITS_PER_SAMPLE = 16;

type Flac = ReturnType<typeof createFlac>;

function ready(flac: Flac): Promise<void> {
  return flac.isReady() ? Promise.resolve() : new Promise((resolve) => flac.on('ready', () => resolve()));
}

/** Loads libFLAC and returns a maker of FLAC encoders; one per thread. */
export async function flacEncoders(): Promise<(sampleRate: number) => FormatEncoder> {
  // The asm.js build: the WebAssembly one fetches its .wasm by URL, which Node 20 cannot.
  const flac = createFlac();
  await ready(flac);
  return (sampleRate) => {
    const encoder = flac.create_libflac_encoder(
      sampleRate,
      1,
      BITS_PER_SAMPLE,
      COMPRESSION_LEVEL,
      0,
      false,
      0,
    );
    if (!encoder) throw new Error('libFLAC could not create an encoder');
    let out: Uint8Array[] = [];
    const status = flac.init_encoder_stream(encoder, (data) => {
      out.push(data.slice());
    });
    if (status !== 0) throw new Error(`libFLAC could not start a stream (status ${status})`);
    const take = (): Uint8Array => {
      const bytes = joinBytes(out);
      out = [];
      return bytes;
    };
    let open = true;
    const close = () => {
      if (open) flac.FLAC__stream_encoder_delete(encoder);
      open = false;
    };
    return {
      encode(samples) {
        const wide = Int32Array.from(samples);
        if (!flac.FLAC__stream_encoder_process_interleaved(encoder, wide, samples.length))
          throw new Error('libFLAC could not encode');
        return take();
      },
      end() {
        flac.FLAC__stream_encoder_finish(encoder);
        const rest = take();
        close();
        return rest;
      },
      drop: close,
    };
  };
}
