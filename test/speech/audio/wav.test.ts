import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeAlaw, encodeMulaw } from '../../../src/speech/audio/g711.ts';
import { encodeWav, parseWav, wavHeader } from '../../../src/speech/audio/wav.ts';
import { speechLike } from '../../helpers/signals.ts';

// Layout: the canonical 44-byte PCM header of the RIFF WAVE format, field by field, as in
// Microsoft's "Multimedia Programming Interface and Data Specifications 1.0" and the CCRMA page
// "WAVE PCM soundfile format": RIFF size = 36 + data bytes, byte rate = rate * block align.
describe('wavHeader', () => {
  it('writes the canonical header for 1 s of 8 kHz mono 16-bit PCM', () => {
    const expected = [
      [0x52, 0x49, 0x46, 0x46], // "RIFF"
      [0xa4, 0x3e, 0x00, 0x00], // 16036 = 36 + 16000
      [0x57, 0x41, 0x56, 0x45], // "WAVE"
      [0x66, 0x6d, 0x74, 0x20], // "fmt "
      [0x10, 0x00, 0x00, 0x00], // fmt chunk of 16 bytes
      [0x01, 0x00], // format 1: PCM
      [0x01, 0x00], // 1 channel
      [0x40, 0x1f, 0x00, 0x00], // 8000 Hz
      [0x80, 0x3e, 0x00, 0x00], // 16000 bytes per second
      [0x02, 0x00], // 2 bytes per sample frame
      [0x10, 0x00], // 16 bits per sample
      [0x64, 0x61, 0x74, 0x61], // "data"
      [0x80, 0x3e, 0x00, 0x00], // 16000 data bytes
    ].flat();
    assert.deepEqual([...wavHeader(16000, 8000)], expected);
  });

  it('writes exact sizes and rates at the voices’ 22050 Hz', () => {
    const header = wavHeader(2 * 22050 * 3, 22050);
    const view = new DataView(header.buffer);
    assert.equal(header.byteLength, 44);
    assert.equal(view.getUint32(4, true), 36 + 132300);
    assert.equal(view.getUint32(24, true), 22050);
    assert.equal(view.getUint32(28, true), 44100);
    assert.equal(view.getUint32(40, true), 132300);
  });

  // Non-PCM formats get cbSize in an 18-byte fmt chunk and a fact chunk with the sample count
  // (same specification); format tags 7 (mu-law) and 6 (A-law) from its registered list.
  it('writes G.711 headers with format tag, 8 bits, cbSize and a fact chunk', () => {
    for (const [encoding, tag] of [
      ['mulaw', 7],
      ['alaw', 6],
    ] as const) {
      const header = wavHeader(8000, 8000, encoding);
      const view = new DataView(header.buffer);
      const text = (at: number) => String.fromCharCode(...header.subarray(at, at + 4));
      assert.equal(header.byteLength, 58);
      assert.equal(view.getUint32(4, true), 50 + 8000);
      assert.equal(text(12), 'fmt ');
      assert.equal(view.getUint32(16, true), 18);
      assert.equal(view.getUint16(20, true), tag);
      assert.equal(view.getUint32(28, true), 8000);
      assert.equal(view.getUint16(32, true), 1);
      assert.equal(view.getUint16(34, true), 8);
      assert.equal(view.getUint16(36, true), 0);
      assert.equal(text(38), 'fact');
      assert.equal(view.getUint32(46, true), 8000);
      assert.equal(text(50), 'data');
      assert.equal(view.getUint32(54, true), 8000);
    }
  });

  it('refuses a data length that is not whole samples, or too big for RIFF', () => {
    assert.throws(() => wavHeader(3, 8000), RangeError);
    assert.throws(() => wavHeader(-2, 8000), RangeError);
    assert.throws(() => wavHeader(0xffff_fffe, 8000), RangeError);
    assert.throws(() => wavHeader(16000, 0), RangeError);
  });
});

describe('encodeWav and parseWav', () => {
  it('round-trips 16-bit PCM exactly', () => {
    const samples = speechLike(22050, 0.5);
    samples[0] = -32768;
    samples[1] = 32767;
    const file = encodeWav(samples, 22050);
    assert.equal(file.byteLength, 44 + samples.byteLength);
    const wav = parseWav(file);
    assert.equal(wav.sampleRate, 22050);
    assert.equal(wav.channels, 1);
    assert.equal(wav.bitsPerSample, 16);
    assert.equal(wav.encoding, 'pcm_s16le');
    assert.deepEqual(wav.samples, samples);
  });

  it('reads G.711 files back to the codec’s samples', () => {
    const samples = speechLike(8000, 0.25);
    const data = encodeMulaw(samples);
    const wav = parseWav(new Uint8Array([...wavHeader(data.byteLength, 8000, 'mulaw'), ...data]));
    assert.equal(wav.encoding, 'mulaw');
    assert.equal(wav.bitsPerSample, 8);
    assert.deepEqual(wav.data, data);
    const alaw = encodeAlaw(samples);
    assert.deepEqual(
      parseWav(new Uint8Array([...wavHeader(alaw.byteLength, 8000, 'alaw'), ...alaw])).data,
      alaw,
    );
  });

  it('skips chunks it does not know, such as LIST metadata', () => {
    const samples = new Int16Array([1, -2, 3]);
    const file = encodeWav(samples, 16000);
    const list = [...new TextEncoder().encode('LIST'), 3, 0, 0, 0, 0x61, 0x62, 0x63, 0]; // odd size, padded
    const withList = new Uint8Array([...file.subarray(0, 36), ...list, ...file.subarray(36)]);
    new DataView(withList.buffer).setUint32(4, withList.byteLength - 8, true);
    assert.deepEqual(parseWav(withList).samples, samples);
  });

  it('throws on malformed files', () => {
    const good = encodeWav(new Int16Array([1, 2, 3, 4]), 8000);
    const broken = (change: (bytes: Uint8Array, view: DataView) => void) => {
      const bytes = good.slice();
      change(bytes, new DataView(bytes.buffer));
      return bytes;
    };
    const cases: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['not RIFF', broken((b) => b.set([0x52, 0x49, 0x46, 0x58], 0))],
      ['not WAVE', broken((b) => b.set([0x41, 0x56, 0x49, 0x20], 8))],
      ['truncated', good.subarray(0, good.byteLength - 2)],
      ['data runs past the end', broken((_, v) => v.setUint32(40, 1000, true))],
      ['no fmt chunk', broken((b) => b.set([0x66, 0x6d, 0x74, 0x58], 12))],
      ['24-bit', broken((_, v) => v.setUint16(34, 24, true))],
      ['float format', broken((_, v) => v.setUint16(20, 3, true))],
      ['byte rate disagrees', broken((_, v) => v.setUint32(28, 8000, true))],
      ['half a sample of data', broken((_, v) => v.setUint32(40, 7, true))],
    ];
    for (const [name, bytes] of cases) assert.throws(() => parseWav(bytes), Error, name);
  });
});
