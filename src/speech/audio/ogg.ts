/**
 * Ogg pages (RFC 3533) for one logical stream: the container of Opus audio. A page carries whole
 * packets only (a packet never continues on the next page), which is all a streaming encoder of
 * short packets needs: each page can leave as soon as its packets are encoded.
 */

import { joinBytes } from './bytes.ts';

/** One encoded packet and the stream's granule position once it is decoded. */
export interface OggPacket {
  readonly data: Uint8Array;
  readonly granule: bigint;
}

const HEADER_BYTES = 27;
const MAX_SEGMENTS = 255;
const FLAG_FIRST = 0x02;
const FLAG_LAST = 0x04;

// CRC-32 of Ogg: polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg checksum of `bytes` (with the checksum field zeroed). */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

/** Lacing values a packet takes: 255 per full 255 bytes, then the rest (0 when it divides evenly). */
function segmentsOf(packet: Uint8Array): number {
  return Math.floor(packet.byteLength / 255) + 1;
}

/** Writes the pages of one logical stream, numbering them and marking its first and last. */
export class OggStreamWriter {
  readonly #serial: number;
  #sequence = 0;

  constructor(serial: number) {
    this.#serial = serial >>> 0;
  }

  /**
   * The pages that carry `packets`, in order, as few as the 255-segment limit allows; `last`
   * marks the final page as the end of the stream. Each page's granule position is its last
   * packet's. A packet of 65,025 bytes or more does not fit one page and is refused.
   */
  pages(packets: readonly OggPacket[], last = false): Uint8Array {
    const pages: Uint8Array[] = [];
    let start = 0;
    while (start < packets.length) {
      let end = start;
      let segments = 0;
      while (end < packets.length) {
        const packet = packets[end] as OggPacket;
        const needed = segmentsOf(packet.data);
        if (needed > MAX_SEGMENTS) throw new RangeError(`an Ogg packet of ${packet.data.byteLength} bytes`);
        if (segments + needed > MAX_SEGMENTS) break;
        segments += needed;
        end++;
      }
      pages.push(this.#page(packets.slice(start, end), last && end === packets.length));
      start = end;
    }
    return joinBytes(pages);
  }

  #page(packets: readonly OggPacket[], last: boolean): Uint8Array {
    const lacing: number[] = [];
    let bodyBytes = 0;
    for (const { data } of packets) {
      for (let left = data.byteLength; ; left -= 255) {
        lacing.push(Math.min(left, 255));
        if (left < 255) break;
      }
      bodyBytes += data.byteLength;
    }
    const page = new Uint8Array(HEADER_BYTES + lacing.length + bodyBytes);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53]); // "OggS"
    page[5] = (this.#sequence === 0 ? FLAG_FIRST : 0) | (last ? FLAG_LAST : 0);
    view.setBigUint64(6, packets.at(-1)?.granule ?? 0n, true);
    view.setUint32(14, this.#serial, true);
    view.setUint32(18, this.#sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, HEADER_BYTES);
    let at = HEADER_BYTES + lacing.length;
    for (const { data } of packets) {
      page.set(data, at);
      at += data.byteLength;
    }
    view.setUint32(22, oggCrc(page), true);
    return page;
  }
}
