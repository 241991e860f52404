import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPhone } from '../../../src/speech/engines/flite/cmu-phones.ts';
import { fliteClause } from '../../../src/speech/engines/flite/foreign-words.ts';
import { frontEndFor } from '../../../src/speech/text/front-end.ts';
import { kinyarwandaWordIpa } from '../../../src/speech/text/rw/g2p.ts';

const rw = (text: string) => ({ kind: 'word', text, language: 'rw', ipa: kinyarwandaWordIpa(text) }) as const;

describe("Flite's clause with Kinyarwanda words", () => {
  it("writes each name as a stand-in Flite reads as a word, with the name's phones, stress on the penultimate", () => {
    const clause = fliteClause({
      kind: 'mixed',
      parts: [
        { kind: 'text', text: 'Welcome to ' },
        rw('Rwanda'),
        { kind: 'text', text: ', ' },
        rw('Nsengiyumva'),
        { kind: 'text', text: '.' },
      ],
    });
    assert.doesNotMatch(clause.text, /Rwanda|Nsengiyumva/);
    assert.deepEqual([...clause.standsFor.values()], ['Rwanda', 'Nsengiyumva']);
    const [rwanda, name] = clause.foreign;
    assert.deepEqual(rwanda?.phones, ['r', 'w', 'aa1', 'n', 'd', 'aa2']);
    assert.ok(name?.phones.every(isPhone));
    assert.equal(name?.phones.filter((p) => p.endsWith('1')).length, 1);
    for (const word of clause.foreign) assert.match(clause.text, new RegExp(`\\b${word.spelling}\\b`));
  });

  it('never takes as a stand-in a word the clause itself holds', () => {
    const clause = fliteClause({
      kind: 'mixed',
      parts: [{ kind: 'text', text: 'zazaba and zazabe met ' }, rw('Kigali'), { kind: 'text', text: '.' }],
    });
    const [standIn] = clause.foreign;
    assert.ok(standIn && !['zazaba', 'zazabe'].includes(standIn.spelling));
  });

  it('keeps two names side by side two words, as the front-end gives them', () => {
    const input = frontEndFor('en').engineInput('Ask for Nsengiyumva Mugisha now.');
    assert.equal(input?.kind, 'mixed');
    const clause = fliteClause(input as Exclude<typeof input, undefined | { kind: 'phonemes' }>);
    const [first, second] = clause.foreign;
    assert.match(clause.text, new RegExp(`^Ask for ${first?.spelling} ${second?.spelling} now\\.$`));
  });

  it('leaves text input and words of other languages as written', () => {
    assert.equal(fliteClause({ kind: 'text', text: 'Hello.' }).text, 'Hello.');
    const clause = fliteClause({
      kind: 'mixed',
      parts: [
        { kind: 'text', text: 'Say ' },
        { kind: 'word', text: 'bonjour', language: 'fr' },
      ],
    });
    assert.equal(clause.text, 'Say bonjour');
    assert.equal(clause.foreign.length, 0);
  });
});
