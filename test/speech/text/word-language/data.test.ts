import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LabelledWord, labelledWords } from '../../../../bench/word-language/labelled-words.ts';
import { foreignWordsInKinyarwanda } from '../../../../src/speech/text/word-language/data/foreign-words-in-kinyarwanda.ts';
import { kinyarwandaWords } from '../../../../src/speech/text/word-language/data/kinyarwanda-words.ts';
import {
  kinyarwandaGivenNames,
  kinyarwandaSurnames,
} from '../../../../src/speech/text/word-language/data/rwanda-names.ts';
import { rwandaPlaces } from '../../../../src/speech/text/word-language/data/rwanda-places.ts';
import { sharedWords } from '../../../../src/speech/text/word-language/data/shared-words.ts';

// The detector reads a word as letters, with an apostrophe (straight or curly) inside: d'accord.
const ONE_WORD = /^\p{L}+(?:['’]\p{L}+)*$/u;
const key = (word: string) => word.toLocaleLowerCase('fr');

const kinyarwandaLists: Record<string, readonly string[]> = {
  rwandaPlaces,
  kinyarwandaGivenNames,
  kinyarwandaSurnames,
  kinyarwandaWords,
};
const foreignWords = foreignWordsInKinyarwanda.map(([word]) => word);
const allLists: Record<string, readonly string[]> = {
  ...kinyarwandaLists,
  foreignWordsInKinyarwanda: foreignWords,
  sharedWords: sharedWords.map(({ word }) => word),
};
const kinyarwandaListed = new Set(Object.values(kinyarwandaLists).flat().map(key));
const foreignLanguage = new Map(foreignWordsInKinyarwanda.map(([word, language]) => [key(word), language]));
const everyListed = new Set(Object.values(allLists).flat().map(key));

/** The words met a second time, compared by `same` (case-blind by default). */
function duplicates(words: readonly string[], same: (word: string) => string = key): string[] {
  const seen = new Set<string>();
  return words.filter((word) => {
    const met = seen.has(same(word));
    seen.add(same(word));
    return met;
  });
}

const count = (where: (entry: LabelledWord) => boolean) => labelledWords.filter(where).length;

describe('word-language data lists', () => {
  for (const [name, words] of Object.entries(allLists)) {
    it(`${name}: no word twice, each one word as the detector reads it`, () => {
      assert.ok(words.length > 0, `${name} is empty`);
      assert.deepEqual(duplicates(words), []);
      assert.deepEqual(
        words.filter((word) => !ONE_WORD.test(word)),
        [],
      );
    });
  }

  it('keeps a name in one of the two name lists, not both', () => {
    const given = new Set(kinyarwandaGivenNames.map(key));
    assert.deepEqual(
      kinyarwandaSurnames.filter((name) => given.has(key(name))),
      [],
    );
  });

  it('holds no name of European origin among the Kinyarwanda names', () => {
    const european = ['Jean', 'Marie', 'Claude', 'Eric', 'Grace', 'Divine', 'Aline', 'Olivier', 'Patrick'];
    const names = new Set([...kinyarwandaGivenNames, ...kinyarwandaSurnames].map(key));
    assert.deepEqual(
      european.filter((name) => names.has(key(name))),
      [],
    );
  });

  it('has the 5 provinces and the 30 districts in the gazetteer', () => {
    const places = new Set(rwandaPlaces.map(key));
    const provincesAndDistricts = [
      'Amajyaruguru',
      'Amajyepfo',
      'Iburasirazuba',
      'Iburengerazuba',
      'Umujyi',
      'Kigali',
      'Bugesera',
      'Gatsibo',
      'Kayonza',
      'Kirehe',
      'Ngoma',
      'Nyagatare',
      'Rwamagana',
      'Gasabo',
      'Kicukiro',
      'Nyarugenge',
      'Burera',
      'Gakenke',
      'Gicumbi',
      'Musanze',
      'Rulindo',
      'Gisagara',
      'Huye',
      'Kamonyi',
      'Muhanga',
      'Nyamagabe',
      'Nyanza',
      'Nyaruguru',
      'Ruhango',
      'Karongi',
      'Ngororero',
      'Nyabihu',
      'Nyamasheke',
      'Rubavu',
      'Rusizi',
      'Rutsiro',
    ];
    assert.deepEqual(
      provincesAndDistricts.filter((place) => !places.has(key(place))),
      [],
    );
  });

  it('never lists a word as both Kinyarwanda and foreign, nor a shared word in any list', () => {
    assert.deepEqual(
      foreignWords.filter((word) => kinyarwandaListed.has(key(word))),
      [],
    );
    const listedElsewhere = new Set([...kinyarwandaListed, ...foreignWords.map(key)]);
    assert.deepEqual(
      sharedWords.filter(({ word }) => listedElsewhere.has(key(word))).map(({ word }) => word),
      [],
    );
  });
});

describe('word-language labelled set', () => {
  // Case counts here: "Sake" (the lake) and "sake" (the English word) are two entries.
  it('has at least 450 words, each one word as the detector reads it, no word twice in a context', () => {
    assert.ok(labelledWords.length >= 450, `only ${labelledWords.length} words`);
    assert.deepEqual(
      labelledWords.filter(({ word }) => !ONE_WORD.test(word)).map(({ word }) => word),
      [],
    );
    assert.deepEqual(
      duplicates(
        labelledWords.map(({ word, context }) => `${context} ${word}`),
        (word) => word,
      ),
      [],
    );
  });

  it('is balanced across sentence languages and true languages', () => {
    const minimum: [context: string, language: string, at: number][] = [
      ['en', 'rw', 60],
      ['fr', 'rw', 60],
      ['rw', 'en', 60],
      ['rw', 'fr', 50],
      ['en', 'en', 60],
      ['fr', 'fr', 60],
      ['rw', 'rw', 120],
    ];
    for (const [context, language, at] of minimum) {
      const n = count((entry) => entry.context === context && entry.language === language);
      assert.ok(n >= at, `${language} words in ${context} sentences: ${n}, fewer than ${at}`);
    }
  });

  it('holds at least 40 % of its Kinyarwanda words in English and French out of the lists', () => {
    const kinyarwandaInForeign = labelledWords.filter(
      (entry) => entry.language === 'rw' && entry.context !== 'rw',
    );
    const heldOut = kinyarwandaInForeign.filter(
      ({ kind }) => kind === 'held-out-name' || kind === 'held-out-place',
    );
    assert.ok(
      heldOut.length >= 0.4 * kinyarwandaInForeign.length,
      `${heldOut.length} held out of ${kinyarwandaInForeign.length}`,
    );
    for (const context of ['en', 'fr'] as const) {
      for (const kind of ['held-out-name', 'held-out-place']) {
        assert.ok(
          count((entry) => entry.context === context && entry.kind === kind) >= 10,
          `${kind} in ${context}`,
        );
      }
    }
  });

  it('held-out words are in none of the lists, and are Kinyarwanda', () => {
    const heldOut = labelledWords.filter(({ kind }) => kind.startsWith('held-out'));
    assert.deepEqual(
      heldOut.filter(({ word }) => everyListed.has(key(word))).map(({ word }) => word),
      [],
    );
    assert.deepEqual(
      heldOut.filter(({ language }) => language !== 'rw').map(({ word }) => word),
      [],
    );
  });

  it('labels no gazetteer word as English or French, and every foreign-list word with its own language', () => {
    assert.deepEqual(
      labelledWords
        .filter(({ word, language }) => language !== 'rw' && kinyarwandaListed.has(key(word)))
        .map(({ word, context }) => `${word} (${context})`),
      [],
    );
    assert.deepEqual(
      labelledWords
        .filter(({ word, context, language }) => {
          const listed = foreignLanguage.get(key(word));
          return listed !== undefined && context === 'rw' && language !== listed;
        })
        .map(({ word }) => word),
      [],
    );
  });

  it('includes the hard cases in both directions', () => {
    const has = (word: string, context: string, language: string) =>
      labelledWords.some(
        (entry) => entry.word === word && entry.context === context && entry.language === language,
      );
    const hardCases: [word: string, context: string, language: string][] = [
      ['banana', 'en', 'en'],
      ['Uganda', 'en', 'en'],
      ['camera', 'en', 'en'],
      ['data', 'en', 'en'],
      ['Kenya', 'en', 'en'],
      ['Obama', 'en', 'en'],
      ['banane', 'fr', 'fr'],
      ['moto', 'fr', 'fr'],
      ['kilo', 'fr', 'fr'],
      ['radio', 'fr', 'fr'],
      ['bite', 'rw', 'rw'],
      ['ubu', 'rw', 'rw'],
      ['mama', 'rw', 'rw'],
      ['bite', 'en', 'en'],
      ['mama', 'en', 'en'],
    ];
    assert.deepEqual(
      hardCases.filter(([word, context, language]) => !has(word, context, language)),
      [],
    );
    assert.ok(count(({ kind }) => kind === 'lookalike') >= 60);
    assert.ok(count(({ kind }) => kind === 'shared') >= 15);
  });
});
