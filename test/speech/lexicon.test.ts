import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plainDocument, type SpeechDocument } from '../../src/speech/input/document.ts';
import { parseSsml } from '../../src/speech/ssml/read.ts';
import { Lexicon, phraseKey } from '../../src/speech/text/lexicon.ts';
import { markWords } from '../../src/speech/text/word-language/marks.ts';

// An account's pronunciations rewrite the plain text of a document before anything reads it.

const textOf = (document: SpeechDocument) =>
  document.segments
    .map((s) => (s.kind === 'break' ? '|' : s.kind === 'phonemes' ? `/${s.ipa}/` : s.text))
    .join('');

describe('Lexicon', () => {
  const lexicon = new Lexicon([
    { phrase: 'Uwase', kind: 'respelling', says: 'oo wah seh' },
    { phrase: 'Kigali Heights', kind: 'respelling', says: 'Kigali Hites' },
    { phrase: 'Kigali', kind: 'respelling', says: 'Kee gah lee' },
    { phrase: 'Nyirabeza', kind: 'ipa', says: 'ɲiɾaβeza' },
  ]);

  it('respells whole words whatever their case, inside the sentence', () => {
    assert.equal(
      textOf(lexicon.apply(plainDocument('Ask for UWASE, please. uwase is here.'))),
      'Ask for oo wah seh, please. oo wah seh is here.',
    );
    assert.equal(
      textOf(lexicon.apply(plainDocument('Uwasekazi and XUwase stay.'))),
      'Uwasekazi and XUwase stay.',
    );
  });

  it('prefers the longest phrase, and matches across any white space', () => {
    assert.equal(
      textOf(lexicon.apply(plainDocument('Meet at Kigali\n Heights in Kigali.'))),
      'Meet at Kigali Hites in Kee gah lee.',
    );
  });

  it('says IPA entries as phoneme segments between the text around them', () => {
    const document = lexicon.apply(plainDocument('Call Nyirabeza today.'));
    assert.deepEqual(
      document.segments.map((s) => s.kind),
      ['text', 'phonemes', 'text'],
    );
    assert.equal(textOf(document), 'Call /ɲiɾaβeza/ today.');
  });

  it('leaves words a client spelled out, and the billed characters, as they were', () => {
    const document: SpeechDocument = {
      segments: [
        { kind: 'words', text: 'Uwase', rate: 1 },
        { kind: 'text', text: 'Uwase', rate: 1 },
      ],
      spokenCharacters: 10,
    };
    const applied = lexicon.apply(document);
    assert.equal(textOf(applied), 'Uwaseoo wah seh');
    assert.equal(applied.spokenCharacters, 10);
  });

  it('marks a respelling with a word language as that language’s words, and only then', () => {
    const languages = new Lexicon([
      { phrase: 'Uwimana', kind: 'respelling', says: 'Uwimana', wordLanguage: 'rw' },
      { phrase: 'team meeting', kind: 'respelling', says: 'teem meeting', wordLanguage: 'en' },
      { phrase: 'Gisozi', kind: 'respelling', says: 'Gisozi', wordLanguage: null },
    ]);
    assert.equal(
      textOf(languages.apply(plainDocument('Ask UWIMANA at the team  meeting in Gisozi.'))),
      `Ask ${markWords('Uwimana', 'rw')} at the ${markWords('teem meeting', 'en')} in Gisozi.`,
    );
  });

  it('matches a phrase inside SSML lang, where the entry’s language decides', () => {
    const inLang = parseSsml('<speak>Ask <lang xml:lang="fr">Kigali Heights and Uwase</lang>.</speak>', {
      language: 'en',
    });
    assert.ok(inLang.ok);
    const entries = new Lexicon([
      { phrase: 'Kigali Heights', kind: 'respelling', says: 'Kigali Hites', wordLanguage: 'rw' },
      { phrase: 'Uwase', kind: 'respelling', says: 'oo wah seh' },
    ]);
    assert.equal(
      textOf(entries.apply(inLang.document)),
      `Ask ${markWords('Kigali Hites', 'rw')} ${markWords('and', 'fr')} oo wah seh.`,
    );
  });

  it('finds each phrase by its first word or sign, among thousands', () => {
    const many = new Lexicon([
      ...Array.from({ length: 3000 }, (_, i) => ({
        phrase: `Client ${i}`,
        kind: 'respelling' as const,
        says: `customer number ${i}`,
      })),
      { phrase: '@ijwi', kind: 'respelling', says: 'at ee jwee' },
      { phrase: 'e-mail', kind: 'respelling', says: 'ee mail' },
      { phrase: 'Dr.', kind: 'respelling', says: 'Doctor' },
    ]);
    assert.equal(
      textOf(
        many.apply(
          plainDocument('Client 2999 and CLIENT 12 wrote to @ijwi by e-mail, Dr. Client 30000 too.'),
        ),
      ),
      'customer number 2999 and customer number 12 wrote to at ee jwee by ee mail, Doctor Client 30000 too.',
    );
  });

  it('among thousands of phrases sharing their first words, takes the longest the text holds', () => {
    const shared = new Lexicon([
      ...Array.from({ length: 3000 }, (_, i) => ({
        phrase: `Client ${i} of ours`,
        kind: 'respelling' as const,
        says: `customer ${i}`,
      })),
      { phrase: 'Client', kind: 'respelling', says: 'Klient' },
      { phrase: 'Client 7', kind: 'respelling', says: 'customer seven' },
    ]);
    const repeated = (sentence: string) => Array.from({ length: 300 }, () => sentence).join(' ');
    assert.equal(
      textOf(shared.apply(plainDocument(repeated('Client x said hi.')))),
      repeated('Klient x said hi.'),
    );
    assert.equal(
      textOf(
        shared.apply(plainDocument('Client 7 of ours, client 7 of yours, CLIENT  2999\tof ours, client 70.')),
      ),
      'customer 7, customer seven of yours, customer 2999, Klient 70.',
    );
  });

  it('falls back to a shorter phrase where a longer one stops inside a word', () => {
    const signs = new Lexicon([
      { phrase: 'C++', kind: 'respelling', says: 'see plus plus' },
      { phrase: 'C', kind: 'respelling', says: 'see' },
    ]);
    assert.equal(
      textOf(signs.apply(plainDocument('C++ and C++x and C.'))),
      'see plus plus and see++x and see.',
    );
  });

  it('reads a phrase holding pattern characters as text', () => {
    const odd = new Lexicon([{ phrase: 'C++ (beta)', kind: 'respelling', says: 'see plus plus beta' }]);
    assert.equal(textOf(odd.apply(plainDocument('Try C++ (beta) now'))), 'Try see plus plus beta now');
    assert.equal(phraseKey('  Kigali   HEIGHTS '), 'kigali heights');
  });
});
