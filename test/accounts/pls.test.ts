import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LexiconEntry } from '../../src/accounts/dictionary-repository.ts';
import { checkEntry } from '../../src/accounts/lexicons.ts';
import { IJWI_PLS_NAMESPACE, MAX_PLS_BYTES, readPls, writePls } from '../../src/accounts/pls.ts';

// The PLS codec on its own: the W3C specification's examples, Ijwi's word-language extension
// both ways, and files that must be refused with the line at fault.

/** The `<lexicon>` start tag of the W3C PLS 1.0 examples, with `extra` namespace declarations. */
const head = (lang: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0"
      xmlns="http://www.w3.org/2005/01/pronunciation-lexicon"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xsi:schemaLocation="http://www.w3.org/2005/01/pronunciation-lexicon
        http://www.w3.org/TR/2007/CR-pronunciation-lexicon-20071212/pls.xsd"${extra}
      alphabet="ipa" xml:lang="${lang}">`;

const read = (text: string) => {
  const result = readPls(text, 1000);
  assert.ok(result.ok, JSON.stringify(result));
  return result.entries.map(({ phrase, kind, says, wordLanguage }) => ({ phrase, kind, says, wordLanguage }));
};

const refusal = (text: string, maxLexemes = 1000) => {
  const result = readPls(text, maxLexemes);
  assert.ok(!result.ok, 'refused');
  return result;
};

describe('W3C PLS 1.0: the specification’s examples', () => {
  it('reads an alias (the W3C acronym)', () => {
    assert.deepEqual(
      read(`${head('en-US')}
  <lexeme>
    <grapheme>W3C</grapheme>
    <alias>World Wide Web Consortium</alias>
  </lexeme>
</lexicon>`),
      [{ phrase: 'W3C', kind: 'respelling', says: 'World Wide Web Consortium', wordLanguage: undefined }],
    );
  });

  it('reads IPA given by character references, and says which symbol the voices cannot say', () => {
    const text = `${head('en-US')}
  <lexeme>
    <grapheme>tomato</grapheme>
    <phoneme>t&#x0259;mei&#x325;&#x027E;ou&#x325;</phoneme>
    <!-- IPA string is: "t&#x0259;mei&#x325;&#x027E;ou&#x325;" -->
  </lexeme>
</lexicon>`;
    const [tomato] = read(text);
    assert.deepEqual(tomato, { phrase: 'tomato', kind: 'ipa', says: 'təmei̥ɾou̥', wordLanguage: undefined });
    // The devoicing ring is IPA no English voice of Ijwi says: the entry is refused, as in the dashboard.
    const checked = checkEntry({ language: 'en', ...tomato, says: tomato?.says ?? '' });
    assert.ok(!checked.ok && checked.field === 'says' && /i̥/.test(checked.message), JSON.stringify(checked));
  });

  it('gives each grapheme of a lexeme the lexeme’s pronunciation', () => {
    assert.deepEqual(
      read(`${head('en-US')}
  <lexeme>
    <grapheme>theater</grapheme>
    <grapheme>theatre</grapheme>
    <phoneme>ˈθɪətər</phoneme>
  </lexeme>
</lexicon>`).map((e) => [e.phrase, e.says]),
      [
        ['theater', 'ˈθɪətər'],
        ['theatre', 'ˈθɪətər'],
      ],
    );
  });

  it('takes the preferred pronunciation, else the first', () => {
    assert.deepEqual(
      read(`${head('en-US')}
  <lexeme>
    <grapheme>huge</grapheme>
    <phoneme>juːʤ</phoneme>
    <phoneme prefer="true">hjuːʤ</phoneme>
  </lexeme>
  <lexeme>
    <grapheme>Sepulveda</grapheme>
    <phoneme>səˈpʌlvɪdə</phoneme>
    <alias>sepul veda</alias>
  </lexeme>
</lexicon>`).map((e) => [e.phrase, e.kind, e.says]),
      [
        ['huge', 'ipa', 'hjuːʤ'],
        ['Sepulveda', 'ipa', 'səˈpʌlvɪdə'],
      ],
    );
  });

  it('keeps the first of homographs told apart by role (Ijwi has no part of speech to choose by)', () => {
    assert.deepEqual(
      read(`${head('en', '\n      xmlns:claws="http://www.example.com/claws7tags"')}
  <lexeme role="claws:VVI claws:VV0 claws:NN1">
    <grapheme>read</grapheme>
    <phoneme>riːd</phoneme>
  </lexeme>
  <lexeme role="claws:VVN claws:VVD">
    <grapheme>read</grapheme>
    <phoneme>red</phoneme>
  </lexeme>
</lexicon>`).map((e) => [e.phrase, e.says]),
      [['read', 'riːd']],
    );
  });

  it('skips meta, metadata and examples', () => {
    assert.deepEqual(
      read(`${head('en-US')}
  <meta name="author" content="Jane Doe"/>
  <metadata>
    <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        xmlns:dc="http://purl.org/dc/elements/1.1/">
      <rdf:Description rdf:about="" dc:title="Pronunciation lexicon"/>
    </rdf:RDF>
  </metadata>
  <lexeme>
    <grapheme>lead</grapheme>
    <phoneme>led</phoneme>
    <example>My feet were as heavy as lead.</example>
  </lexeme>
</lexicon>`).map((e) => [e.phrase, e.says]),
      [['lead', 'led']],
    );
  });
});

describe('PLS written by Ijwi', () => {
  const entries: LexiconEntry[] = [
    {
      id: 'lex_1',
      language: 'en',
      phrase: 'Mugabo',
      kind: 'respelling',
      says: 'Mugabo',
      wordLanguage: 'rw',
      createdAt: '',
    },
    {
      id: 'lex_2',
      language: 'en',
      phrase: 'AT&T <x>',
      kind: 'respelling',
      says: 'A T and T "x"',
      wordLanguage: null,
      createdAt: '',
    },
    {
      id: 'lex_3',
      language: 'en',
      phrase: 'Nyanza',
      kind: 'ipa',
      says: 'njanza',
      wordLanguage: null,
      createdAt: '',
    },
    {
      id: 'lex_4',
      language: 'fr',
      phrase: 'Gisozi',
      kind: 'respelling',
      says: 'guisozi',
      wordLanguage: null,
      createdAt: '',
    },
  ];

  it('reads back as it was written, word language included, one language per file', () => {
    const text = writePls('en', entries);
    assert.match(text, new RegExp(`xmlns:ijwi="${IJWI_PLS_NAMESPACE}"`));
    assert.match(text, /<lexeme ijwi:word-language="rw">/);
    const result = readPls(text, 1000);
    assert.ok(result.ok && result.language === 'en');
    assert.deepEqual(
      result.entries.map(({ phrase, kind, says, wordLanguage }) => ({
        phrase,
        kind,
        says,
        wordLanguage: wordLanguage ?? null,
      })),
      entries
        .filter((e) => e.language === 'en')
        .map(({ phrase, kind, says, wordLanguage }) => ({ phrase, kind, says, wordLanguage })),
    );
  });
});

describe('PLS refused, with the line', () => {
  it('refuses a DOCTYPE, so no entity can be declared: billion laughs and external entities', () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lexicon [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
  <lexeme><grapheme>lol</grapheme><alias>&lol9;</alias></lexeme>
</lexicon>`;
    const refused = refusal(laughs);
    assert.match(refused.message, /DOCTYPE/);
    assert.equal(refused.line, 2, 'where the DOCTYPE starts');
    const external = `<?xml version="1.0"?>
<!DOCTYPE lexicon [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
  <lexeme><grapheme>x</grapheme><alias>&secret;</alias></lexeme>
</lexicon>`;
    assert.match(refusal(external).message, /DOCTYPE/);
    // Without a DOCTYPE an entity reference is simply undefined.
    const undefinedEntity = `${head('en')}
  <lexeme><grapheme>x</grapheme><alias>&secret;</alias></lexeme>
</lexicon>`;
    const refused2 = refusal(undefinedEntity);
    assert.match(refused2.message, /entity/i);
    assert.equal(refused2.line, 8);
  });

  it('refuses what is not PLS, naming the line', () => {
    const cases: [string, RegExp, number][] = [
      [`${head('en')}\n  <lexeme><grapheme>x</grapheme></lexeme>\n</lexicon>`, /<phoneme> or an <alias>/, 8],
      [
        `${head('en')}\n  <lexeme>\n<grapheme>x</grapheme><phoneme alphabet="x-sampa">h@</phoneme></lexeme>\n</lexicon>`,
        /x-sampa/,
        9,
      ],
      [`${head('sw')}\n</lexicon>`, /sw/, 7],
      [`${head('en')}\n  <speak/>\n</lexicon>`, /<speak>/, 8],
      [
        `<?xml version="1.0"?>\n<?xml-stylesheet href="x"?>\n${head('en').split('\n').slice(1).join('\n')}</lexicon>`,
        /processing/,
        2,
      ],
      [`${head('en')}\n  <lexeme><grapheme>x</grapheme><alias>y</alias>\n</lexicon>`, /XML/, 9],
    ];
    for (const [text, message, line] of cases) {
      const refused = refusal(text);
      assert.match(refused.message, message);
      assert.equal(refused.line, line, refused.message);
    }
  });

  it('refuses more lexemes than allowed at the first one too many, and more bytes than allowed before reading', () => {
    const lexemes = (n: number) =>
      `${head('en')}\n${Array.from({ length: n }, (_, i) => `<lexeme><grapheme>w${i}</grapheme><alias>a</alias></lexeme>\n`).join('')}</lexicon>`;
    const tooMany = refusal(lexemes(1001));
    assert.match(tooMany.message, /1000 lexemes/);
    assert.equal(tooMany.line, 7 + 1001);
    assert.ok(readPls(lexemes(1000), 1000).ok);
    const huge = refusal(lexemes(100_000));
    assert.equal(huge.line, null);
    assert.match(huge.message, new RegExp(`${MAX_PLS_BYTES} bytes`));
  });
});
