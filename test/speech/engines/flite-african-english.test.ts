import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  africanEnglishRules,
  africanWord,
  dropR,
  footGoose,
  fullVowels,
  kitFleece,
  lettEr,
  lotThought,
  nearCure,
  nurse,
  openA,
  spelledDay,
  stopDh,
  stopTh,
} from '../../../src/speech/engines/flite/african-english.ts';
import { phonesToIpa } from '../../../src/speech/engines/flite/cmu-phones.ts';
import {
  clauseWords,
  lexiconAddenda,
  lexiconWords,
  lookupText,
} from '../../../src/speech/engines/flite/lexicon.ts';

// The examples are those of the phonologies cited in src/speech/engines/flite/README.md
// (Schmied 2004 for East Africa, Gut 2004 for Nigeria); the US phones are the CMU
// Pronouncing Dictionary's, which Flite's lexicon is built from.

const word = (spelling: string, phones: string) => ({ spelling, phones: phones.split(' ') });
const ipa = (phones: readonly string[]) => phonesToIpa(phones.join(' '));

describe('African English rules', () => {
  it('stops the dental fricatives, each by its own rule: "think" [tink], "the" [də] before its vowel rule', () => {
    assert.equal(ipa(stopTh('th ih1 ng k'.split(' '))), 'tˈɪŋk');
    assert.equal(ipa(stopTh('dh ax0'.split(' '))), 'ðə');
    assert.equal(ipa(stopDh('dh ax0'.split(' '))), 'də');
    assert.equal(ipa(stopDh('m ah1 dh er0'.split(' '))), 'mˈʌdɚ');
    assert.equal(ipa(stopDh('th ih1 ng k'.split(' '))), 'θˈɪŋk');
    assert.equal(ipa(africanWord(word('together', 't ax0 g eh1 dh er0'), ['dhStopping'])), 'təɡˈɛdɚ');
  });

  it('drops r except before a vowel: "park" [pak], "red" keeps its r, "very" too', () => {
    assert.deepEqual(dropR('p aa1 r k'.split(' ')), 'p aa1 k'.split(' '));
    assert.deepEqual(dropR('r eh1 d'.split(' ')), 'r eh1 d'.split(' '));
    assert.deepEqual(dropR('v eh1 r iy0'.split(' ')), 'v eh1 r iy0'.split(' '));
    assert.deepEqual(dropR('f ao1 r'.split(' ')), 'f ao1'.split(' '));
  });

  it('says NURSE as [ɛ] ("bird" [bɛd]), unstressed er as [a] ("doctor" [dɔkta])', () => {
    assert.equal(ipa(nurse('b er1 d'.split(' '))), 'bˈɛd');
    assert.equal(ipa(lettEr('d aa1 k t er0'.split(' '))), 'dˈɑktɑ');
    assert.deepEqual(nurse('d aa1 k t er0'.split(' ')), 'd aa1 k t er0'.split(' '));
    assert.deepEqual(lettEr('b er1 d'.split(' ')), 'b er1 d'.split(' '));
  });

  it('keeps the r of an r-coloured vowel before a vowel: "every" [ɛvari], "arrive", "hurry"', () => {
    assert.equal(ipa(lettEr('eh1 v er0 iy0'.split(' '))), 'ˈɛvɑɹi');
    assert.equal(ipa(lettEr('er0 ay1 v'.split(' '))), 'ɑɹˈaɪv');
    assert.equal(ipa(nurse('hh er1 iy0'.split(' '))), 'hˈɛɹi');
  });

  it('ends NEAR and CURE in [a] where the r was: "near" [nia], "sure" [ʃua]', () => {
    assert.equal(ipa(nearCure('n ih1 r'.split(' '))), 'nˈiɑ');
    assert.equal(ipa(nearCure('sh uh1 r'.split(' '))), 'ʃˈuɑ');
    // An r before a vowel stays: "period", "during".
    assert.deepEqual(nearCure('p ih1 r iy0 ax0 d'.split(' ')), 'p ih1 r iy0 ax0 d'.split(' '));
  });

  it('merges TRAP and STRUT in one open [a]: "thank", "cut"; unstressed schwa is left alone', () => {
    assert.deepEqual(openA('th ae1 ng k'.split(' ')), 'th aa1 ng k'.split(' '));
    assert.deepEqual(openA('k ah1 t'.split(' ')), 'k aa1 t'.split(' '));
    assert.deepEqual(openA('ah0 b aw1 t'.split(' ')), 'ah0 b aw1 t'.split(' '));
  });

  it('gives a reduced vowel the full vowel its spelling shows: "about" [abaut], "support" [supɔt]', () => {
    assert.equal(ipa(fullVowels(word('about', 'ah0 b aw1 t'))), 'ɑbˈaʊt');
    assert.equal(ipa(fullVowels(word('support', 's ax0 p ao1 r t'))), 'supˈɔɹt');
    assert.equal(ipa(fullVowels(word('president', 'p r eh1 z ih0 d ah0 n t'))), 'pɹˈɛzɪdɛnt');
  });

  it('leaves the weak form of a one-syllable word alone: "the" [ðə], "to" [tə], not [tɔ]', () => {
    assert.deepEqual(fullVowels(word('the', 'dh ax0')), ['dh', 'ax0']);
    assert.deepEqual(fullVowels(word('to', 't ax0')), ['t', 'ax0']);
  });

  it('reads an open first syllable as the word it spells: "today" [tudei], "select" [silɛkt]', () => {
    assert.equal(ipa(fullVowels(word('today', 't ax0 d ey1'))), 'tudˈeɪ');
    assert.equal(ipa(fullVowels(word('tomorrow', 't ax0 m aa1 r ow2'))), 'tumˈɑɹˌoʊ');
    assert.equal(ipa(fullVowels(word('select', 's ax0 l eh1 k t'))), 'silˈɛkt');
  });

  it('reads "a" before a consonant and a silent "e" as FACE: "message" [mɛsedʒ]', () => {
    assert.equal(ipa(fullVowels(word('message', 'm eh1 s ax0 jh'))), 'mˈɛsɛdʒ');
    assert.equal(ipa(fullVowels(word('private', 'p r ay1 v ax0 t'))), 'pɹˈaɪvɛt');
    assert.equal(ipa(fullVowels(word('balance', 'b ae1 l ax0 n s'))), 'bˈælɑns');
  });

  it('reads the "-day" of the weekdays as spelt, FACE: "Monday" [mandei]; not "money"', () => {
    assert.equal(ipa(spelledDay(word('Monday', 'm aa1 n d iy0'))), 'mˈɑndeɪ');
    assert.equal(ipa(spelledDay(word('Friday', 'f r ay1 d iy0'))), 'fɹˈaɪdeɪ');
    assert.deepEqual(spelledDay(word('today', 't ax0 d ey1')), 't ax0 d ey1'.split(' '));
    assert.deepEqual(spelledDay(word('money', 'm aa1 n iy0')), 'm aa1 n iy0'.split(' '));
  });

  it('leaves a vowel alone where the spelling does not line up, or is i or y', () => {
    // "business", "minutes": three vowel letters, two spoken vowels.
    assert.deepEqual(fullVowels(word('business', 'b ih1 z n ah0 s')), 'b ih1 z n ah0 s'.split(' '));
    assert.deepEqual(fullVowels(word('minutes', 'm ih1 n ax0 t s')), 'm ih1 n ax0 t s'.split(' '));
    // Spelt i, schwa as often as [i]: "office", "mobile".
    assert.deepEqual(fullVowels(word('office', 'ao1 f ax0 s')), 'ao1 f ax0 s'.split(' '));
    assert.deepEqual(fullVowels(word('confirmed', 'k ax0 n f er1 m d')), 'k ax0 n f er1 m d'.split(' '));
    // A silent final e is not a vowel.
    assert.equal(ipa(fullVowels(word('purchase', 'p er1 ch ah0 s'))), 'pˈɝtʃɛs');
  });

  it('says KIT as [i] in the unstressed syllables of longer words: "morning" [mɔniŋ]', () => {
    assert.equal(ipa(kitFleece('m ao1 r n ih0 ng'.split(' '))), 'mˈɔɹniŋ');
    assert.equal(ipa(kitFleece('b ih0 f ao1 r'.split(' '))), 'bifˈɔɹ');
    // Stressed, it would merge "it" and "eat"; a word of one syllable keeps its weak form; NEAR
    // is nearCure's.
    assert.equal(ipa(kitFleece('k l ih1 n ih0 k'.split(' '))), 'klˈɪnik');
    assert.deepEqual(kitFleece(['ih0', 'n']), ['ih0', 'n']);
    assert.deepEqual(kitFleece('p ih1 r iy0 ax0 d'.split(' ')), 'p ih1 r iy0 ax0 d'.split(' '));
  });

  it('says FOOT as GOOSE, [u]: "good" [gud], "book" [buk]; CURE is left to nearCure', () => {
    assert.equal(ipa(footGoose('g uh1 d'.split(' '))), 'ɡˈud');
    assert.equal(ipa(footGoose('b uh1 k'.split(' '))), 'bˈuk');
    assert.deepEqual(footGoose('sh uh1 r'.split(' ')), 'sh uh1 r'.split(' '));
  });

  it('says LOT as [ɔ] where an "o" spells it: "doctor" [dɔkta], "sorry"; not STRUT\'s "o"', () => {
    assert.equal(ipa(lotThought(word('doctor', 'd aa1 k t er0'))), 'dˈɔktɚ');
    assert.equal(ipa(lotThought(word('sorry', 's aa1 r iy0'))), 'sˈɔɹi');
    // STRUT is [a] ("one", "money", "mother", "blood"), and so is an [ɑ] spelt "a" ("Kigali").
    for (const [spelling, phones] of [
      ['one', 'w aa1 n'],
      ['money', 'm aa1 n iy0'],
      ['mother', 'm aa1 dh er0'],
      ['blood', 'b l aa1 d'],
      ['Kigali', 'k iy0 g aa1 l iy0'],
    ] as const)
      assert.deepEqual(lotThought(word(spelling, phones)), phones.split(' '));
  });

  it('speaks a word with every rule: "brother" [brada], "thirty" [tɛti], "water" [wɔta]', () => {
    const every = africanEnglishRules;
    assert.equal(ipa(africanWord(word('brother', 'b r ah1 dh er0'), every)), 'bɹˈɑdɑ');
    assert.equal(ipa(africanWord(word('thirty', 'th er1 t iy0'), every)), 'tˈɛti');
    assert.equal(ipa(africanWord(word('water', 'w ao1 t er0'), every)), 'wˈɔtɑ');
  });

  it('speaks the rules it is given, every rule unless told: "thousand", "brother"', () => {
    assert.equal(ipa(africanWord(word('thousand', 'th aw1 z ax0 n d'))), 'tˈaʊzɑnd');
    const two = ['thStopping', 'dhStopping', 'fullVowels'] as const;
    assert.equal(ipa(africanWord(word('brother', 'b r ah1 dh er0'), two)), 'bɹˈʌdɚ');
    assert.equal(ipa(africanWord(word('thank', 'th ae1 ng k'), two)), 'tˈæŋk');
    assert.deepEqual(africanWord(word('brother', 'b r ah1 dh er0'), []), 'b r ah1 dh er0'.split(' '));
  });
});

describe('Flite lexicon output', () => {
  it('cuts a clause into words, and asks for one word between pauses', () => {
    const words = clauseWords("Hello, it's Ijwi; we're open.");
    assert.deepEqual(words, ['Hello', "it's", 'Ijwi', "we're", 'open']);
    assert.equal(lookupText(words), "Hello, it's, Ijwi, we're, open");
  });

  it('matches printed phones to the words, and refuses a mismatch or an unknown name', () => {
    const printed = 'pau th ae1 ng k pau y uw1 pau \n';
    assert.deepEqual(lexiconWords(['thank', 'you'], printed), [
      word('thank', 'th ae1 ng k'),
      word('you', 'y uw1'),
    ]);
    assert.equal(lexiconWords(['thank', 'you', 'all'], printed), undefined);
    assert.equal(lexiconWords(['thank'], 'pau th ae1 ng k -voice pau'), undefined);
    assert.equal(lexiconWords(['thank'], 'pau th ae9 ng k pau'), undefined);
  });

  it('writes the pronunciations as addenda lines, lower case, the first of a word kept', () => {
    const words = [word('The', 'd eh0'), word('thank', 't aa1 ng k'), word('the', 'dh ax0')];
    assert.equal(lexiconAddenda(words), 'the : d eh0\nthank : t aa1 ng k\n');
  });
});
