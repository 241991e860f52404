import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readOnnxModel } from '../../../src/speech/engines/neural/onnx-model.ts';
import { MANIFEST_FILE } from '../../../src/speech/engines/neural/voice-pack.ts';
import { type InstallResult, VoiceStore } from '../../../src/speech/engines/neural/voice-store.ts';
import { tinyVitsModel } from '../../helpers/tiny-onnx.ts';
import {
  packMetadata,
  piperConfig,
  piperModelCard,
  writeEspeakData,
  writePublishedPiperVoice,
  writeSherpaVoice,
  writeVoicePack,
} from '../../helpers/voice-packs.ts';

// A voice without our manifest, as Piper or sherpa-onnx publish it, installed with the manifest
// made from its own files: what is taken from where, and the voices that are refused, each with
// a message that says why. (Installed and heard end to end: test/http/published-voices.test.ts.)

let dir: string;
let count = 0;
const folder = (name = `voice-${count++}`) => join(dir, `${count++}`, name);
let espeakData: string;
let store: VoiceStore;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-published-voice-'));
  espeakData = writeEspeakData(join(dir, 'espeak-ng-data'));
  store = new VoiceStore(join(dir, 'voices'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function installedOk(result: InstallResult) {
  assert.ok(result.ok, result.ok ? '' : result.problems.join(' | '));
  return result.voice;
}

async function refused(result: Promise<InstallResult>): Promise<string> {
  const outcome = await result;
  assert.equal(outcome.ok, false, 'installed');
  return outcome.ok ? '' : outcome.problems.join(' | ');
}

describe('voices as published', () => {
  it("writes a Piper voice's manifest from its config: language, rate, speakers by name, its model converted", async () => {
    const source = writePublishedPiperVoice(folder(), {
      name: 'en_GB-pair-medium',
      speakers: true,
      // A config of Piper's with a rate some configs misstate, and a line break among its phonemes.
      config: {
        audio: { sample_rate: 22_500 },
        language: { code: 'en_GB', family: 'en', name_english: 'English' },
        num_speakers: 2,
        speaker_id_map: { alice: 0, 'bob\u001b[2J': 1 },
        phoneme_id_map: { ...(piperConfig(22_050).phoneme_id_map as Record<string, number[]>), '\n': [99] },
      },
    });
    const voice = installedOk(await store.install(source, { espeakData }));
    assert.equal(voice.id, 'en-gb-pair-medium');
    assert.deepEqual(
      { ...voice.manifest, attribution: undefined },
      {
        name: 'en_GB-pair-medium',
        kind: 'piper',
        language: 'en',
        sampleRate: 22_050,
        speakers: [
          { id: 0, name: 'alice' },
          { id: 1, name: 'bob [2J' },
        ],
        model: 'en_GB-pair-medium.onnx',
        tokens: 'tokens.txt',
        espeakData: 'espeak-ng-data',
        licence: { name: 'unknown', url: null, commercial: null },
        attribution: undefined,
      },
    );
    const copy = join(dir, 'voices', voice.id);
    const { metadata } = readOnnxModel(readFileSync(join(copy, 'en_GB-pair-medium.onnx')));
    assert.equal(metadata.get('sample_rate'), '22050');
    assert.equal(metadata.get('n_speakers'), '2');
    assert.doesNotMatch(readFileSync(join(copy, 'tokens.txt'), 'utf8'), / 99\n/, 'no line-break symbol');
    assert.ok(readFileSync(join(copy, MANIFEST_FILE), 'utf8').includes('"tokens": "tokens.txt"'));
    assert.ok(readFileSync(join(copy, 'espeak-ng-data', 'lang', 'gmw', 'en-US'), 'utf8'));
  });

  it("takes the operator's licence over the card's, the card's over none, and the operator's name and language", async () => {
    const carded = () =>
      writePublishedPiperVoice(folder(), {
        name: 'en_US-card-medium',
        modelCard: piperModelCard('card', 'CC BY-NC 4.0'),
      });
    const fromCard = installedOk(await store.install(carded(), { espeakData }));
    assert.deepEqual(fromCard.manifest.licence, { name: 'CC BY-NC 4.0', url: null, commercial: false });
    const stated = installedOk(
      await store.install(carded(), {
        espeakData,
        name: 'Card voice',
        language: 'en',
        licence: { name: 'Our own licence', url: 'https://example.org/licence', commercial: true },
      }),
    );
    assert.equal(stated.id, 'card-voice');
    assert.deepEqual(stated.manifest.licence, {
      name: 'Our own licence',
      url: 'https://example.org/licence',
      commercial: true,
    });
  });

  it("reads a sherpa-onnx folder's model metadata: an MMS voice's `model.onnx`, named after its folder", async () => {
    const source = writeSherpaVoice(folder('vits-mms-kin'), {
      kind: 'mms',
      readme: '---\nlicense: cc-by-nc-4.0\n---\n# MMS Kinyarwanda\n',
    });
    const voice = installedOk(await store.install(source));
    assert.equal(voice.id, 'vits-mms-kin');
    assert.equal(voice.manifest.kind, 'mms');
    assert.equal(voice.manifest.language, 'rw');
    assert.equal(voice.manifest.sampleRate, 16_000);
    assert.equal(voice.manifest.licence.commercial, false);
  });

  it('refuses a folder that is not one voice of a language Ijwi speaks, naming what to do', async () => {
    const two = writePublishedPiperVoice(folder(), { name: 'en_US-one-low' });
    writeFileSync(join(two, 'en_US-two-low.onnx'), tinyVitsModel({ kind: 'piper' }));
    assert.match(
      await refused(store.install(two)),
      /several models \(en_US-one-low.onnx, en_US-two-low.onnx\)/,
    );
    const lone = writePublishedPiperVoice(folder(), { name: 'en_US-lone-low' });
    rmSync(join(lone, 'en_US-lone-low.onnx.json'));
    assert.match(
      await refused(store.install(lone)),
      /has no en_US-lone-low.onnx.json beside it, nor a tokens.txt/,
    );
    const german = writePublishedPiperVoice(folder(), {
      name: 'de_DE-thorsten-medium',
      config: { language: { code: 'de_DE', family: 'de' }, espeak: { voice: 'de' } },
    });
    assert.match(
      await refused(store.install(german, { espeakData })),
      /speaks de_DE, not Kinyarwanda, English or French \(give --language rw\|en\|fr if it does\)/,
    );
    const broken = writePublishedPiperVoice(folder(), {
      name: 'en_US-broken-low',
      config: { num_speakers: 0 },
    });
    assert.match(
      await refused(store.install(broken)),
      /Piper config en_US-broken-low.onnx.json has no valid num_speakers/,
    );
    const noData = writePublishedPiperVoice(folder(), { name: 'en_US-nodata-low' });
    assert.match(
      await refused(store.install(noData, { espeakData: join(dir, 'nowhere') })),
      /--espeak-data .*nowhere is not a folder/,
    );
    const coqui = writeSherpaVoice(folder(), { kind: 'mms' });
    writeFileSync(
      join(coqui, 'model.onnx'),
      tinyVitsModel({
        kind: 'mms',
        metadata: { ...packMetadata('mms', 16_000), comment: 'coqui', frontend: '' },
      }),
    );
    assert.match(await refused(store.install(coqui)), /comment=coqui: Ijwi speaks Piper and MMS voices/);
  });

  it('refuses the options for a voice as published on a pack whose manifest states them', async () => {
    const pack = writeVoicePack(folder(), { kind: 'mms' });
    assert.match(
      await refused(store.install(pack, { licence: { name: 'MIT', url: null, commercial: true } })),
      /ijwi-voice.json states its name, language and licence/,
    );
  });
});
