import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadFormatEncoders, type MakeFormatEncoder } from '../../../src/speech/audio/compressed-encoders.ts';
import { compressedFormatNames, compressedFormats } from '../../../src/speech/audio/compressed-formats.ts';
import {
  ENCODING_THREAD_NAME,
  EncodingThreads,
  MAX_REPLAY_SECONDS,
} from '../../../src/speech/audio/encoding-threads.ts';
import { oggCrc } from '../../../src/speech/audio/ogg.ts';
import { int16ToLittleEndianBytes } from '../../../src/speech/audio/pcm.ts';
import { medianPitch, voicedShare } from '../../helpers/audio-analysis.ts';
import { decode, noDecoder, probe } from '../../helpers/decoder.ts';
import { speechLike } from '../../helpers/signals.ts';
import { killThreads } from '../../helpers/thread-faults.ts';

// The compressed formats' encoders, fed as the pipeline feeds them (uneven parts), heard back
// through ffmpeg: the codec it recognises, the length and pitch of what went in.

const RATE = 24_000;

/** `samples` through a fresh encoder in parts of the given sizes, cycled. */
function encodeInParts(
  encoder: Awaited<ReturnType<MakeFormatEncoder>>,
  samples: Int16Array,
  sizes: readonly number[],
) {
  const parts: Uint8Array[] = [];
  for (let at = 0, i = 0; at < samples.length; i++) {
    const size = sizes[i % sizes.length] ?? samples.length;
    parts.push(encoder.encode(samples.subarray(at, at + size)));
    at += size;
  }
  parts.push(encoder.end());
  return Buffer.concat(parts);
}

describe('compressed-format encoders', { skip: noDecoder }, () => {
  let make: MakeFormatEncoder;
  before(async () => {
    make = await loadFormatEncoders();
  });

  for (const format of compressedFormatNames) {
    it(`${format}: speech in uneven parts decodes to the same length and pitch`, async () => {
      const input = speechLike(RATE, 3);
      const bytes = encodeInParts(await make(format, RATE), input, [2205, 480, 7, 12_000, 960]);
      assert.equal((await probe(bytes)).codec, format);
      const heard = await decode(bytes, RATE);
      assert.ok(Math.abs(heard.length - input.length) <= input.length * 0.03, `${heard.length} samples`);
      assert.ok(voicedShare(heard, RATE) > 0.5);
      assert.ok(Math.abs(medianPitch(heard, RATE) - medianPitch(input, RATE)) < 5, 'the same pitch');
    });
  }

  it('opus: a voice rate the codec does not take (22,050 Hz) is resampled, not sped up', async () => {
    const input = speechLike(22_050, 2);
    const heard = await decode(encodeInParts(await make('opus', 22_050), input, [2170]), 22_050);
    assert.ok(Math.abs(heard.length - input.length) <= input.length * 0.03, `${heard.length} samples`);
    assert.ok(Math.abs(medianPitch(heard, 22_050) - medianPitch(input, 22_050)) < 5, 'the same pitch');
  });

  it("opus: one part of 12 s (600 packets, past one page's 255 segments) goes in several pages", async () => {
    const input = speechLike(RATE, 12);
    const bytes = encodeInParts(await make('opus', RATE), input, [input.length]);
    const pages = bytes.toString('latin1').split('OggS').length - 1;
    assert.ok(pages >= 5, `${pages} pages`);
    const heard = await decode(bytes, RATE);
    assert.ok(Math.abs(heard.length - input.length) <= input.length * 0.03, `${heard.length} samples`);
  });
});

describe('Ogg page checksum', () => {
  it("is RFC 3533's CRC-32 (polynomial 0x04C11DB7, not reflected, no final XOR)", () => {
    // The check value of this CRC (CRC-32/MPEG-2 without its initial and final inversion).
    assert.equal(oggCrc(new TextEncoder().encode('123456789')), 0x89a1897f);
    assert.equal(oggCrc(new Uint8Array(0)), 0);
  });
});

/** An Ogg stream with every page's serial number and checksum zeroed. */
function withoutOggSerials(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  for (let at = copy.indexOf('OggS'); at >= 0; at = copy.indexOf('OggS', at + 4)) {
    copy.fill(0, at + 14, at + 18);
    copy.fill(0, at + 22, at + 26);
  }
  return copy;
}

describe('EncodingThreads', () => {
  let threads: EncodingThreads;
  before(async () => {
    threads = new EncodingThreads(1);
  });
  after(async () => {
    await threads.close();
  });

  it('encodes streams side by side, each in order, and refuses a stream used after its end', async () => {
    const input = speechLike(RATE, 1);
    const streams = compressedFormatNames.map((name) => threads.open(compressedFormats[name]));
    const outputs = await Promise.all(
      streams.map(async (stream) => {
        const parts = [];
        for (let at = 0; at < input.length; at += 4800) {
          parts.push(await stream.encode(int16ToLittleEndianBytes(input.slice(at, at + 4800))));
        }
        parts.push(await stream.end());
        return Buffer.concat(parts);
      }),
    );
    assert.equal(outputs[0]?.subarray(0, 1)[0], 0xff, 'MP3 frame sync');
    assert.equal(outputs[1]?.toString('latin1', 0, 4), 'OggS');
    assert.equal(outputs[2]?.toString('latin1', 0, 4), 'fLaC');
    await assert.rejects(streams[0]?.encode(new Uint8Array(2)) ?? Promise.resolve(), /over/);
    // A dropped stream frees its encoder; the thread goes on with others.
    const dropped = threads.open(compressedFormats.mp3);
    await dropped.encode(int16ToLittleEndianBytes(input.slice(0, 4800)));
    dropped.drop();
    const after = threads.open(compressedFormats.flac);
    assert.ok((await after.end()).byteLength > 0);
  });

  it('ends only the stream being encoded when its thread dies; the others go on byte for byte on a new thread', async () => {
    const input = int16ToLittleEndianBytes(speechLike(RATE, 2));
    const half = input.byteLength / 2;
    /** Each format's stream, encoded in two halves, with nothing going wrong. */
    const alone = async (name: (typeof compressedFormatNames)[number]) => {
      const stream = threads.open(compressedFormats[name]);
      return Buffer.concat([
        await stream.encode(input.subarray(0, half)),
        await stream.encode(input.subarray(half)),
        await stream.end(),
      ]);
    };
    const expected = await Promise.all(compressedFormatNames.map(alone));
    // Three streams have their first half encoded; then one more stream's encoder is at work when
    // the thread dies under it: forty requests queued (a second each, tens of milliseconds in all),
    // so that the kill lands while the last of them still waits, however slow the machine.
    const streams = compressedFormatNames.map((name) => threads.open(compressedFormats[name]));
    const firstHalves = await Promise.all(streams.map((stream) => stream.encode(input.subarray(0, half))));
    const victim = threads.open(compressedFormats.flac);
    const queued = Array.from({ length: 40 }, () => victim.encode(input.subarray(0, half)));
    for (const request of queued) request.catch(() => {});
    assert.equal(await killThreads(ENCODING_THREAD_NAME), 1);
    await assert.rejects(queued.at(-1) ?? Promise.resolve(), /encoding thread was lost/);
    await assert.rejects(victim.encode(input), /encoding thread was lost/, 'the failed stream stays failed');
    const outputs = await Promise.all(
      streams.map(async (stream, i) =>
        Buffer.concat([
          firstHalves[i] as Uint8Array,
          await stream.encode(input.subarray(half)),
          await stream.end(),
        ]),
      ),
    );
    // Each Ogg stream has a serial number of its own (and each page a checksum over it).
    const comparable = (name: string, bytes: Buffer) => (name === 'opus' ? withoutOggSerials(bytes) : bytes);
    for (const [i, name] of compressedFormatNames.entries()) {
      const got = comparable(name, outputs[i] as Buffer);
      assert.ok(
        got.equals(comparable(name, expected[i] as Buffer)),
        `${name}: the same bytes as with no fault`,
      );
    }
    assert.equal(threads.threads, 1, 'the dead thread was replaced');
    const next = threads.open(compressedFormats.mp3);
    await next.encode(input.subarray(0, half));
    assert.ok((await next.end()).byteLength > 0, 'a new stream is served');
  });

  it('keeps no PCM for a stream past its first seconds: it ends with its thread, a short one goes on', async () => {
    // What an open stream holds for a replay is bounded: past MAX_REPLAY_SECONDS of PCM it keeps
    // none, so its thread's death ends it, while a shorter stream beside it is encoded again.
    const second = int16ToLittleEndianBytes(speechLike(RATE, 1));
    const long = threads.open(compressedFormats.mp3);
    for (let s = 0; s <= MAX_REPLAY_SECONDS; s++) await long.encode(second);
    const short = threads.open(compressedFormats.mp3);
    const shortHead = await short.encode(second);
    const victim = threads.open(compressedFormats.flac);
    const queued = Array.from({ length: 40 }, () => victim.encode(second));
    for (const request of queued) request.catch(() => {});
    assert.equal(await killThreads(ENCODING_THREAD_NAME), 1);
    await assert.rejects(long.encode(second), /encoding thread was lost/);
    const shortTail = Buffer.concat([await short.encode(second), await short.end()]);
    const unbroken = threads.open(compressedFormats.mp3);
    const expected = Buffer.concat([
      await unbroken.encode(second),
      await unbroken.encode(second),
      await unbroken.end(),
    ]);
    assert.ok(
      Buffer.concat([shortHead, shortTail]).equals(expected),
      'the short stream went on byte for byte',
    );
  });
});
