import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import { VoiceAssignments } from '../../src/speech/engines/neural/voice-assignments.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { loadAssignedVoices } from '../../src/speech/voices/assigned-voices.ts';
import { useAssignedVoices } from '../../src/speech/voices/voices.ts';
import { admin, field, type Outcome } from '../helpers/admin-cli.ts';
import { buildTtsTestApp, startTestPool, type TtsFixture, withKey } from '../helpers/tts-fixture.ts';
import { piperModelCard, writePublishedPiperVoice, writeSherpaVoice } from '../helpers/voice-packs.ts';

// Voices as their makers publish them, installed with one command each as an operator does
// (`npm run admin -- voice install`), assigned to voices of the catalogue, then heard through
// the stream endpoint: a Piper voice as Piper's releases publish it (`NAME.onnx` and
// `NAME.onnx.json`) with and without its MODEL_CARD, a folder as sherpa-onnx's converted voices
// unpack, and a sherpa-onnx `.tar.bz2` downloaded from a local HTTP server. The models are tiny
// (test/helpers/tiny-onnx.ts); the Piper voices phonemize with Debian's espeak-ng data.

/** Debian's espeak-ng data (package espeak-ng-data, installed by CI). */
const ESPEAK_DATA = '/usr/lib/x86_64-linux-gnu/espeak-ng-data';
const CAN_RUN = existsSync(ESPEAK_DATA) && existsSync('/usr/bin/bzip2');

/** Whether 16-bit samples hold sound: the tiny models' output swings well past this. */
const loud = (samples: Int16Array) => samples.some((sample) => Math.abs(sample) > 3000);

interface Listed {
  speaker_id: number;
  engine: string;
  sample_rate: number;
  licence: { name: string; url: string | null; commercial: boolean | null };
  voice_pack: { name: string; speaker: string; attribution: string } | null;
}

describe('voices installed as their makers publish them', {
  skip: !CAN_RUN && 'needs espeak-ng-data and bzip2',
}, () => {
  let dir: string;
  let server: Server;
  let pool: EnginePool;
  let fixture: TtsFixture;
  const installs: Record<string, Outcome> = {};
  const env = () => ({ DATA_DIR: join(dir, 'data') });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ijwi-published-'));
    const carded = writePublishedPiperVoice(join(dir, 'carded'), {
      name: 'en_US-carded-medium',
      modelCard: piperModelCard('carded', 'CC BY 4.0'),
    });
    const bare = writePublishedPiperVoice(join(dir, 'bare'), { name: 'en_US-bare-medium' });
    const sherpa = writeSherpaVoice(join(dir, 'vits-piper-en_US-tiny-low'), {
      kind: 'piper',
      model: 'en_US-tiny-low.onnx',
      sampleRate: 22_050,
      espeakData: ESPEAK_DATA,
    });
    // sherpa-onnx's MMS conversions: `model.onnx` and `tokens.txt` in a folder named after the voice.
    writeSherpaVoice(join(dir, 'archives', 'vits-mms-kin'), { kind: 'mms', sampleRate: 16_000 });
    const archive = join(dir, 'vits-mms-kin.tar.bz2');
    execFileSync('tar', ['-cjf', archive, '-C', join(dir, 'archives'), 'vits-mms-kin']);
    const archiveSha256 = createHash('sha256').update(readFileSync(archive)).digest('hex');
    server = createServer((request, response) => {
      if (request.url !== '/releases/vits-mms-kin.tar.bz2') {
        response.writeHead(404).end();
        return;
      }
      const body = readFileSync(archive);
      response.writeHead(200, { 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/vits-mms-kin.tar.bz2`;

    // Checked, then installed with one command each, as an operator does.
    installs.check = await admin(['voice', 'check', carded], env());
    installs.carded = await admin(['voice', 'install', carded], env());
    installs.bare = await admin(['voice', 'install', bare], env());
    installs.sherpa = await admin(
      [
        'voice',
        'install',
        sherpa,
        '--licence',
        'CC BY 4.0',
        '--licence-url',
        'https://creativecommons.org/licenses/by/4.0/',
        '--commercial',
        'yes',
      ],
      env(),
    );
    installs.archive = await admin(['voice', 'install', url, '--sha256', archiveSha256], env());
    for (const [name, outcome] of Object.entries(installs))
      assert.equal(outcome.code, 0, `${name}: ${outcome.stderr}`);

    const voicesDir = join(dir, 'data', 'voices');
    const assignments = new VoiceAssignments(voicesDir);
    const slots = [
      { language: 'en', speakerId: 0, voice: field(installs.carded.stdout, 'voice') },
      { language: 'en', speakerId: 1, voice: field(installs.bare.stdout, 'voice') },
      { language: 'en', speakerId: 2, voice: field(installs.sherpa.stdout, 'voice') },
      { language: 'rw', speakerId: 1, voice: field(installs.archive.stdout, 'voice') },
    ] as const;
    for (const slot of slots) await assignments.assign({ ...slot, speaker: 0 });
    const assigned = await loadAssignedVoices(voicesDir);
    assert.deepEqual(assigned.problems, []);
    useAssignedVoices(assigned.voices);
    pool = await startTestPool(1);
    fixture = await buildTtsTestApp({ pool: () => pool });
  });
  after(async () => {
    await fixture?.close();
    await pool?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function listed(language: string, speakerId: number): Promise<Listed> {
    const listing = (
      await fixture.app.inject({ method: 'GET', url: '/api/v1/voices.php?format=json' })
    ).json();
    const voices: Listed[] = listing.languages.find((l: { code: string }) => l.code === language).voices;
    const voice = voices.find((v) => v.speaker_id === speakerId);
    assert.ok(voice);
    return voice;
  }

  /** The stream endpoint's audio (pcm16_8k) for the voice: it must be sound, not silence. */
  async function heard(language: string, speakerId: number, input: string): Promise<Int16Array> {
    const { key } = await fixture.newAccount();
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(key),
      payload: { input, language, speaker_id: speakerId },
    });
    assert.equal(response.statusCode, 200, response.body);
    const samples = littleEndianBytesToInt16(response.rawPayload);
    assert.ok(samples.length > 8000 / 4, `${samples.length} samples`);
    assert.ok(loud(samples), 'not silence');
    return samples;
  }

  it('installs a Piper voice as published with its MODEL_CARD: the manifest from its config, the licence from its card', async () => {
    const check = installs.check as Outcome;
    assert.match(check.stdout, /en_US-carded-medium: a piper voice pack for en, 22050 Hz/);
    assert.equal(field(check.stdout, 'licence'), 'CC BY 4.0');
    const { stdout } = installs.carded as Outcome;
    assert.equal(field(stdout, 'voice'), 'en-us-carded-medium');
    assert.match(stdout, /en_US-carded-medium: a piper voice pack for en, 22050 Hz, speakers 0 carded/);
    assert.equal(field(stdout, 'licence'), 'CC BY 4.0');
    const voice = await listed('en', 0);
    assert.equal(voice.engine, 'neural');
    assert.equal(voice.sample_rate, 22_050);
    assert.deepEqual(voice.licence, { name: 'CC BY 4.0', url: null, commercial: true });
    assert.equal(voice.voice_pack?.name, 'en_US-carded-medium');
    assert.match(voice.voice_pack?.attribution ?? '', /dataset: https:\/\/example\.org\/datasets\/carded/);
    await heard('en', 0, 'Hello, thank you for calling the clinic.');
  });

  it('installs one without a model card, its licence shown as unknown in the listing and on the page', async () => {
    const { stdout } = installs.bare as Outcome;
    assert.match(field(stdout, 'licence'), /^unknown, commercial use not known/);
    const voice = await listed('en', 1);
    assert.deepEqual(voice.licence, { name: 'unknown', url: null, commercial: null });
    const page = await fixture.app.inject({ method: 'GET', url: '/api/v1/voices.php' });
    assert.match(page.body, /licence unknown \(commercial use not known\)/);
    await heard('en', 1, 'Good morning, how can I help you?');
  });

  it("installs a folder as sherpa-onnx's converted voices unpack, with the licence the operator states", async () => {
    const { stdout } = installs.sherpa as Outcome;
    assert.equal(field(stdout, 'voice'), 'en-us-tiny-low');
    const voice = await listed('en', 2);
    assert.deepEqual(voice.licence, {
      name: 'CC BY 4.0',
      url: 'https://creativecommons.org/licenses/by/4.0/',
      commercial: true,
    });
    assert.match(voice.voice_pack?.attribution ?? '', /Piper voice converted by sherpa-onnx/);
    await heard('en', 2, 'Your appointment is on Monday.');
  });

  it('installs a sherpa-onnx .tar.bz2 from a URL, its SHA-256 checked, named after its folder', async () => {
    const { stdout, stderr } = installs.archive as Outcome;
    assert.equal(field(stdout, 'voice'), 'vits-mms-kin');
    assert.match(stdout, /a mms voice pack for rw, 16000 Hz/);
    assert.match(stderr, /downloaded 100 %\nunpacking the archive/);
    const voice = await listed('rw', 1);
    assert.equal(voice.sample_rate, 16_000);
    assert.deepEqual(voice.licence, { name: 'unknown', url: null, commercial: null });
    await heard('rw', 1, 'Muraho neza, murakaza neza.');
  });
});
