import type { EnginePool } from '../pool/engine-pool.ts';
import type { CompressedFormat } from './compressed-formats.ts';
import { int16ToLittleEndianBytes } from './pcm.ts';

/**
 * Audio already made (a studio download) in a compressed format, encoded on the encoding
 * threads a second at a time, so that no request thread encodes and no message is large.
 */
export async function encodeAudio(
  pool: EnginePool,
  samples: Int16Array,
  sampleRate: number,
  format: CompressedFormat,
): Promise<Uint8Array[]> {
  const stream = pool.openEncoder(format, sampleRate);
  const parts: Uint8Array[] = [];
  try {
    for (let at = 0; at < samples.length; at += sampleRate) {
      parts.push(await stream.encode(int16ToLittleEndianBytes(samples.subarray(at, at + sampleRate))));
    }
    parts.push(await stream.end());
    return parts;
  } catch (error) {
    stream.drop();
    throw error;
  }
}
