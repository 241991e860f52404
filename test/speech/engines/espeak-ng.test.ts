import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChunkSink, EngineInput, SpeechEngine } from '../../../src/speech/engines/engine.ts';
import {
  compileEspeak,
  moduleBytes,
  packagedFiles,
  recordedChecksum,
} from '../../../src/speech/engines/espeak-ng/wasm-runtime.ts';
import { espeakNgEngine } from '../../../src/speech/engines/espeak-ng.ts';
import { frontEndOf } from '../../../src/speech/engines/registry.ts';
import { splitClauses } from '../../../src/speech/text/clauses.ts';
import { builtInVoices, findVoice, type Voice } from '../../../src/speech/voices/voices.ts';
import { voicedShare } from '../../helpers/audio-analysis.ts';

interface ReferenceCase {
  readonly language: string;
  readonly speakerId: number;
  readonly rate: number;
  readonly text: string;
  readonly samples: number;
  readonly chunks: number;
  readonly sha256: string;
  readonly words: string;
  readonly ipa: string;
}

const WASM_DIR = new URL('../../../src/speech/engines/espeak-ng/wasm/', import.meta.url);
// Made by the JavaScript build the WebAssembly one replaced (its `about` says how).
const reference = JSON.parse(
  readFileSync(new URL('./espeak-ng-reference.json', import.meta.url), 'utf8'),
) as {
  readonly cases: readonly ReferenceCase[];
};
const espeakVoices = builtInVoices.filter((v) => v.engineVoice.engine === 'espeak-ng');

async function newEngine(): Promise<SpeechEngine> {
  return espeakNgEngine.load(await compileEspeak());
}

function sink(
  onPush: (samples: Int16Array) => void,
  cancelled = () => false,
): ChunkSink & { words: unknown[] } {
  const words: unknown[] = [];
  return { push: onPush, cancelled, word: (w) => void words.push(w), words };
}

/** A text as a request reads it: its clauses' engine input. */
function inputsOf(voice: Voice, text: string): EngineInput[] {
  const frontEnd = frontEndOf(voice);
  return splitClauses(frontEnd.normalize(text)).flatMap((clause) => frontEnd.engineInput(clause) ?? []);
}

/** What the reference records of a case, as this engine speaks it. */
function speak(engine: SpeechEngine, voice: Voice, rate: number, text: string) {
  const audio = createHash('sha256');
  const all: Int16Array[] = [];
  const words: unknown[] = [];
  const ipa: string[] = [];
  let chunks = 0;
  for (const input of inputsOf(voice, text)) {
    const clauseSink = sink((samples) => {
      audio.update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
      all.push(samples.slice());
      chunks++;
    });
    engine.synthesize(input, voice.engineVoice, rate, clauseSink);
    words.push(...clauseSink.words);
    ipa.push(engine.phonemes(input, voice.engineVoice));
  }
  const samples = new Int16Array(all.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of all) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return {
    samples,
    chunks,
    sha256: audio.digest('hex'),
    words: createHash('sha256').update(JSON.stringify(words)).digest('hex'),
    ipa: ipa.join(' | '),
  };
}

describe('espeak-ng as WebAssembly', () => {
  test('the module is the build whose SHA-256 is recorded', () => {
    const bytes = readFileSync(new URL('espeak-ng.wasm', WASM_DIR));
    assert.equal(createHash('sha256').update(bytes).digest('hex'), recordedChecksum());
    assert.deepEqual(moduleBytes(), bytes);
    assert.match(
      espeakNgEngine.version,
      new RegExp(`^1\\.52\\.0\\+wasm\\.${recordedChecksum().slice(0, 12)}\\.`),
    );
  });

  test('the data package lists only files inside its folder', () => {
    const prefix = '/usr/share/espeak-ng-data/';
    assert.deepEqual(packagedFiles(`{filename:"${prefix}lang/bnt/sw",start:0,end:9}`), [
      { path: 'lang/bnt/sw', start: 0, end: 9 },
    ]);
    for (const path of ['../etc/passwd', 'voices/../../x', 'a//b'])
      assert.throws(
        () => packagedFiles(`{filename:"${prefix}${path}",start:0,end:1}`),
        /outside its directory/,
      );
    assert.throws(() => packagedFiles('nothing here'), /no files/);
  });

  test("every Kinyarwanda and French voice speaks the reference sentences with the JavaScript build's bytes", async () => {
    const engine = await newEngine();
    assert.ok(reference.cases.length >= 40);
    const voicesSpoken = new Set<string>();
    for (const c of reference.cases) {
      const voice = findVoice(c.language, c.speakerId);
      assert.ok(voice, `${c.language} ${c.speakerId}`);
      const spoken = speak(engine, voice, c.rate, c.text);
      const label = `${voice.name} at ${c.rate}: ${c.text}`;
      assert.equal(spoken.samples.length, c.samples, label);
      assert.equal(spoken.chunks, c.chunks, label);
      assert.equal(spoken.sha256, c.sha256, label);
      assert.equal(spoken.words, c.words, label);
      assert.equal(spoken.ipa, c.ipa, label);
      assert.ok(
        voicedShare(spoken.samples, engine.sampleRate(voice.engineVoice)) > 0.3,
        `${label}: mostly silence`,
      );
      voicesSpoken.add(voice.name);
    }
    assert.deepEqual([...voicesSpoken].sort(), espeakVoices.map((v) => v.name).sort());
  });

  test('the voices of a language sound different from each other', async () => {
    const engine = await newEngine();
    for (const language of ['rw', 'fr'] as const) {
      const voices = espeakVoices.filter((v) => v.language === language);
      assert.ok(voices.length >= 2);
      const text = language === 'rw' ? 'Muraho, amakuru yawe?' : 'Bonjour, comment allez-vous ?';
      const hashes = new Set(voices.map((voice) => speak(engine, voice, 1, text).sha256));
      assert.equal(hashes.size, voices.length, language);
    }
  });

  test('cancelling stops the synthesis at the next chunk', async () => {
    const engine = await newEngine();
    const voice = espeakVoices[0] as Voice;
    const [input] = inputsOf(
      voice,
      'Ndashaka kuvugana na muganga ejo saa tatu za mu gitondo, murakoze cyane.',
    );
    assert.ok(input);
    let pushed = 0;
    engine.synthesize(
      input,
      voice.engineVoice,
      1,
      sink(
        () => pushed++,
        () => pushed >= 1,
      ),
    );
    assert.equal(pushed, 1);
  });

  test('an engine that loses its instance gets a new one, which speaks the same bytes', async () => {
    const engine = await newEngine();
    const voice = findVoice('fr', espeakVoices.find((v) => v.language === 'fr')?.speakerId ?? 0) as Voice;
    const text = 'Bonjour, votre rendez-vous est confirmé pour demain à quinze heures.';
    const before = speak(engine, voice, 1, text);
    const [input] = inputsOf(voice, text);
    assert.ok(input);
    // An error that unwinds through espeak-ng's frames leaves its memory mid-synthesis.
    assert.throws(
      () =>
        engine.synthesize(
          input,
          voice.engineVoice,
          1,
          sink(() => {
            throw new Error('listener failed');
          }),
        ),
      /listener failed/,
    );
    assert.deepEqual(speak(engine, voice, 1, text), before);
    // A fresh engine agrees: nothing of the lost instance's state carried over.
    assert.deepEqual(speak(await newEngine(), voice, 1, text), before);
  });

  const buildScript = fileURLToPath(new URL('build.sh', WASM_DIR));
  const toolchain = ['/usr/bin/clang', '/usr/bin/wasm-ld', '/usr/lib/wasm32-wasi/libc.a'].every((p) =>
    existsSync(p),
  );
  test("the build script makes the same bytes again from espeak-ng's released source", {
    skip: toolchain ? false : 'needs clang, lld and wasi-libc (.ci/run installs them)',
    timeout: 300_000,
  }, async () => {
    const { stdout } = await promisify(execFile)('bash', [buildScript, '--check'], { maxBuffer: 1 << 20 });
    assert.match(stdout, /the same bytes as recorded/);
  });
});
