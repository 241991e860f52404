import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { littleEndianBytesToInt16 } from '../../../src/speech/audio/pcm.ts';
import { EnginePool } from '../../../src/speech/pool/engine-pool.ts';
import { voicesOf } from '../../../src/speech/voices/voices.ts';
import { voicedShare } from '../../helpers/audio-analysis.ts';
import { collect } from '../../helpers/streams.ts';

// The build's patches resolve Flite's feature paths and functions once and keep a CART tree's
// answers on the stack (wasm/patches/04, 05): every duration, phrase break and pitch Flite
// predicts goes through them. Each English voice speaks a fixed set of sentences (numbers,
// a question, names, abbreviations, a long clause) as long as Flite's own look-ups by name made
// them (the reference, recorded with the build of patches 01 and 02 only), within 5 %.

interface Case {
  readonly speakerId: number;
  readonly text: string;
  readonly seconds: number;
}
const reference = JSON.parse(
  readFileSync(new URL('./flite-feature-table-reference.json', import.meta.url), 'utf8'),
) as { readonly cases: readonly Case[] };
const RATE = 16_000;

describe("Flite's feature look-ups", () => {
  let pool: EnginePool;
  before(async () => {
    pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  });
  after(() => pool.close());

  it('speak every English voice for as long as the look-ups by name did, and not in silence', async () => {
    const voices = voicesOf('en');
    assert.equal(new Set(reference.cases.map((c) => c.speakerId)).size, voices.length);
    for (const c of reference.cases) {
      const voice = voices.find((v) => v.speakerId === c.speakerId);
      assert.ok(voice, `en ${c.speakerId}`);
      const samples = littleEndianBytesToInt16(
        await collect(
          pool.synthesize({
            input: { kind: 'text', text: c.text },
            voice: voice.engineVoice,
            output: { sampleRate: RATE, encoding: 'pcm_s16le' },
            rate: 1,
          }),
        ),
      );
      const seconds = samples.length / RATE;
      const label = `${voice.name}: ${c.text}`;
      assert.ok(Math.abs(seconds / c.seconds - 1) <= 0.05, `${label}: ${seconds} s, not ${c.seconds}`);
      assert.ok(voicedShare(samples, RATE) > 0.3, `${label} is speech, not silence`);
    }
  });
});
