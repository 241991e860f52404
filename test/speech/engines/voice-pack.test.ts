import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readOnnxModel } from '../../../src/speech/engines/neural/onnx-model.ts';
import {
  checkTokens,
  checkVoicePack,
  MANIFEST_FILE,
  type VoicePack,
} from '../../../src/speech/engines/neural/voice-pack.ts';
import { VoiceStore } from '../../../src/speech/engines/neural/voice-store.ts';
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
function speakInRuntime(pack: VoicePack, text: string) {
  const tokensPath = 'path' in pack.tokens ? pack.tokens.path : '';
  const script = `
    const sherpa = require('sherpa-onnx-node');
    const tts = new sherpa.OfflineTts({
      model: { vits: { model: ${JSON.stringify(pack.modelPath)}, tokens: ${JSON.stringify(tokensPath)} },
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
    // What people are shown (voice list, the voices page) carries no terminal escapes, and the
    // licence's link is a web address, never a script.
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { name: 'Amy\u001b[2J' } })),
      /name: no control characters/,
    );
    const scripted = { name: 'MIT', url: 'javascript:alert(1)', commercial: true };
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { licence: scripted } })),
      /licence\.url/,
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

  it('passes a raw Piper voice, and installs it converted: metadata in the model, a tokens file', async () => {
    const raw = writeVoicePack(folder(), { kind: 'piper', raw: true, sampleRate: 22_050 });
    const check = await checkVoicePack(raw);
    assert.ok(check.ok, check.ok ? '' : check.problems.join(' | '));
    assert.equal(readOnnxModel(readFileSync(join(raw, 'model.onnx'))).metadata.size, 0);

    const store = new VoiceStore(join(dir, 'installed'));
    const installed = await store.install(raw);
    assert.ok(installed.ok, installed.ok ? '' : installed.problems.join(' | '));
    const copy = join(dir, 'installed', installed.voice.id);
    const { metadata } = readOnnxModel(readFileSync(join(copy, 'model.onnx')));
    assert.equal(metadata.get('comment'), 'piper');
    assert.equal(metadata.get('voice'), 'en-us');
    assert.equal(metadata.get('sample_rate'), '22050');
    assert.equal(metadata.get('n_speakers'), '1');
    assert.equal(installed.voice.manifest.tokens, 'tokens.txt');
    assert.equal(installed.voice.manifest.piperConfig, undefined);
    assert.match(readFileSync(join(copy, 'tokens.txt'), 'utf8'), /^_ 0\n\^ 1\n/);
    const [listed] = await store.list();
    assert.ok(listed?.check.ok, 'the converted copy passes the check on its own');
  });

  it('refuses a raw Piper voice whose config is broken or does not match its manifest', async () => {
    const broken = writeVoicePack(folder(), { kind: 'piper', raw: true });
    writeFileSync(join(broken, 'model.onnx.json'), JSON.stringify({ audio: { sample_rate: 16_000 } }));
    assert.match(await problems(broken), /Piper config model.onnx.json has no valid espeak/);
    const mismatch = writeVoicePack(folder(), { kind: 'piper', raw: true, manifest: { sampleRate: 24_000 } });
    assert.match(await problems(mismatch), /sample_rate is 16000, the manifest says 24000/);
    assert.match(
      await problems(writeVoicePack(folder(), { kind: 'mms', manifest: { piperConfig: 'model.onnx' } })),
      /give tokens, or for a raw Piper voice piperConfig, not both|only a piper pack has a piperConfig/,
    );
  });

  it('reads a tokens file: a symbol (a space too) and an id a line, each symbol once', () => {
    assert.equal(checkTokens('  0\na 1\nb 2\n'), 3);
    // sherpa-onnx's MMS conversions give a capital letter its small letter's id.
    assert.equal(checkTokens('a 1\nA 1\n'), 2);
    assert.match(String(checkTokens('a 1\na 2\n')), /symbol "a" appears twice/);
    assert.match(String(checkTokens('a one\n')), /line 1 is not "symbol id"/);
    assert.match(String(checkTokens('\n\n')), /has no tokens/);
  });
});
