/**
 * WAV (RIFF WAVE) files: headers with exact sizes, written by us rather than taken from an
 * engine (espeak-ng's `--stdout` header carries a bogus length), and a strict reader for tests
 * and tools. Layout per Microsoft's "Multimedia Programming Interface and Data Specifications
 * 1.0" (1991): PCM gets the canonical 44-byte header; G.711 (format tags 6 and 7) gets the
 * 18-byte `fmt ` chunk and the `fact` chunk that the specification requires of non-PCM formats.
 */

import type { StreamEncoding } from './formats.ts';
import { decodeAlaw, decodeMulaw } from './g711.ts';
import { int16ToLittleEndianBytes, littleEndianBytesToInt16 } from './pcm.ts';

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_ALAW = 6;
const WAVE_FORMAT_MULAW = 7;
const MAX_CHUNK = 0xffff_ffff;

const formatTags: Readonly<Record<StreamEncoding, number>> = {
  pcm_s16le: WAVE_FORMAT_PCM,
  alaw: WAVE_FORMAT_ALAW,
  mulaw: WAVE_FORMAT_MULAW,
};

/** A WAV file read back: its format, its data bytes, and the data as 16-bit samples (interleaved). */
export interface WavContents {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  readonly encoding: StreamEncoding;
  readonly data: Uint8Array;
  readonly samples: Int16Array;
}

/**
 * The header of a WAV file whose data chunk holds `dataByteLength` bytes in `encoding` (16-bit
 * little-endian PCM by default, or 8-bit G.711): 44 bytes for PCM, 58 for G.711. The data bytes
 * follow it directly. Throws a RangeError when the length is not a whole number of sample
 * frames or the file would pass the 4 GiB that RIFF sizes can express.
 */
export function wavHeader(
  dataByteLength: number,
  sampleRate: number,
  encoding: StreamEncoding = 'pcm_s16le',
  channels = 1,
): Uint8Array {
  const pcm = encoding === 'pcm_s16le';
  const bitsPerSample = pcm ? 16 : 8;
  const blockAlign = (channels * bitsPerSample) / 8;
  if (!Number.isInteger(sampleRate) || sampleRate < 1) throw new RangeError(`bad sample rate ${sampleRate}`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 0xffff)
    throw new RangeError(`bad channel count ${channels}`);
  if (!Number.isInteger(dataByteLength) || dataByteLength < 0 || dataByteLength % blockAlign !== 0) {
    throw new RangeError(
      `data length ${dataByteLength} is not a whole number of ${blockAlign}-byte sample frames`,
    );
  }
  const fmtSize = pcm ? 16 : 18;
  const factSize = pcm ? 0 : 12;
  const headerSize = 12 + 8 + fmtSize + factSize + 8;
  // A G.711 file of an odd number of mono samples gets a pad byte after its data chunk (RIFF
  // chunks are word-aligned); the RIFF size counts it, so encodeWav-style writers must add it.
  const riffSize = headerSize - 8 + dataByteLength + (dataByteLength % 2);
  if (riffSize > MAX_CHUNK)
    throw new RangeError(`WAV data of ${dataByteLength} bytes is over the RIFF size limit`);

  const header = new Uint8Array(headerSize);
  const view = new DataView(header.buffer);
  let at = 0;
  const tag = (id: string) => {
    for (let i = 0; i < 4; i++) header[at + i] = id.charCodeAt(i);
    at += 4;
  };
  const u32 = (value: number) => {
    view.setUint32(at, value, true);
    at += 4;
  };
  const u16 = (value: number) => {
    view.setUint16(at, value, true);
    at += 2;
  };
  tag('RIFF');
  u32(riffSize);
  tag('WAVE');
  tag('fmt ');
  u32(fmtSize);
  u16(formatTags[encoding]);
  u16(channels);
  u32(sampleRate);
  u32(sampleRate * blockAlign);
  u16(blockAlign);
  u16(bitsPerSample);
  if (!pcm) {
    u16(0); // cbSize: no extra format bytes
    tag('fact');
    u32(4);
    u32(dataByteLength / blockAlign); // sample frames per channel
  }
  tag('data');
  u32(dataByteLength);
  return header;
}

/**
 * The header of a mono WAV stream (16-bit PCM, or G.711 with `encoding`) whose length is not known
 * when it starts: both sizes at their largest value, which players read as "until the data ends"
 * (OpenAI's streamed WAV is written so).
 */
export function openEndedWavHeader(sampleRate: number, encoding: StreamEncoding = 'pcm_s16le'): Uint8Array {
  const header = wavHeader(0, sampleRate, encoding);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  view.setUint32(4, 0xffffffff, true);
  view.setUint32(header.byteLength - 4, 0xffffffff, true);
  return header;
}

/** A complete mono 16-bit PCM WAV file of `samples` at `sampleRate`: header and data in one buffer. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const header = wavHeader(samples.byteLength, sampleRate);
  const file = new Uint8Array(header.byteLength + samples.byteLength);
  file.set(header);
  file.set(int16ToLittleEndianBytes(samples), header.byteLength);
  return file;
}

/**
 * Reads a WAV file as written by `wavHeader`/`encodeWav` or by common tools: 16-bit PCM or
 * 8-bit G.711, other chunks skipped. Throws on anything malformed: missing or misordered chunks,
 * sizes that disagree with each other or run past the end of `bytes` (a truncated file),
 * formats it does not read. `samples` is a view of `bytes` when the PCM data is 2-byte aligned.
 */
export function parseWav(bytes: Uint8Array): WavContents {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tagAt = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.byteLength < 12 || tagAt(0) !== 'RIFF' || tagAt(8) !== 'WAVE')
    throw new Error('not a RIFF WAVE file');
  const end = 8 + view.getUint32(4, true);
  if (end > bytes.byteLength)
    throw new Error(`RIFF size says ${end} bytes, the file has ${bytes.byteLength}`);

  let format: Omit<WavContents, 'data' | 'samples'> | undefined;
  for (let at = 12; at + 8 <= end; ) {
    const id = tagAt(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (body + size > end) throw new Error(`chunk "${id}" of ${size} bytes runs past the end of the file`);
    if (id === 'fmt ') {
      if (format) throw new Error('two fmt chunks');
      format = readFormat(view, body, size);
    } else if (id === 'data') {
      if (!format) throw new Error('data chunk before the fmt chunk');
      const blockAlign = (format.channels * format.bitsPerSample) / 8;
      if (size % blockAlign !== 0)
        throw new Error(`data length ${size} is not a whole number of sample frames`);
      const data = bytes.subarray(body, body + size);
      const samples =
        format.encoding === 'mulaw'
          ? decodeMulaw(data)
          : format.encoding === 'alaw'
            ? decodeAlaw(data)
            : littleEndianBytesToInt16(data);
      return { ...format, data, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error(format ? 'no data chunk' : 'no fmt chunk');
}

function readFormat(view: DataView, at: number, size: number): Omit<WavContents, 'data' | 'samples'> {
  if (size < 16) throw new Error(`fmt chunk of ${size} bytes is too short`);
  const tag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const byteRate = view.getUint32(at + 8, true);
  const blockAlign = view.getUint16(at + 12, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  const encoding = (Object.keys(formatTags) as StreamEncoding[]).find((e) => formatTags[e] === tag);
  if (!encoding) throw new Error(`WAV format tag ${tag} is not read (only PCM, A-law and mu-law)`);
  const expectedBits = encoding === 'pcm_s16le' ? 16 : 8;
  if (bitsPerSample !== expectedBits) throw new Error(`${bitsPerSample}-bit ${encoding} is not read`);
  if (channels < 1 || sampleRate < 1)
    throw new Error(`bad fmt chunk: ${channels} channels at ${sampleRate} Hz`);
  if (blockAlign !== (channels * bitsPerSample) / 8 || byteRate !== sampleRate * blockAlign) {
    throw new Error('fmt chunk block alignment or byte rate disagrees with its channels, rate and bits');
  }
  return { sampleRate, channels, bitsPerSample, encoding };
}
