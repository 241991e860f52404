import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  hostIsLittleEndian,
  int16ToLittleEndianBytes,
  littleEndianBytesToInt16,
} from '../../../src/speech/audio/pcm.ts';

// Byte order: little-endian, low byte first, as the API contract decides for PCM streams and as
// the RIFF WAVE specification requires of 16-bit data. Two's complement per ECMA-262 Int16Array.
const cases: readonly [number, readonly [number, number]][] = [
  [0, [0x00, 0x00]],
  [1, [0x01, 0x00]],
  [0x1234, [0x34, 0x12]],
  [-1, [0xff, 0xff]],
  [-2, [0xfe, 0xff]],
  [32767, [0xff, 0x7f]],
  [-32768, [0x00, 0x80]],
];

describe('int16ToLittleEndianBytes', () => {
  it('writes each sample low byte first, two’s complement', () => {
    const bytes = int16ToLittleEndianBytes(new Int16Array(cases.map(([sample]) => sample)));
    assert.deepEqual(
      [...bytes],
      cases.flatMap(([, pair]) => pair),
    );
  });

  it('respects the offset of a view into a larger buffer', () => {
    const all = new Int16Array([111, 0x1234, -2, 222]);
    assert.deepEqual([...int16ToLittleEndianBytes(all.subarray(1, 3))], [0x34, 0x12, 0xfe, 0xff]);
  });

  it('does not copy on a little-endian host', { skip: !hostIsLittleEndian }, () => {
    const samples = new Int16Array([1, 2, 3]);
    const bytes = int16ToLittleEndianBytes(samples);
    assert.equal(bytes.buffer, samples.buffer);
  });
});

describe('littleEndianBytesToInt16', () => {
  it('reads each pair low byte first', () => {
    const samples = littleEndianBytesToInt16(new Uint8Array(cases.flatMap(([, pair]) => pair)));
    assert.deepEqual(
      [...samples],
      cases.map(([sample]) => sample),
    );
  });

  it('reads bytes at an odd offset, which an Int16Array view cannot start at', () => {
    const buffer = new Uint8Array([9, 0x34, 0x12, 0xfe, 0xff]);
    assert.deepEqual([...littleEndianBytesToInt16(buffer.subarray(1))], [0x1234, -2]);
  });

  it('round-trips every 16-bit value', () => {
    const all = new Int16Array(65536);
    for (let i = 0; i < all.length; i++) all[i] = i - 32768;
    assert.deepEqual(littleEndianBytesToInt16(int16ToLittleEndianBytes(all).slice()), all);
  });

  it('rejects half a sample', () => {
    assert.throws(() => littleEndianBytesToInt16(new Uint8Array(3)), RangeError);
  });
});
