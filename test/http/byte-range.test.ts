import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ByteRangeRequest, parseByteRange } from '../../src/http/byte-range.ts';

const range = (start: number, end: number): ByteRangeRequest => ({ kind: 'range', start, end });
const ignore: ByteRangeRequest = { kind: 'ignore' };
const unsatisfiable: ByteRangeRequest = { kind: 'unsatisfiable' };

function expectRanges(size: number, cases: readonly (readonly [string | undefined, ByteRangeRequest])[]) {
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} of ${size} bytes`, () =>
      assert.deepEqual(parseByteRange(header, size), expected));
  }
}

describe('parseByteRange', () => {
  // RFC 9110, section 14.1.2, examples over a 10000-byte representation.
  describe('the RFC 9110 examples', () => {
    expectRanges(10_000, [
      ['bytes=0-499', range(0, 499)],
      ['bytes=500-999', range(500, 999)],
      ['bytes=-500', range(9500, 9999)],
      ['bytes=9500-', range(9500, 9999)],
      ['bytes=0-', range(0, 9999)],
    ]);
  });

  // RFC 9110, section 14.1.2: an end past the representation is clamped, a suffix longer than it
  // means all of it; section 14.1.1: range units are compared case-insensitively.
  describe('clamping and case', () => {
    expectRanges(10_000, [
      ['bytes=9500-20000', range(9500, 9999)],
      ['bytes=-20000', range(0, 9999)],
      ['bytes=0-0', range(0, 0)],
      ['bytes=9999-', range(9999, 9999)],
      ['Bytes=0-1', range(0, 1)],
      ['bytes=0-1,', range(0, 1)],
    ]);
  });

  // RFC 9110, section 14.1.2: a first-pos at or past the length, or a zero suffix-length, is not
  // satisfiable (416 per section 15.5.17).
  describe('unsatisfiable', () => {
    expectRanges(10_000, [
      ['bytes=10000-', unsatisfiable],
      ['bytes=10000-10001', unsatisfiable],
      ['bytes=-0', unsatisfiable],
    ]);
  });

  // RFC 9110, section 14.2: a server may ignore Range, and must ignore unknown units; invalid
  // specs (last-pos below first-pos, section 14.1.1) and several ranges are ignored here, so the
  // client gets the whole file with 200.
  describe('ignored', () => {
    expectRanges(10_000, [
      [undefined, ignore],
      ['', ignore],
      ['bytes', ignore],
      ['bytes=', ignore],
      ['bytes=-', ignore],
      ['bytes=500-499', ignore],
      ['bytes=abc', ignore],
      ['bytes=0-1-2', ignore],
      ['bytes=1.5-2', ignore],
      ['items=0-5', ignore],
      ['bytes=0-0,-1', ignore],
      ['bytes= 0-999, 4500-5499, -1000', ignore],
    ]);
  });

  // RFC 9110, section 14.1.2: for a zero-length representation only a non-zero suffix is
  // satisfiable, and no Content-Range can name its bytes, so it is sent whole.
  describe('an empty file', () => {
    expectRanges(0, [
      ['bytes=0-', unsatisfiable],
      ['bytes=-1', ignore],
    ]);
  });
});
