import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LanguageCode } from '../../../../src/speech/text/verbalizer.ts';
import { foreignCaseProblems } from './cross-language-checks.ts';
import { CROSS_LANGUAGE_CASES } from './cross-language-corpus.ts';

// The corpus's checks must fail on the readings issue 37 reports (each voice reading every word
// with its own language's rules) and pass on the readings a bilingual Rwandan gives.

/** The first case of `language` whose foreign word is `word`. */
function caseOf(language: LanguageCode, word: string) {
  const found = CROSS_LANGUAGE_CASES.find((c) => c.language === language && c.foreign[0]?.word === word);
  assert.ok(found, word);
  return found;
}

describe('cross-language checks', () => {
  it('refuse a Kinyarwanda name spelled out, with English vowels or a silent e, in English', () => {
    const rwanda = caseOf('en', 'Rwanda');
    assert.notDeepEqual(foreignCaseProblems(rwanda, 'wˈɛlkəm tə ˈɑɹ dˈʌbəlju ˈeɪ ˈɛn dˈi ˈeɪ'), []);
    assert.notDeepEqual(foreignCaseProblems(rwanda, 'wˈɛlkəm tə ˈɑɹdˈɑbəljueɪˈɛndˈieɪ'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('en', 'Huye'), 'plˈiz kˈɔl hˈaɪ nˈaʊ'), []);
    assert.deepEqual(foreignCaseProblems(rwanda, 'wˈɛlkəm tə ɹwˈɑndɑ'), []);
  });

  it('refuse French [y], nasal vowels and a soft g in a Kinyarwanda name said in French', () => {
    assert.notDeepEqual(foreignCaseProblems(caseOf('fr', 'Kimihurura'), 'nuz alˈɔ̃z a kimjyʁyʁa'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('fr', 'Musanze'), 'nuz alˈɔ̃z a myzɑ̃z'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('fr', 'Gisenyi'), 'nuz alˈɔ̃z a ʒizni'), []);
    assert.deepEqual(foreignCaseProblems(caseOf('fr', 'Kimihurura'), 'nuz alˈɔ̃z ˈa kimiuʁuʁa'), []);
  });

  it('refuse Kinyarwanda spelling rules on English and French words in Kinyarwanda', () => {
    assert.notDeepEqual(foreignCaseProblems(caseOf('rw', 'email'), 'oheɾeza emaiɾ uju munsi'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('rw', 'pharmacie'), 'tuɡende kuɾi phaɾmat͡ʃie'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('rw', 'rendez-vous'), 'dufite ɾeːndez vous ejo'), []);
    assert.deepEqual(foreignCaseProblems(caseOf('rw', 'email'), 'oheɾeza ˈiːmel uju munsi.'), []);
    assert.deepEqual(foreignCaseProblems(caseOf('rw', 'pharmacie'), 'tuɡende kuɾi faɾmasˈi .'), []);
  });

  it('take a reduced English vowel and a British centring diphthong as the dictionary allows', () => {
    assert.deepEqual(foreignCaseProblems(caseOf('rw', 'ticket'), 'nta tˈikit mfite.'), []);
    assert.deepEqual(foreignCaseProblems(caseOf('rw', 'ticket'), 'nta tˈikat mfite.'), []);
    assert.deepEqual(foreignCaseProblems(caseOf('rw', 'airtime'), 'ɡuɾa ˈeataim vuβa.'), []);
    assert.notDeepEqual(foreignCaseProblems(caseOf('rw', 'ticket'), 'nta tˈakit mfite.'), []);
  });
});
