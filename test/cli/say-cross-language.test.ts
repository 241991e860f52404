import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import { kinyarwandaToIpa } from '../../src/speech/text/rw/g2p.ts';
import { withoutMarks } from '../../src/speech/text/word-language/marks.ts';
import { allVoices, type Voice } from '../../src/speech/voices/voices.ts';
import { foreignCaseProblems } from '../speech/text/word-language/cross-language-checks.ts';
import {
  CROSS_LANGUAGE_CASES,
  type CrossLanguageCase,
} from '../speech/text/word-language/cross-language-corpus.ts';

// The cross-language corpus (issue 37) through the public command line, as a user checks a
// voice: `npm run say -- --language L --speaker S --show phonemes --each-line`, one process per
// voice with every case of its language.

const script = fileURLToPath(new URL('../../src/cli/say.ts', import.meta.url));

/** How many voices read at once: CI has two cores. */
const PROCESSES_AT_ONCE = 2;

function sayEachLine(voice: Voice, c: readonly CrossLanguageCase[], ssml: boolean): Promise<string[]> {
  const options = ['--language', voice.language, '--speaker', String(voice.speakerId)];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        script,
        ...options,
        '--show',
        'phonemes',
        '--each-line',
        ...(ssml ? ['--ssml'] : []),
        c.map((x) => x.text).join('\n'),
      ],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout.split('\n').slice(0, -1)),
    );
  });
}

/** The clauses the voice says for a case, as the command cuts them. */
const clausesOf = (c: CrossLanguageCase) =>
  splitClauses(withoutMarks(frontEndFor(c.language).normalize(c.text)));

/** The cases `voice` reads: every case of its language. */
const casesOf = (voice: Voice) => CROSS_LANGUAGE_CASES.filter((c) => c.language === voice.language);

/** Runs `jobs` with at most `limit` at once. */
async function inTurns<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await (jobs[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

/** What a voice says for each of its cases (one line a clause), and how many lines it printed. */
async function hear(voice: Voice): Promise<{ lines: Map<CrossLanguageCase, string[]>; printed: number }> {
  const lines = new Map<CrossLanguageCase, string[]>();
  let printed = 0;
  for (const textType of ['text', 'ssml'] as const) {
    const cases = casesOf(voice).filter((c) => c.textType === textType);
    if (cases.length === 0) continue;
    const output = await sayEachLine(voice, cases, textType === 'ssml');
    printed += output.length;
    let at = 0;
    for (const c of cases) {
      const clauses = clausesOf(c).length;
      lines.set(c, output.slice(at, at + clauses));
      at += clauses;
    }
  }
  return { lines, printed };
}

describe('npm run say -- --show phonemes --each-line: the cross-language corpus', () => {
  const voices = allVoices();
  type Heard = Awaited<ReturnType<typeof hear>>;
  const heard = new Map<Voice, Heard>();
  let pool: EnginePool | undefined;

  before(async () => {
    const results = await inTurns(
      voices.map((voice) => () => hear(voice)),
      PROCESSES_AT_ONCE,
    );
    voices.forEach((voice, index) => {
      heard.set(voice, results[index] as Heard);
    });
    pool = await EnginePool.start({ size: 1, warmUp: { samples: [], outputs: [] } });
  });

  after(async () => {
    await pool?.close();
  });

  it('holds at least 250 cases, 60 of them native, each one clause with its source', () => {
    assert.ok(CROSS_LANGUAGE_CASES.length >= 250, `${CROSS_LANGUAGE_CASES.length} cases`);
    assert.ok(CROSS_LANGUAGE_CASES.filter((c) => c.group === 'native').length >= 60);
    for (const c of CROSS_LANGUAGE_CASES) {
      assert.ok(c.source.length > 0, c.text);
      assert.equal(clausesOf(c).length, 1, `${c.text}: one clause`);
      assert.equal(c.foreign.length === 0, c.group === 'native', `${c.text}: foreign words unless native`);
    }
  });

  for (const voice of voices) {
    describe(`${voice.language} ${voice.speakerId} (${voice.name})`, () => {
      it('prints one line for each case', () => {
        assert.equal(heard.get(voice)?.printed, casesOf(voice).length);
      });
      for (const c of casesOf(voice)) {
        it(`${c.group}: ${JSON.stringify(c.text)}`, async () => {
          const said = heard.get(voice)?.lines.get(c) ?? [];
          assert.equal(said.length, 1, `one line of phonemes for one clause: ${JSON.stringify(said)}`);
          const line = said[0] as string;
          if (c.group !== 'native') {
            assert.deepEqual(foreignCaseProblems(c, line), [], `[${line}]; source: ${c.source}`);
            return;
          }
          // A native line reads exactly as the language's own reading: Kinyarwanda's front-end
          // IPA, or the engine given the text as text, which no word-language decision touches.
          const clause = clausesOf(c)[0] as string;
          const reference =
            c.language === 'rw'
              ? kinyarwandaToIpa(clause)
              : await (pool as EnginePool).phonemes({ kind: 'text', text: clause }, voice.engineVoice);
          assert.equal(line, reference, `source: ${c.source}`);
        });
      }
    });
  }
});
