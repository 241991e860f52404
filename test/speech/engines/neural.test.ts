import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { littleEndianBytesToInt16 } from '../../../src/speech/audio/pcm.ts';
import type { NeuralVoice } from '../../../src/speech/engines/neural/neural-engine.ts';
import { checkVoicePack } from '../../../src/speech/engines/neural/voice-pack.ts';
import { VoiceStore } from '../../../src/speech/engines/neural/voice-store.ts';
import { engines } from '../../../src/speech/engines/registry.ts';
import { EnginePool } from '../../../src/speech/pool/engine-pool.ts';
import type { OutputSpec } from '../../../src/speech/pool/protocol.ts';
import { findVoice } from '../../../src/speech/voices/voices.ts';
import { collect } from '../../helpers/streams.ts';
import { packMetadata, writeVoicePack } from '../../helpers/voice-packs.ts';

// The neural engine through the real worker pool, with a tiny MMS model the real runtime runs
// (test/helpers/tiny-onnx.ts): audio, cancellation, and a runtime that dies taking nothing else.

const native: OutputSpec = { sampleRate: 16_000, encoding: 'pcm_s16le' };
const mulaw: OutputSpec = { sampleRate: 8000, encoding: 'mulaw' };

/** The neural voice of the pack in `folder`, given as it is: whether it passes its check is the caller's. */
function voiceOf(folder: string): NeuralVoice {
  return {
    engine: 'neural',
    pack: { model: join(folder, 'model.onnx'), tokens: join(folder, 'tokens.txt') },
    sampleRate: 16_000,
    speaker: 0,
  };
}

/** The voice of a tiny MMS pack (16 kHz) written and checked in `dir`. */
async function tinyVoice(dir: string): Promise<NeuralVoice> {
  const folder = writeVoicePack(join(dir, 'good'), { kind: 'mms', sampleRate: 16_000 });
  assert.ok((await checkVoicePack(folder)).ok);
  return voiceOf(folder);
}

/**
 * The voice of a pack whose model lacks n_speakers, which makes the runtime end its whole process
 * (a pack never gets to the runtime unchecked; this one skips the check on purpose).
 */
function dyingVoice(dir: string): NeuralVoice {
  const metadata = packMetadata('mms', 16_000);
  delete metadata.n_speakers;
  return voiceOf(writeVoicePack(join(dir, 'broken'), { kind: 'mms', metadata }));
}

/** A suite's folder, tiny voice and pool of `size` workers, set once its `before` has run. */
function withNeuralPool(size: number): { dir: string; pool: EnginePool; voice: NeuralVoice } {
  const suite = {} as { dir: string; pool: EnginePool; voice: NeuralVoice };
  before(async () => {
    suite.dir = mkdtempSync(join(tmpdir(), 'ijwi-neural-'));
    suite.voice = await tinyVoice(suite.dir);
    suite.pool = await EnginePool.start({ size, warmUp: { samples: [], outputs: [] } });
  });
  after(async () => {
    await suite.pool?.close();
    rmSync(suite.dir, { recursive: true, force: true });
  });
  return suite;
}

/** A longer text's audio is over twice a short one's, and not silence. */
function assertSpeaksLonger(short: Int16Array, long: Int16Array): void {
  assert.ok(
    short.length > 0 && long.length > 2 * short.length,
    `${short.length} then ${long.length} samples`,
  );
  assert.ok(
    long.some((sample) => Math.abs(sample) > 3000),
    'not silence',
  );
}

describe('neural engine', () => {
  const suite = withNeuralPool(1);
  const speak = (text: string, output = native, v: NeuralVoice = suite.voice) =>
    collect(suite.pool.synthesize({ input: { kind: 'text', text }, voice: v, output }));

  it("speaks a pack's voice at its sample rate, longer for longer text, in every output", async () => {
    const short = littleEndianBytesToInt16(await speak('muraho'));
    const long = littleEndianBytesToInt16(await speak('muraho neza murakaza neza'));
    assertSpeaksLonger(short, long);
    const telephone = await speak('muraho neza murakaza neza', mulaw);
    // Half the samples at 8 kHz, one byte each.
    assert.ok(Math.abs(telephone.byteLength - long.length / 2) <= 8, `${telephone.byteLength} bytes`);
    assert.deepEqual(littleEndianBytesToInt16(await speak('muraho')), short, 'the same text, the same audio');
  });

  it('stops a clause whose caller left at its first audio, and serves the next caller', async () => {
    const controller = new AbortController();
    let received = 0;
    await assert.rejects(async () => {
      for await (const bytes of suite.pool.synthesize({
        input: { kind: 'text', text: 'muraho neza murakaza neza '.repeat(20) },
        voice: suite.voice,
        output: native,
        signal: controller.signal,
      })) {
        received += bytes.byteLength;
        controller.abort(new Error('caller hung up'));
      }
    }, /caller hung up/);
    assert.ok(received > 0);
    assert.ok((await speak('muraho')).byteLength > 0);
    assert.equal(suite.pool.queued, 0);
  });

  it('refuses phonemes: neural voices read text', async () => {
    await assert.rejects(
      collect(
        suite.pool.synthesize({
          input: { kind: 'phonemes', phonemes: 'm u r a h o' },
          voice: suite.voice,
          output: native,
        }),
      ),
      /read text, not phonemes/,
    );
  });

  it('fails only the clause whose runtime died, and the next clause speaks in a new one', async () => {
    await assert.rejects(speak('muraho', native, dyingVoice(suite.dir)), /the neural runtime stopped/);
    assert.ok(suite.pool.ready, 'the pool and its worker are still up');
    const after = littleEndianBytesToInt16(await speak('muraho'));
    assert.ok(after.some((sample) => Math.abs(sample) > 3000));
  });
});

describe('a voice pack whose runtime dies at warm-up', () => {
  it('leaves that sample out, says so, and starts the pool for every other voice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ijwi-neural-warm-'));
    const broken = dyingVoice(dir);
    const french = findVoice('fr', 0);
    assert.ok(french);
    const pool = await EnginePool.start({
      size: 1,
      warmUp: {
        samples: [
          { input: { kind: 'text', text: 'muraho' }, voice: broken },
          { input: { kind: 'text', text: 'Bonjour.' }, voice: french.engineVoice },
        ],
        outputs: [native],
      },
    });
    try {
      assert.ok(pool.ready);
      assert.equal(pool.warmUpFailures.length, 1);
      assert.match(pool.warmUpFailures[0] ?? '', /^neural: the neural runtime stopped/);
      const audio = await collect(
        pool.synthesize({
          input: { kind: 'text', text: 'Bonjour.' },
          voice: french.engineVoice,
          output: native,
        }),
      );
      assert.ok(audio.byteLength > 0);
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('neural voices in a pool of two workers', () => {
  const suite = withNeuralPool(2);

  it('runs neural clauses on one worker of two, leaving the other to the other engines', async () => {
    const neural = (text: string) =>
      collect(suite.pool.synthesize({ input: { kind: 'text', text }, voice: suite.voice, output: native }));
    const first = neural('muraho neza');
    const second = neural('murakaza neza');
    // Scheduling is synchronous: the second neural clause waits although a worker is idle.
    assert.equal(suite.pool.running, 1);
    assert.equal(suite.pool.queued, 1);
    const french = findVoice('fr', 0);
    assert.ok(french);
    const other = collect(
      suite.pool.synthesize({
        input: { kind: 'text', text: 'Bonjour.' },
        voice: french.engineVoice,
        output: native,
      }),
    );
    assert.equal(suite.pool.running, 2, 'the idle worker takes the espeak-ng clause');
    assert.equal(suite.pool.queued, 1);
    for (const audio of await Promise.all([first, second, other])) assert.ok(audio.byteLength > 0);
  });

  it('takes calls up to its limit, and another once one closes', () => {
    const callsPerWorker = engines.neural.heavy?.callsPerWorker ?? 0;
    assert.ok(callsPerWorker > 0, 'the neural engine is heavy');
    const limit = suite.pool.callLimit('neural');
    assert.equal(limit, callsPerWorker, 'its calls per worker for the one worker of two it may use');
    assert.equal(suite.pool.callLimit('espeak-ng'), undefined, 'the built-in engines take every call');
    const calls = Array.from({ length: callsPerWorker }, () => suite.pool.openCall('neural'));
    assert.ok(calls.every((call) => call !== undefined));
    assert.equal(suite.pool.openCall('neural'), undefined);
    calls[0]?.close();
    calls[0]?.close();
    assert.equal(suite.pool.callsOn('neural'), callsPerWorker - 1, 'closing twice counts once');
    const again = suite.pool.openCall('neural');
    assert.ok(again);
    for (const call of [...calls.slice(1), again]) call?.close();
    assert.equal(suite.pool.callsOn('neural'), 0);
  });
});

/** Debian's espeak-ng data (package espeak-ng-data, installed by CI): what a Piper voice's phonemizer reads. */
const ESPEAK_DATA = '/usr/lib/x86_64-linux-gnu/espeak-ng-data';

describe('a raw Piper voice, converted on install', {
  skip: !existsSync(ESPEAK_DATA) && 'needs espeak-ng-data',
}, () => {
  let dir: string;
  let pool: EnginePool;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ijwi-piper-'));
    pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  });
  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('speaks English through its phonemizer once installed, at the rate of its config', async () => {
    const source = writeVoicePack(join(dir, 'raw'), { kind: 'piper', raw: true, sampleRate: 22_050 });
    cpSync(ESPEAK_DATA, join(source, 'espeak-ng-data'), { recursive: true });
    const installed = await new VoiceStore(join(dir, 'voices')).install(source);
    assert.ok(installed.ok, JSON.stringify(installed));
    const check = await checkVoicePack(join(dir, 'voices', installed.voice.id));
    assert.ok(check.ok && 'path' in check.pack.tokens && check.pack.espeakDataPath);
    const voice: NeuralVoice = {
      engine: 'neural',
      pack: {
        model: check.pack.modelPath,
        tokens: check.pack.tokens.path,
        espeakData: check.pack.espeakDataPath,
      },
      sampleRate: 22_050,
      speaker: 0,
    };
    const speak = async (text: string) =>
      littleEndianBytesToInt16(
        await collect(
          pool.synthesize({
            input: { kind: 'text', text },
            voice,
            output: { sampleRate: 22_050, encoding: 'pcm_s16le' },
          }),
        ),
      );
    const short = await speak('Hello.');
    const long = await speak('Hello, thank you for calling the clinic.');
    assertSpeaksLonger(short, long);
  });
});
