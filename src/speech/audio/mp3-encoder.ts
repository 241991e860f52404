import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import type { FormatEncoder } from './compressed-formats.ts';

// MP3 by LAME 3.100 compiled to WebAssembly (`wasm-media-encoders`): chosen over the JavaScript
// port (`@breezystack/lamejs`), which took about 5 times the CPU and 25 MB more memory for the
// same frames (speech/audio/README.md). Each encoder is its own WebAssembly instance, so the
// module is compiled once and finished encoders are configured again rather than made anew.

/** Constant bit rate, so a player can seek a streamed file without an index; clear speech at 24 kHz. */
const BITRATE = 64;
/** Idle encoders kept for the next streams. */
const KEEP_IDLE = 8;

type Lame = WasmMediaEncoder<'audio/mpeg'>;

/** Loads LAME and returns a maker of MP3 encoders; one per thread. */
export async function mp3Encoders(): Promise<(sampleRate: number) => Promise<FormatEncoder>> {
  const path = createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');
  const module = await WebAssembly.compile(await readFile(path));
  // Kept configured for the rate they last had: setting LAME up takes milliseconds, which a new
  // stream's first frame would otherwise wait for. A finished encoder is set up again at once.
  const idle: { lame: Lame; sampleRate: number }[] = [];
  const configured = (lame: Lame, sampleRate: number) => {
    lame.configure({ sampleRate, channels: 1, bitrate: BITRATE });
    return lame;
  };
  const take = async (sampleRate: number): Promise<Lame> => {
    const same = idle.findIndex((kept) => kept.sampleRate === sampleRate);
    if (same >= 0) return (idle.splice(same, 1)[0] as { lame: Lame }).lame;
    const other = idle.pop()?.lame ?? (await createEncoder('audio/mpeg', module));
    return configured(other, sampleRate);
  };
  return async (sampleRate) => {
    const lame = await take(sampleRate);
    let open = true;
    const release = () => {
      if (open && idle.length < KEEP_IDLE) idle.push({ lame: configured(lame, sampleRate), sampleRate });
      open = false;
    };
    return {
      encode(samples) {
        const input = new Float32Array(samples.length);
        for (let i = 0; i < samples.length; i++) input[i] = (samples[i] ?? 0) / 32768;
        // A view of the encoder's memory, valid until its next call: copied.
        return lame.encode([input]).slice();
      },
      end() {
        const rest = lame.finalize().slice();
        release();
        return rest;
      },
      drop: release,
    };
  };
}
