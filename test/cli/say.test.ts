import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { VoiceAssignments } from '../../src/speech/engines/neural/voice-assignments.ts';
import { VoiceStore } from '../../src/speech/engines/neural/voice-store.ts';
import { builtInVoices } from '../../src/speech/voices/voices.ts';
import { writeVoicePack } from '../helpers/voice-packs.ts';

// The `say` command passes the same gate as the API: control characters refused with their
// position, SSML parsed by Ijwi with --ssml, and markup in plain text read as text.

const script = fileURLToPath(new URL('../../src/cli/say.ts', import.meta.url));
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-say-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function say(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The longest run of silence, in seconds, in a 16-bit mono WAV that `say` wrote. */
function longestSilence(file: string): number {
  const wav = readFileSync(file);
  const rate = wav.readUInt32LE(24);
  let longest = 0;
  let run = 0;
  for (let at = 44; at + 1 < wav.byteLength; at += 2) {
    run = Math.abs(wav.readInt16LE(at)) < 64 ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest / rate;
}

describe('npm run say', () => {
  it('refuses a control character with its position, writing nothing', async () => {
    const out = join(dir, 'nul.wav');
    const { code, stderr } = await say(['--language', 'en', 'Hello\u0007 there', '--out', out]);
    assert.equal(code, 2);
    assert.match(stderr, /U\+0007 at position 5/);
  });

  it("speaks the voice packs assigned in the service's data folder, as the service does", async () => {
    const data = join(dir, 'with-pack');
    const installed = await new VoiceStore(join(data, 'voices')).install(
      writeVoicePack(join(dir, 'say-pack'), { kind: 'mms', manifest: { name: 'Kinyarwanda tiny' } }),
    );
    assert.ok(installed.ok);
    await new VoiceAssignments(join(data, 'voices')).assign({
      language: 'rw',
      speakerId: 2,
      voice: installed.voice.id,
      speaker: 0,
    });
    const listed = await say(['--show', 'engine'], { DATA_DIR: data });
    assert.match(listed.stdout, /^rw 2 Ineza: sherpa-onnx \(neural\)$/m);
    assert.match(listed.stdout, /^rw 1 Mugisha: eSpeak NG \(espeak-ng\)$/m);
    const out = join(dir, 'ineza.wav');
    const spoken = await say(['--language', 'rw', '--speaker', '2', 'Muraho neza', '--out', out], {
      DATA_DIR: data,
    });
    assert.equal(spoken.code, 0, spoken.stderr);
    assert.equal(readFileSync(out).readUInt32LE(24), 16_000, "the pack's sample rate");
  });

  it('lists every voice with the engine that speaks it', async () => {
    const listed = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', script, '--show', 'engine'], (_error, stdout) =>
        resolve(stdout),
      );
    });
    const lines = listed.trim().split('\n');
    assert.equal(lines.length, builtInVoices.length);
    for (const voice of builtInVoices) {
      assert.ok(
        lines.some(
          (l) =>
            l.startsWith(`${voice.language} ${voice.speakerId} ${voice.name}:`) &&
            l.includes(`(${voice.engineVoice.engine})`),
        ),
        voice.name,
      );
    }
  });

  it('reads SSML with --ssml, and SSML without it as text', async () => {
    const document = '<speak>Please hold.<break time="2s"/>Thank you.</speak>';
    const ssml = join(dir, 'ssml.wav');
    const text = join(dir, 'text.wav');
    assert.equal((await say(['--language', 'en', '--ssml', document, '--out', ssml])).code, 0);
    assert.equal((await say(['--language', 'en', document, '--out', text])).code, 0);
    assert.ok(longestSilence(ssml) >= 1.9, `the break: ${longestSilence(ssml)} s of silence`);
    assert.ok(longestSilence(text) < 1, `read as text: ${longestSilence(text)} s of silence`);
    const bad = await say(['--language', 'en', '--ssml', '<speak><voice>x</voice></speak>', '--out', ssml]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /<voice> at line 1, column 8/);
  });

  it('says the words of an SSML lang element with that language’s sounds, in the request’s voice', async () => {
    const phonemes = async (language: string, ssml: string) => {
      const { code, stdout, stderr } = await say([
        '--language',
        language,
        '--show',
        'phonemes',
        '--ssml',
        ssml,
      ]);
      assert.equal(code, 0, stderr);
      return stdout.trim();
    };
    /** The phonemes without stress marks, for what the sounds are. */
    const unstressed = async (language: string, ssml: string) =>
      (await phonemes(language, ssml)).replace(/[ˈˌ]/gu, '');
    // English voice (Flite): the place with Kinyarwanda's ny and open syllables; the Kinyarwanda
    // greeting "bite" as [bite], where English text reads the English verb [baɪt].
    assert.match(
      await unstressed('en', '<speak>Welcome to <lang xml:lang="rw">Nyamirambo</lang>.</speak>'),
      /njɑmi\S*mb/,
    );
    const greeting = await phonemes('en', '<speak>Say <lang xml:lang="rw">bite</lang> now.</speak>');
    const verb = await phonemes('en', '<speak>Say bite now.</speak>');
    assert.match(verb, /bˈaɪt /);
    assert.match(greeting.replace(/[ˈˌ]/gu, ''), /bite/);
    assert.doesNotMatch(greeting, /aɪt/);
    // Kinyarwanda voice (espeak-ng): "meeting" in English sounds, stressed, with its final [ŋ];
    // marked Kinyarwanda, the same letters by Kinyarwanda's rules ([ŋɡ], no English stress).
    assert.match(
      await phonemes('rw', '<speak>Ejo dufite <lang xml:lang="en">meeting</lang> i Kigali.</speak>'),
      /dufite mˈiːtiŋ i /,
    );
    assert.match(
      await phonemes('rw', '<speak>Ejo dufite <lang xml:lang="rw">meeting</lang> i Kigali.</speak>'),
      /dufite me\S*ŋɡ i /,
    );
  });
});
