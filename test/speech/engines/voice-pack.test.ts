import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkTokens, checkVoicePack, MANIFEST_FILE } from '../../../src/speech/engines/neural/voice-pack.ts';
import { SAMPLES_PER_TOKEN, tinyVitsModel } from '../../helpers/tiny-onnx.ts';
import { packMetadata, writeVoicePack } from '../../helpers/voice-packs.ts';

// A neural voice pack is checked before the neural runtime sees it: a pack that passes loads and
// speaks in the real runtime (run here in a child process, as a crash there must not end the
// tests), and each broken piece is refused with a message that names it.

let dir: string;
let count = 0;
const folder = () => join(dir, `pack-${count++}`);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-packs-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function problems(path: string): Promise<string> {
  const check = await checkVoicePack(path);
  assert.equal(check.ok, false, `${path} passed`);
  return check.ok ? '' : check.problems.join(' | ');
}

/** Speaks `text` with the pack's files in the real runtime, in a child process. */
function speakInRuntime(pack: { modelPath: string; tokensPath: string }, text: string) {
  const script = `
    const sherpa = require('sherpa-onnx-node');
    const tts = new sherpa.OfflineTts({
      model: { vits: { model: ${JSON.stringify(pack.modelPath)}, tokens: ${JSON.stringify(pack.tokensPath)} },
               numThreads: 1, provider: 'cpu', debug: false },
      maxNumSentences: 1 });
    const audio = tts.generate({ text: ${JSON.stringify(text)}, sid: 0, speed: 1 });
    let peak = 0;
    for (const sample of audio.samples) peak = Math.max(peak, Math.abs(sample));
    process.stdout.write(JSON.stringify({ sampleRate: audio.sampleRate, samples: audio.samples.length, peak }));`;
  return new Promise<{ sampleRate: number; samples: number; peak: number }>((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}: ${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('neural voice packs', () => {
  it('passes a well-formed MMS pack, which the runtime then loads and speaks with', async () => {
    const check = await checkVoicePack(writeVoicePack(folder(), { kind: 'mms', sampleRate: 16_000 }));
    assert.ok(check.ok, check.ok ? '' : check.problems.join(' | '));
    assert.equal(check.pack.manifest.language, 'rw');
    const audio = await speakInRuntime(check.pack, 'muraho neza');
    assert.equal(audio.sampleRate, 16_000);
    // Every token of the eleven letters and the blanks between them (add_blank) was spoken.
    assert.equal(audio.samples % SAMPLES_PER_TOKEN, 0);
    assert.ok(audio.samples >= 21 * SAMPLES_PER_TOKEN, `${audio.samples} samples`);
    assert.ok(audio.peak > 0.1, `peak ${audio.peak}`);
  });

  it('passes a well-formed Piper pack with its espeak-ng data', async () => {
    const check = await checkVoicePack(writeVoicePack(folder(), { kind: 'piper', sampleRate: 22_050 }));
    assert.ok(check.ok, check.ok ? '' : check.problems.join(' | '));
    assert.ok(check.pack.espeakDataPath?.endsWith('espeak-ng-data'));
  });

  it('refuses a pack whose manifest is missing, not JSON, incomplete, or points outside its folder', async () => {
    const missing = folder();
    writeVoicePack(missing, { kind: 'mms' });
    rmSync(join(missing, MANIFEST_FILE));
    assert.match(await problems(missing), /ijwi-voice.json is missing/);

    const notJson = writeVoicePack(folder(), { kind: 'mms' });
    writeFileSync(join(notJson, MANIFEST_FILE), '{"name": ');
    assert.match(await problems(notJson), /not JSON/);

    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { licence: undefined } })),
      /licence/,
    );
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { model: '../../etc/passwd' } })),
      /model: a file name inside the pack/,
    );
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { language: 'de' } })),
      /language/,
    );
  });

  it('refuses a model that is missing, not ONNX, or lacks any metadata the runtime needs', async () => {
    const gone = writeVoicePack(folder(), { kind: 'mms' });
    rmSync(join(gone, 'model.onnx'));
    assert.match(await problems(gone), /the model model.onnx is missing/);

    const garbage = writeVoicePack(folder(), { kind: 'mms' });
    writeFileSync(join(garbage, 'model.onnx'), 'this is not a model at all');
    assert.match(await problems(garbage), /not an ONNX model/);

    // Each of these, missing, makes the runtime end the whole process.
    for (const key of ['sample_rate', 'n_speakers', 'language', 'comment']) {
      const metadata = packMetadata('mms', 16_000);
      delete metadata[key];
      assert.match(
        await problems(writeVoicePack(folder(), { kind: 'mms', metadata })),
        new RegExp(`no ${key}`),
      );
    }
  });

  it('refuses a model that does not match its manifest', async () => {
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', metadata: packMetadata('mms', 22_050) })),
      /sample_rate is 22050, the manifest says 16000/,
    );
    assert.match(
      await problems(
        writeVoicePack(folder(), { kind: 'mms', manifest: { speakers: [{ id: 3, name: 'Other' }] } }),
      ),
      /speaker 3 is not among the model's 1/,
    );
    // A Piper model in a pack that says MMS: other inputs, other comment.
    const swapped = writeVoicePack(folder(), { kind: 'mms' });
    writeFileSync(
      join(swapped, 'model.onnx'),
      tinyVitsModel({ kind: 'piper', metadata: packMetadata('mms', 16_000) }),
    );
    assert.match(
      await problems(swapped),
      /inputs are input, input_lengths, scales; a mms voice has x, x_length/,
    );
    const { frontend: _, ...noFrontend } = packMetadata('mms', 16_000);
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', metadata: noFrontend })),
      /frontend=characters/,
    );
  });

  it('refuses a Piper pack without its espeak-ng data, or whose voice that data does not know', async () => {
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'piper', manifest: { espeakData: undefined } })),
      /needs espeakData/,
    );
    const unknown = { ...packMetadata('piper', 16_000), voice: 'xx-nowhere' };
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'piper', metadata: unknown })),
      /does not know the espeak-ng voice xx-nowhere/,
    );
    const gone = writeVoicePack(folder(), { kind: 'piper' });
    rmSync(join(gone, 'espeak-ng-data', 'phondata'));
    assert.match(await problems(gone), /espeak-ng-data has no phondata/);
  });

  it('reads a tokens file: a symbol (a space too) and an id a line, each unique', () => {
    assert.equal(checkTokens('  0\na 1\nb 2\n'), 3);
    assert.match(String(checkTokens('a 1\nb 1\n')), /id 1 appears twice/);
    assert.match(String(checkTokens('a 1\na 2\n')), /symbol "a" appears twice/);
    assert.match(String(checkTokens('a one\n')), /line 1 is not "symbol id"/);
    assert.match(String(checkTokens('\n\n')), /has no tokens/);
  });
});
