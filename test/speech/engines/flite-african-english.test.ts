import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  africanEnglishRules,
  africanWord,
  dropR,
  fullVowels,
  lettEr,
  nearCure,
  nurse,
  openA,
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
  it('stops the dental fricatives: "think" [tink], "the" [də] before its vowel rule', () => {
    assert.equal(ipa(stopTh('th ih1 ng k'.split(' '))), 'tˈɪŋk');
    assert.equal(ipa(stopTh('dh ax0'.split(' '))), 'də');
    assert.equal(ipa(stopTh('m ah1 dh er0'.split(' '))), 'mˈʌdɚ');
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
    assert.equal(ipa(fullVowels(word('today', 't ax0 d ey1'))), 'tɔdˈeɪ');
  });

  it('names a vowel spelt with several letters by the one a reader goes by', () => {
    assert.equal(ipa(fullVowels(word('station', 's t ey1 sh ax0 n'))), 'stˈeɪʃɔn');
    assert.equal(ipa(fullVowels(word('special', 's p eh1 sh ax0 l'))), 'spˈɛʃɑl');
    assert.equal(ipa(fullVowels(word('famous', 'f ey1 m ax0 s'))), 'fˈeɪmus');
    assert.equal(ipa(fullVowels(word('certain', 's er1 t ax0 n'))), 'sˈɝtɛn');
  });

  it('falls back to [a] when the spelling does not line up with the vowels', () => {
    // "business": three vowel letters (u, i, e), two spoken vowels.
    assert.equal(ipa(fullVowels(word('business', 'b ih1 z n ah0 s'))), 'bˈɪznɑs');
    // A silent final e is not a vowel: "purchase" has two.
    assert.equal(ipa(fullVowels(word('purchase', 'p er1 ch ah0 s'))), 'pˈɝtʃɑs');
  });

  it('speaks a word with every rule: "brother" [brada], "thirty" [tɛti], "water" [wɔta]', () => {
    const every = africanEnglishRules;
    assert.equal(ipa(africanWord(word('brother', 'b r ah1 dh er0'), every)), 'bɹˈɑdɑ');
    assert.equal(ipa(africanWord(word('thirty', 'th er1 t iy0'), every)), 'tˈɛti');
    assert.equal(ipa(africanWord(word('water', 'w ao1 t er0'), every)), 'wˈɔtɑ');
  });

  it('speaks the voices\' rules by default, th-stopping and full vowels: "thousand", "brother"', () => {
    assert.equal(ipa(africanWord(word('thousand', 'th aw1 z ax0 n d'))), 'tˈaʊzɑnd');
    assert.equal(ipa(africanWord(word('brother', 'b r ah1 dh er0'))), 'bɹˈʌdɚ');
    assert.equal(ipa(africanWord(word('thank', 'th ae1 ng k'))), 'tˈæŋk');
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
