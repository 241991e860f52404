import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput } from '../../src/speech/engines/engine.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import {
  buildTtsTestApp,
  recordJobs,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';
import { READINGS, type Reading, SAY_AS_READINGS, sayAsElement } from '../speech/text/rw/readings-corpus.ts';

// The Kinyarwanda readings corpus through the file endpoint: what the engine is given to speak
// for the whole corpus in one request must be what it is given for the corpus's readings.

/**
 * Engine inputs as one string, whatever the chunks: a chunk cut between two words is only the
 * end of one phoneme group and the start of the next.
 */
function joined(inputs: readonly string[]): string {
  return inputs
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\]\] \[\[/g, ' ');
}

/**
 * An engine input as one string: phonemes as they are, and a word of another language (an
 * address's "gov", "course") as a group of its own naming its language.
 */
function flat(input: EngineInput | undefined): string {
  if (input === undefined) return '';
  if (input.kind !== 'mixed') return input.kind === 'text' ? input.text : input.phonemes;
  return input.parts
    .map((part) =>
      part.kind === 'phonemes'
        ? part.phonemes
        : part.kind === 'word'
          ? `[[${part.language}:${part.text}]]`
          : part.text,
    )
    .join(' ');
}

/** The engine input of the recorded jobs. */
function spoken(jobs: readonly SynthesisJob[]): string {
  return joined(jobs.map((job) => flat(job.input)));
}

/** What the Kinyarwanda voices are given for words already read. */
function phonemesOf(readings: readonly string[]): string {
  const { engineInput } = frontEndFor('rw');
  return joined(
    readings.flatMap((reading) => splitClauses(reading)).map((clause) => flat(engineInput(clause))),
  );
}

/** The cases the front-end reads otherwise, for the failure message. */
function misread(cases: readonly Reading[]): string {
  const normalize = frontEndFor('rw').normalize;
  const wrong = cases.filter((c) => normalize(c.text) !== c.reading);
  return wrong.map((c) => `${c.text} -> ${normalize(c.text)} (source: ${c.source})`).join('\n');
}

describe('POST /api/v1/tts.php reads the Kinyarwanda readings corpus', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let jobs: SynthesisJob[];
  let key: string;

  before(async () => {
    pool = await startTestPool(1);
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({ pool: () => pool });
    ({ key } = await fixture.newAccount({ topUp: 1000 }));
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const post = async (input: string, textType: 'text' | 'ssml', cases: number) => {
    jobs.length = 0;
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts.php',
      headers: withKey(key),
      payload: { input, language: 'rw', speaker_id: 1, text_type: textType },
    });
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    assert.ok(response.json().seconds > cases * 0.3, 'the corpus is spoken');
    return spoken(jobs);
  };

  it('speaks each plain-text case as its published reading', async () => {
    // One paragraph per case: a blank line is a boundary in plain text and in Markdown alike.
    const heard = await post(READINGS.map((c) => c.text).join('\n\n'), 'text', READINGS.length);
    assert.equal(heard, phonemesOf(READINGS.map((c) => c.reading)), misread(READINGS));
  });

  it('speaks each say-as case as its published reading', async () => {
    const document = `<speak>${SAY_AS_READINGS.map((c) => `<p>${sayAsElement(c)}</p>`).join('')}</speak>`;
    const heard = await post(document, 'ssml', SAY_AS_READINGS.length);
    assert.equal(heard, phonemesOf(SAY_AS_READINGS.map((c) => c.reading)));
  });
});
