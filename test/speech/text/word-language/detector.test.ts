import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { decisionCost, detectorScores } from '../../../../bench/word-language/detector.ts';
import { readInputText } from '../../../../src/speech/input/input-text.ts';
import { frontEndFor } from '../../../../src/speech/text/front-end.ts';
import { foreignWords } from '../../../../src/speech/text/word-language/clause.ts';
import { englishWords, frenchWordList } from '../../../../src/speech/text/word-language/lexicons.ts';
import { markWords } from '../../../../src/speech/text/word-language/marks.ts';
import { fitsKinyarwanda } from '../../../../src/speech/text/word-language/phonotactics.ts';
import { findVoice, type Voice } from '../../../../src/speech/voices/voices.ts';

// The figures reached on the labelled set (`npm run bench -- --only word-language`): a change
// that makes the detector worse on either fails here.
const MIN_PRECISION = 0.996;
const MIN_RECALL = 0.984;

describe('the word-language detector', () => {
  it(`keeps its precision (${MIN_PRECISION}) and recall (${MIN_RECALL}) on the labelled set`, () => {
    const [all] = detectorScores();
    assert.ok(all !== undefined && all.words >= 400, 'the labelled set holds at least 400 words');
    assert.ok(all.precision >= MIN_PRECISION, `precision ${all.precision}`);
    assert.ok(all.recall >= MIN_RECALL, `recall ${all.recall}`);
  });

  it('finds every word of both word lists, those the CMU dictionary lists out of order too', () => {
    const require = createRequire(import.meta.url);
    const cmu = readFileSync(require.resolve('cmu-pronouncing-dictionary'), 'utf8');
    const english = Array.from(cmu.matchAll(/^\s+"([^"(]+)":/gmu), (m) => m[1] as string);
    const french = JSON.parse(readFileSync(require.resolve('an-array-of-french-words'), 'utf8')) as string[];
    assert.ok(english.length > 120_000 && french.length > 330_000);
    // Every 37th word, and every word the dictionary lists before one it should follow.
    const sample = (words: readonly string[]) =>
      words.filter((word, i) => i % 37 === 0 || (i > 0 && (words[i - 1] as string) > word));
    assert.deepEqual(
      sample(english).filter((word) => !englishWords().has(word)),
      [],
    );
    assert.deepEqual(
      sample(french).filter((word) => !frenchWordList().has(word)),
      [],
    );
    for (const word of ['nsengiyumva', 'kimihurura', 'qqqq']) assert.ok(!englishWords().has(word), word);
  });

  it('decides a reply of every language and finds its foreign words', () => {
    assert.ok(decisionCost().foreignWords >= 5);
  });

  it('reads Kinyarwanda spelling: open syllables, its clusters, elision; nothing else', () => {
    for (const word of [
      'Nsengiyumva',
      'Nyabugogo',
      'Kacyiru',
      'shyira',
      'mbwa',
      "n'Imana",
      "by'ibanze",
      'Kalisa',
    ])
      assert.ok(fitsKinyarwanda(word), word);
    for (const word of ['Google', 'booking', 'cash', 'email', 'Ouganda', 'Tanzanie', 'pharmacie', 'receipt'])
      assert.ok(!fitsKinyarwanda(word), word);
  });

  it('finds the foreign words of a clause whole, with what the sentence adds to them', () => {
    assert.deepEqual(
      foreignWords("Rwanda's capital is Kigali.", 'en').map((w) => [w.text, w.language, w.stem, w.after]),
      [
        ["Rwanda's", 'rw', 'Rwanda', 'z'],
        ['Kigali', 'rw', 'Kigali', ''],
      ],
    );
    assert.deepEqual(
      foreignWords("L'Akagera est loin d'Huye.", 'fr').map((w) => [w.text, w.stem, w.before]),
      [
        ["L'Akagera", 'Akagera', 'l'],
        ["d'Huye", 'Huye', 'd'],
      ],
    );
    assert.deepEqual(
      foreignWords('Ohereza email, rendez-vous na bite.', 'rw').map((w) => [w.text, w.language]),
      [
        ['email', 'en'],
        ['rendez-vous', 'fr'],
      ],
    );
  });

  it('takes a marked word in the language its mark gives, and a mark of the sentence language as nothing', () => {
    const clause = `Meet ${markWords('Banana', 'rw')} at ${markWords('Kigali', 'en')}.`;
    assert.deepEqual(
      foreignWords(clause, 'en').map((w) => [w.text, w.language]),
      [['Banana', 'rw']],
    );
  });

  it("lets no client choose a word's language by writing a mark", () => {
    const english = findVoice('en', 0) as Voice;
    const marked = `Meet ${markWords('Banana', 'rw')} here.`;
    const read = readInputText(marked, 'text', english);
    assert.ok(read.ok);
    const segment = read.document.segments[0];
    assert.ok(segment?.kind === 'text');
    const input = frontEndFor('en').engineInput(frontEndFor('en').normalize(segment.text));
    assert.equal(input?.kind, 'text', 'no mixed input: the mark was a space');
  });
});
