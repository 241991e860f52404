import OpusScript from 'opusscript';
import { joinBytes } from './bytes.ts';
import type { FormatEncoder } from './compressed-formats.ts';
import { type OggPacket, OggStreamWriter } from './ogg.ts';

// Ogg Opus (RFC 7845) by libopus compiled to WebAssembly (`opusscript`), in pages of our own
// (ogg.ts). Each call to `encode` ends with a page, so audio leaves as the clauses are spoken.

/** 20 ms packets, Opus's usual frame. */
const FRAME_MS = 20;
/** Speech in 24 kHz mono is clear at 32 kbit/s. */
const BITRATE = 32_000;
/**
 * libopus's general-audio mode at complexity 5: on our voices' speech it took about a quarter of
 * the CPU of its speech mode (VOIP) at complexity 10 (16 against 57 ms per second of audio, in one
 * run on a loaded 2-core machine), at the same bit rate.
 */
const COMPLEXITY = 5;
const OPUS_SET_COMPLEXITY = 4010;
/**
 * Samples at 48 kHz the decoder drops at the start: libopus's look-ahead (2.5 ms) and delay
 * compensation (4 ms), which RFC 7845 says to state here.
 */
const PRE_SKIP = 312;
const GRANULE_RATE = 48_000;

function opusHead(sampleRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'));
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, PRE_SKIP, true);
  view.setUint32(12, sampleRate, true);
  // Output gain 0, channel mapping family 0: already zero.
  return head;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode('ijwi');
  const tags = new Uint8Array(8 + 4 + vendor.byteLength + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'));
  view.setUint32(8, vendor.byteLength, true);
  tags.set(vendor, 12);
  // No user comments: the count after the vendor string is zero.
  return tags;
}

/** The rates Opus encodes from. */
export type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

/** Returns a maker of Ogg Opus encoders; `serial` is the Ogg stream's serial number (random when absent). */
export function opusEncoders(): (sampleRate: OpusRate, serial?: number) => FormatEncoder {
  return (sampleRate, serial = Math.floor(Math.random() * 2 ** 32)) => {
    const opus = new OpusScript(sampleRate, 1, OpusScript.Application.AUDIO);
    opus.setBitrate(BITRATE);
    opus.encoderCTL(OPUS_SET_COMPLEXITY, COMPLEXITY);
    const frame = (sampleRate * FRAME_MS) / 1000;
    const toGranule = GRANULE_RATE / sampleRate;
    const ogg = new OggStreamWriter(serial);
    const pending = new Int16Array(frame);
    let pendingLength = 0;
    let encoded = 0;
    let heard = 0;
    let headers: Uint8Array | undefined = joinBytes([
      ogg.pages([{ data: opusHead(sampleRate), granule: 0n }]),
      ogg.pages([{ data: opusTags(), granule: 0n }]),
    ]);
    let open = true;
    const packetOf = (samples: Int16Array): OggPacket => {
      const data = opus.encode(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength), frame);
      encoded += frame;
      return { data, granule: BigInt(PRE_SKIP + encoded * toGranule) };
    };
    const packetsOf = (samples: Int16Array): OggPacket[] => {
      const packets: OggPacket[] = [];
      heard += samples.length;
      for (let at = 0; at < samples.length; ) {
        const take = Math.min(frame - pendingLength, samples.length - at);
        pending.set(samples.subarray(at, at + take), pendingLength);
        pendingLength += take;
        at += take;
        if (pendingLength === frame) {
          packets.push(packetOf(pending));
          pendingLength = 0;
        }
      }
      return packets;
    };
    const withHeaders = (pages: Uint8Array): Uint8Array => {
      if (!headers) return pages;
      const first = joinBytes([headers, pages]);
      headers = undefined;
      return first;
    };
    const close = () => {
      if (open) opus.delete();
      open = false;
    };
    return {
      encode(samples) {
        const packets = packetsOf(samples);
        return withHeaders(packets.length > 0 ? ogg.pages(packets) : new Uint8Array(0));
      },
      end() {
        // The partial last frame, then one of silence: what the encoder's look-ahead still holds
        // comes out with it. The last page's granule trims the decoder's output to what was heard.
        pending.fill(0, pendingLength);
        const tail = [packetOf(pending), packetOf(new Int16Array(frame))];
        pendingLength = 0;
        const last = { ...(tail[1] as OggPacket), granule: BigInt(PRE_SKIP + heard * toGranule) };
        const pages = withHeaders(ogg.pages([tail[0] as OggPacket, last], true));
        close();
        return pages;
      },
      drop: close,
    };
  };
}
