import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EngineDescriptor } from '../../../src/speech/engines/engine.ts';
import { engines } from '../../../src/speech/engines/registry.ts';
import type { SpeechDocument, SpeechSegment } from '../../../src/speech/input/document.ts';
import { parseSsml } from '../../../src/speech/ssml/read.ts';
import { englishVerbalizer } from '../../../src/speech/text/en/verbalizer.ts';
import { frenchVerbalizer } from '../../../src/speech/text/fr/verbalizer.ts';
import { kinyarwandaVerbalizer } from '../../../src/speech/text/rw/verbalizer.ts';
import type { LanguageCode, Verbalizer } from '../../../src/speech/text/verbalizer.ts';
import { markWords } from '../../../src/speech/text/word-language/marks.ts';

const VERBALIZERS: readonly Verbalizer[] = [kinyarwandaVerbalizer, englishVerbalizer, frenchVerbalizer];
const speak = (body: string) => `<speak>${body}</speak>`;

// A voice that speaks IPA, as espeak-ng's do; a text-only one is tested on its own below.
const espeakSpeaker = (language: LanguageCode) => ({
  language,
  readIpa: (ipa: string) =>
    (engines['espeak-ng'].readIpa as NonNullable<EngineDescriptor['readIpa']>)(language, ipa),
});

function parsed(ssml: string, language: LanguageCode = 'en'): SpeechDocument {
  const result = parseSsml(ssml, espeakSpeaker(language));
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  return result.document;
}

function refused(ssml: string, language: LanguageCode = 'en', readsIpa = true) {
  const result = parseSsml(ssml, readsIpa ? espeakSpeaker(language) : { language });
  assert.ok(!result.ok, `accepted: ${JSON.stringify(result.ok && result.document)}`);
  return result.error;
}

/** The error's element and where it starts; the message must name what is allowed or wrong. */
function refusedAt(
  ssml: string,
  element: string | null,
  line: number,
  column: number,
  language: LanguageCode = 'en',
) {
  const error = refused(ssml, language);
  assert.deepEqual(
    { element: error.element, line: error.line, column: error.column },
    { element, line, column },
  );
  assert.ok(error.message.length > 10, error.message);
  return error;
}

const segments = (ssml: string, language: LanguageCode = 'en'): readonly SpeechSegment[] =>
  parsed(ssml, language).segments;

/** The words a `say-as` reads, from a document holding only it. */
function sayAs(attributes: string, content: string, language: LanguageCode = 'en'): string {
  const [segment, ...rest] = segments(speak(`<say-as ${attributes}>${content}</say-as>`), language);
  assert.equal(rest.length, 0);
  assert.equal(segment?.kind, 'words');
  return segment?.kind === 'words' ? segment.text : '';
}

describe('parseSsml: text, speak, p and s', () => {
  it('reads the text of a speak root, whitespace collapsed', () => {
    assert.deepEqual(parsed('<speak>\n  Hello \n\t world.  </speak>'), {
      segments: [{ kind: 'text', text: 'Hello world.', rate: 1 }],
      spokenCharacters: 12,
    });
  });

  it('takes an XML declaration, version, namespaces and a matching xml:lang', () => {
    const ssml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:lang="en-US">Hi</speak>';
    assert.deepEqual(segments(ssml), [{ kind: 'text', text: 'Hi', rate: 1 }]);
    assert.equal(segments('<speak xml:lang="RW-rw">Muraho</speak>', 'rw').length, 1);
    assert.equal(segments(speak('<p xml:lang="fr-CA"><s xml:lang="FR">Bonjour</s></p>'), 'fr').length, 1);
  });

  it('refuses an xml:lang that is not the request language, on speak, p or s', () => {
    refusedAt('<speak xml:lang="fr">Bonjour</speak>', 'speak', 1, 1);
    refusedAt(speak('<p xml:lang="rw">Muraho</p>'), 'p', 1, 8);
    refusedAt(speak('Hi <s xml:lang="sw">Jambo</s>'), 's', 1, 11);
  });

  it('ends each sentence for the clause splitter', () => {
    const texts = segments(speak('<s>One</s><s>Really?</s> <s>Three</s>')).map((s) =>
      s.kind === 'text' ? s.text : '',
    );
    assert.equal(texts.join(' '), 'One. Really? Three.');
  });

  it('ends a sentence left on a comma with a full stop alone', () => {
    const texts = segments(speak('<s>Three,</s>')).map((s) => (s.kind === 'text' ? s.text : ''));
    assert.deepEqual(texts, ['Three.']);
  });

  it('ends the text before a sentence that starts', () => {
    assert.deepEqual(segments(speak('Intro <s>Body</s>')), [
      { kind: 'text', text: 'Intro.', rate: 1 },
      { kind: 'text', text: 'Body.', rate: 1 },
    ]);
  });

  it('puts a strong break between paragraphs, not before the first or after the last', () => {
    assert.deepEqual(segments(speak('<p>One</p>\n<p>Two</p><p></p>')), [
      { kind: 'text', text: 'One.', rate: 1 },
      { kind: 'break', ms: 700 },
      { kind: 'text', text: 'Two.', rate: 1 },
    ]);
  });

  it('does not count paragraph pauses in the request’s 10 s of breaks', () => {
    const body = Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i}</p>`).join('');
    assert.equal(segments(speak(body)).filter((s) => s.kind === 'break').length, 19);
  });
});

describe('parseSsml: lang', () => {
  const rw = (text: string) => markWords(text, 'rw');

  it('marks the words of its text as its language, inside the sentence around it', () => {
    assert.deepEqual(segments(speak('Welcome to <lang xml:lang="rw">Nyamirambo</lang>, please.')), [
      { kind: 'text', text: `Welcome to ${rw('Nyamirambo')}, please.`, rate: 1 },
    ]);
    assert.deepEqual(segments(speak('Ejo dufite <lang xml:lang="en">team meeting</lang>.'), 'rw'), [
      { kind: 'text', text: `Ejo dufite ${markWords('team meeting', 'en')}.`, rate: 1 },
    ]);
  });

  it('takes any of the three languages, or a tag of one, in any case, in every request', () => {
    for (const language of ['rw', 'en', 'fr'] as const) {
      for (const [tag, named] of [
        ['rw-RW', 'rw'],
        ['EN-us', 'en'],
        ['fr-FR', 'fr'],
        ['en', 'en'],
      ] as const) {
        assert.deepEqual(segments(speak(`<lang xml:lang="${tag}">Musanze</lang>`), language), [
          { kind: 'text', text: markWords('Musanze', named), rate: 1 },
        ]);
      }
    }
  });

  it('marks the request’s own language too, so a word the detector would take as foreign is said natively', () => {
    assert.deepEqual(segments(speak('Ni <lang xml:lang="rw">bite</lang>?'), 'rw'), [
      { kind: 'text', text: `Ni ${rw('bite')}?`, rate: 1 },
    ]);
  });

  it('keeps prosody, sub, break and phoneme working inside, marking the text they speak', () => {
    assert.deepEqual(
      segments(
        speak(
          '<lang xml:lang="rw">Go to <prosody rate="slow">Kacyiru</prosody> or ' +
            '<sub alias="Nyabugogo">NBG</sub><break time="300ms"/>' +
            '<phoneme alphabet="ipa" ph="nanza">Nyanza</phoneme></lang> today.',
        ),
      ),
      [
        { kind: 'text', text: rw('Go to'), rate: 1 },
        { kind: 'text', text: rw('Kacyiru'), rate: 0.75 },
        { kind: 'text', text: `${rw('or')} ${rw('Nyabugogo')}`, rate: 1 },
        { kind: 'break', ms: 300 },
        { kind: 'phonemes', ipa: 'nanza', rate: 1 },
        { kind: 'text', text: 'today.', rate: 1 },
      ],
    );
  });

  it('reads say-as inside in the request’s language, unmarked, as the contract reads say-as', () => {
    assert.deepEqual(
      segments(speak('<lang xml:lang="rw">Room <say-as interpret-as="cardinal">12</say-as></lang>')),
      [
        { kind: 'text', text: rw('Room'), rate: 1 },
        { kind: 'words', text: 'twelve', rate: 1 },
      ],
    );
  });

  it('says the innermost lang’s language, and the outer one’s again after it', () => {
    assert.deepEqual(
      segments(speak('<lang xml:lang="fr">rendez-vous <lang xml:lang="rw">Kigali</lang> demain</lang>')),
      [
        {
          kind: 'text',
          text: `${markWords('rendez-vous', 'fr')} ${rw('Kigali')} ${markWords('demain', 'fr')}`,
          rate: 1,
        },
      ],
    );
  });

  it('bills the text as written: marks are not characters of it', () => {
    const text = 'Uwimana at Kacyiru';
    assert.equal(parsed(speak(`<lang xml:lang="rw">${text}</lang>`)).spokenCharacters, text.length);
  });

  it('refuses a missing or unknown xml:lang, or another attribute, naming the element and where it starts', () => {
    const missing = refusedAt(speak('Hi <lang>Muraho</lang>'), 'lang', 1, 11);
    assert.match(missing.message, /needs xml:lang: rw, en, fr/);
    const unknown = refusedAt(speak('Hi\n  <lang xml:lang="de-DE">Hallo</lang>'), 'lang', 2, 3);
    assert.match(unknown.message, /"de-DE".*rw, en, fr/);
    refusedAt(speak('<lang xml:lang="english">Hello</lang>'), 'lang', 1, 8);
    refusedAt(speak('<lang xml:lang="">Hello</lang>'), 'lang', 1, 8);
    refusedAt(speak('<lang xml:lang="en" voice="x">Hello</lang>'), 'lang', 1, 8);
  });

  it('still holds p and s inside it to the request’s language', () => {
    refusedAt(speak('<lang xml:lang="fr"><s xml:lang="fr">Bonjour</s></lang>'), 's', 1, 28);
    assert.deepEqual(segments(speak('<lang xml:lang="fr"><s>Bonjour</s></lang>')), [
      { kind: 'text', text: `${markWords('Bonjour', 'fr')}.`, rate: 1 },
    ]);
  });
});

describe('parseSsml: break', () => {
  const pause = (attributes: string) => segments(speak(`a<break ${attributes}/>b`))[1];

  it('pauses for a time in ms or s, integers or decimals', () => {
    assert.deepEqual(pause('time="500ms"'), { kind: 'break', ms: 500 });
    assert.deepEqual(pause('time="1.5s"'), { kind: 'break', ms: 1500 });
    assert.deepEqual(pause('time="5s"'), { kind: 'break', ms: 5000 });
    assert.deepEqual(pause('time="250ms"'), { kind: 'break', ms: 250 });
  });

  it('pauses for each strength, medium when no attribute is given', () => {
    const strengths: [string, number][] = [
      ['x-weak', 100],
      ['weak', 200],
      ['medium', 400],
      ['strong', 700],
      ['x-strong', 1000],
    ];
    for (const [strength, ms] of strengths)
      assert.deepEqual(pause(`strength="${strength}"`), { kind: 'break', ms });
    assert.deepEqual(pause(''), { kind: 'break', ms: 400 });
    // No pause at all: the text runs on as written.
    assert.deepEqual(segments(speak('a <break strength="none"/>b')), [
      { kind: 'text', text: 'a b', rate: 1 },
    ]);
  });

  it('splits the text around it and keeps the rest of the sentence together', () => {
    assert.deepEqual(segments(speak('Wait <break time="500ms"/> for it.')), [
      { kind: 'text', text: 'Wait', rate: 1 },
      { kind: 'break', ms: 500 },
      { kind: 'text', text: 'for it.', rate: 1 },
    ]);
  });

  it('refuses a break over 5 s, a bad time or strength, an unknown attribute', () => {
    refusedAt(speak('a<break time="5001ms"/>'), 'break', 1, 9);
    refusedAt(speak('a\n  <break time="6s"/>'), 'break', 2, 3);
    refusedAt(speak('<break time="2 seconds"/>'), 'break', 1, 8);
    refusedAt(speak('<break time="-1s"/>'), 'break', 1, 8);
    refusedAt(speak('<break strength="huge"/>'), 'break', 1, 8);
    refusedAt(speak('<break size="1"/>'), 'break', 1, 8);
  });

  it('refuses breaks that add up to over 10 s in a request, at the break that passes it', () => {
    const body = 'a<break time="4s"/>b<break time="4s"/>c<break time="2s"/>d<break time="1ms"/>';
    refusedAt(speak(body), 'break', 1, 66);
    assert.equal(segments(speak('a<break time="5s"/>b<break time="5s"/>c')).length, 5);
  });

  it('refuses text in a break', () => {
    refusedAt(speak('<break>now</break>'), 'break', 1, 8);
  });

  it('refuses an element in a break', () => {
    refusedAt(speak('<break><s>x</s></break>'), 's', 1, 15);
  });
});

describe('parseSsml: say-as', () => {
  it('spells characters and spell-out: letters by name, digits as numbers, symbols dropped', () => {
    assert.equal(sayAs('interpret-as="characters"', 'BK-1'), 'bee kay one');
    assert.equal(sayAs('interpret-as="spell-out"', 'é z'), 'ee zed');
    // Letters of other scripts are skipped, as in plain text: never read out by their names.
    assert.equal(sayAs('interpret-as="characters"', 'ሀWစ'), 'double you');
    assert.equal(sayAs('interpret-as="characters"', 'MTN', 'fr'), 'emme té enne');
    for (const v of VERBALIZERS) {
      const expected = [v.letter('A'), v.letter('B'), v.cardinal(7)].join(' ');
      assert.equal(sayAs('interpret-as="characters"', 'ab7', v.language), expected);
    }
  });

  it('reads digits one by one', () => {
    assert.equal(sayAs('interpret-as="digits"', '2026'), 'two zero two six');
    for (const v of VERBALIZERS) {
      assert.equal(sayAs('interpret-as="digits"', '0 7', v.language), `${v.cardinal(0)} ${v.cardinal(7)}`);
    }
  });

  it('reads cardinal and number with the language’s decimal separator', () => {
    assert.equal(sayAs('interpret-as="cardinal"', '1,500'), 'one thousand five hundred');
    assert.equal(sayAs('interpret-as="number"', '3.5'), 'three point five');
    assert.equal(sayAs('interpret-as="cardinal"', '-12'), 'minus twelve');
    assert.equal(sayAs('interpret-as="cardinal"', '3,5', 'fr'), frenchVerbalizer.decimal(3, '5'));
    assert.equal(sayAs('interpret-as="number"', '2 500', 'fr'), frenchVerbalizer.cardinal(2500));
    assert.equal(sayAs('interpret-as="cardinal"', '21', 'rw'), kinyarwandaVerbalizer.cardinal(21));
  });

  it('reads ordinals however each language writes them', () => {
    assert.equal(sayAs('interpret-as="ordinal"', '3rd'), 'third');
    assert.equal(sayAs('interpret-as="ordinal"', '21'), 'twenty-first');
    assert.equal(sayAs('interpret-as="ordinal"', '3e', 'fr'), 'troisième');
    assert.equal(sayAs('interpret-as="ordinal"', '1er', 'fr'), frenchVerbalizer.ordinal(1));
    assert.equal(sayAs('interpret-as="ordinal"', '3.', 'rw'), kinyarwandaVerbalizer.ordinal(3));
  });

  it('reads +250 788 123 456 group by group in every language', () => {
    assert.equal(
      sayAs('interpret-as="telephone"', '+250 788 123 456'),
      'plus two five zero, seven eight eight, one two three, four five six',
    );
    for (const v of VERBALIZERS) {
      assert.equal(
        sayAs('interpret-as="telephone"', '+250 788 123 456', v.language),
        v.phone(['+250', '788', '123', '456']),
      );
      assert.equal(
        sayAs('interpret-as="telephone"', '(0788) 123-456', v.language),
        v.phone(['0788', '123', '456']),
      );
    }
  });

  it('reads dates in each format, with or without a year where the format allows', () => {
    for (const v of VERBALIZERS) {
      const christmas = v.date(25, 12, 2026);
      assert.equal(sayAs('interpret-as="date"', '25/12/2026', v.language), christmas);
      assert.equal(sayAs('interpret-as="date" format="dmy"', '25-12-2026', v.language), christmas);
      assert.equal(sayAs('interpret-as="date" format="mdy"', '12.25.2026', v.language), christmas);
      assert.equal(sayAs('interpret-as="date" format="ymd"', '2026-12-25', v.language), christmas);
      assert.equal(sayAs('interpret-as="date"', '25/12', v.language), v.date(25, 12, undefined));
    }
    assert.equal(sayAs('interpret-as="date"', '29/02/2024'), englishVerbalizer.date(29, 2, 2024));
  });

  it('reads clock times on the 24-hour clock, with am/pm, or with h', () => {
    for (const v of VERBALIZERS) {
      assert.equal(sayAs('interpret-as="time"', '14:30', v.language), v.time(14, 30));
      assert.equal(sayAs('interpret-as="time"', '2:30 pm', v.language), v.time(14, 30));
      assert.equal(sayAs('interpret-as="time"', '9h30', v.language), v.time(9, 30));
    }
    assert.equal(sayAs('interpret-as="time"', '12 a.m.'), englishVerbalizer.time(0, 0));
    assert.equal(sayAs('interpret-as="time"', '14h'), englishVerbalizer.time(14, 0));
  });

  it('reads amounts of Rwandan francs, dollars and euros', () => {
    for (const v of VERBALIZERS) {
      assert.equal(sayAs('interpret-as="currency"', '1500 RWF', v.language), v.money(1500, '', 'RWF'));
      assert.equal(sayAs('interpret-as="currency"', 'RWF 1500', v.language), v.money(1500, '', 'RWF'));
      assert.equal(sayAs('interpret-as="currency"', '$5.20', v.language), v.money(5, '20', 'USD'));
      assert.equal(sayAs('interpret-as="currency"', '5 €', v.language), v.money(5, '', 'EUR'));
      assert.equal(sayAs('interpret-as="currency"', 'USD 3', v.language), v.money(3, '', 'USD'));
      assert.equal(sayAs('interpret-as="currency"', 'Frw 5.000', v.language), v.money(5000, '', 'RWF'));
    }
    assert.equal(sayAs('interpret-as="currency"', '$5.20'), 'five dollars and twenty cents');
  });

  it('gives words that are not normalised again, and bills the content as written', () => {
    const document = parsed(speak('Call <say-as interpret-as="telephone">+250 788 123 456</say-as> now.'));
    assert.deepEqual(
      document.segments.map((s) => s.kind),
      ['text', 'words', 'text'],
    );
    assert.equal(document.spokenCharacters, 'Call'.length + '+250 788 123 456'.length + 'now.'.length);
  });

  it('refuses content that cannot be read that way, naming the element', () => {
    const cases: [string, string][] = [
      ['interpret-as="date"', '31/04/2026'],
      ['interpret-as="date"', '29/02/2025'],
      ['interpret-as="date"', '25/12/26'],
      ['interpret-as="date" format="ymd"', '12-25'],
      ['interpret-as="date" format="mdy"', '25/12/2026'],
      ['interpret-as="time"', '25:00'],
      ['interpret-as="time"', '13 pm'],
      ['interpret-as="time"', '14'],
      ['interpret-as="cardinal"', 'twelve'],
      ['interpret-as="cardinal"', '1000000000000'],
      ['interpret-as="ordinal"', '0'],
      ['interpret-as="ordinal"', 'third'],
      ['interpret-as="digits"', '12a'],
      ['interpret-as="telephone"', '788+123'],
      ['interpret-as="telephone"', 'call me'],
      ['interpret-as="currency"', '5 JPY'],
      ['interpret-as="currency"', 'RWF'],
      ['interpret-as="characters"', '!?'],
      ['interpret-as="cardinal"', ''],
    ];
    for (const [attributes, content] of cases) {
      refusedAt(speak(`<say-as ${attributes}>${content}</say-as>`), 'say-as', 1, 8);
    }
  });

  it('refuses a missing or unknown interpret-as, a format off dates, an unknown format, an element inside', () => {
    refusedAt(speak('<say-as>12</say-as>'), 'say-as', 1, 8);
    refusedAt(speak('<say-as interpret-as="verbatim">12</say-as>'), 'say-as', 1, 8);
    refusedAt(speak('<say-as interpret-as="cardinal" format="dmy">12</say-as>'), 'say-as', 1, 8);
    refusedAt(speak('<say-as interpret-as="date" format="ym">2026-12</say-as>'), 'say-as', 1, 8);
    refusedAt(speak('<say-as interpret-as="date" detail="1">1/1/2026</say-as>'), 'say-as', 1, 8);
    refusedAt(speak('<say-as interpret-as="digits">1<break/>2</say-as>'), 'break', 1, 39);
  });
});

describe('parseSsml: sub', () => {
  it('speaks a company name’s alias as text, normalised with the text around it', () => {
    const document = parsed(speak('Welcome to <sub alias="Bank of Kigali">BK</sub>, since 1966.'));
    assert.equal(document.segments.length, 1);
    const [segment] = document.segments;
    assert.equal(segment?.kind, 'text', 'text, so numbers in an alias are read too');
    // The alias is kept apart from the words around it; a space before the comma changes nothing spoken.
    assert.equal(
      segment?.kind === 'text' && segment.text.replace(' ,', ','),
      'Welcome to Bank of Kigali, since 1966.',
    );
    // Each piece is counted trimmed at the element's edges: the space before the alias is not billed.
    assert.equal(
      document.spokenCharacters,
      'Welcome to'.length + 'Bank of Kigali'.length + ', since 1966.'.length,
    );
  });

  it('bills the alias, not the content', () => {
    assert.equal(parsed(speak('<sub alias="World Health Organization">WHO</sub>')).spokenCharacters, 25);
  });

  it('refuses a missing alias, an element inside', () => {
    refusedAt(speak('<sub>BK</sub>'), 'sub', 1, 8);
    refusedAt(speak('<sub alias="x"><s>BK</s></sub>'), 's', 1, 23);
  });
});

describe('parseSsml: prosody', () => {
  const rate = (value: string) => {
    const [segment] = segments(speak(`<prosody rate="${value}">Hello</prosody>`));
    return segment?.kind === 'text' ? segment.rate : undefined;
  };

  it('sets the rate by keyword or percentage', () => {
    const keywords: [string, number][] = [
      ['x-slow', 0.5],
      ['slow', 0.75],
      ['medium', 1],
      ['default', 1],
      ['fast', 1.25],
      ['x-fast', 1.5],
      ['50%', 0.5],
      ['87.5%', 0.875],
      ['200%', 2],
    ];
    for (const [value, expected] of keywords) assert.equal(rate(value), expected, value);
  });

  it('applies the innermost rate, and merges text of the same rate', () => {
    assert.deepEqual(
      segments(speak('<prosody rate="slow">a <prosody rate="fast">b</prosody> c</prosody> d')),
      [
        { kind: 'text', text: 'a', rate: 0.75 },
        { kind: 'text', text: 'b', rate: 1.25 },
        { kind: 'text', text: 'c', rate: 0.75 },
        { kind: 'text', text: 'd', rate: 1 },
      ],
    );
    assert.deepEqual(segments(speak('One, <prosody rate="medium">two</prosody>, three.')), [
      { kind: 'text', text: 'One, two, three.', rate: 1 },
    ]);
  });

  it('refuses a rate out of range or unknown, and other prosody attributes', () => {
    for (const value of ['49%', '201%', '0%', '+10%', 'very-fast', '1.5']) {
      refusedAt(speak(`<prosody rate="${value}">a</prosody>`), 'prosody', 1, 8);
    }
    refusedAt(speak('<prosody pitch="high">a</prosody>'), 'prosody', 1, 8);
    refusedAt(speak('<prosody volume="loud">a</prosody>'), 'prosody', 1, 8);
  });
});

describe('parseSsml: phoneme', () => {
  it('gives the IPA as a phonemes segment in each language', () => {
    const cases: [LanguageCode, string][] = [
      ['en', 'təˈmɑːtoʊ'],
      ['fr', 'bɔ̃ʒuʁ'],
      ['rw', 'muɾaho'],
    ];
    for (const [language, ipa] of cases) {
      assert.deepEqual(segments(speak(`<phoneme alphabet="ipa" ph="${ipa}">word</phoneme>`), language), [
        { kind: 'phonemes', ipa, rate: 1 },
      ]);
    }
  });

  it('bills the content as written, or the IPA when there is none', () => {
    assert.equal(
      parsed(speak('<phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme>')).spokenCharacters,
      6,
    );
    assert.equal(parsed(speak('<phoneme alphabet="ipa" ph="təˈmɑːtoʊ"/>')).spokenCharacters, 9);
  });

  it('refuses an IPA symbol the language’s voice cannot say, naming it', () => {
    const cases: [LanguageCode, string, string][] = [
      ['en', 'ʕa', 'ʕ'],
      ['fr', 'θe', 'θ'],
      ['rw', 'ɛ', 'ɛ'],
    ];
    for (const [language, ph, symbol] of cases) {
      const error = refusedAt(
        speak(`<phoneme alphabet="ipa" ph="${ph}">x</phoneme>`),
        'phoneme',
        1,
        8,
        language,
      );
      assert.ok(error.message.includes(symbol), error.message);
    }
  });

  it('refuses another alphabet, a missing alphabet or ph, an element inside', () => {
    refusedAt(speak('<phoneme alphabet="x-sampa" ph="t@">x</phoneme>'), 'phoneme', 1, 8);
    refusedAt(speak('<phoneme ph="tə">x</phoneme>'), 'phoneme', 1, 8);
    refusedAt(speak('<phoneme alphabet="ipa">x</phoneme>'), 'phoneme', 1, 8);
    refusedAt(speak('<phoneme alphabet="ipa" ph="tə"><sub alias="a">x</sub></phoneme>'), 'sub', 1, 40);
  });

  it('takes a phoneme of 300 characters of IPA, and refuses a longer one', () => {
    const ipa = (n: number) => 'tə '.repeat(n).slice(0, n);
    assert.equal(segments(speak(`<phoneme alphabet="ipa" ph="${ipa(300)}">x</phoneme>`)).length, 1);
    const error = refusedAt(speak(`<phoneme alphabet="ipa" ph="${ipa(301)}">x</phoneme>`), 'phoneme', 1, 8);
    assert.match(error.message, /300/);
  });
});

describe('parseSsml: errors', () => {
  it('reports malformed XML with the parser’s line, and no element', () => {
    for (const ssml of [
      '<speak>a</spek>',
      '<speak>a',
      '<speak><break time=1s/></speak>',
      '<speak>&nbsp;</speak>',
      '',
    ]) {
      const error = refused(ssml);
      assert.equal(error.element, null, ssml);
      assert.equal(error.line, 1, ssml);
      assert.ok(error.column >= 1, ssml);
    }
    assert.equal(refused('<speak>\n\n  <s>a</p></speak>').line, 3);
  });

  it('refuses a DOCTYPE outright, so no entity is ever defined', () => {
    const error = refused('<!DOCTYPE speak [<!ENTITY x "boom">]><speak>&x;</speak>');
    assert.equal(error.element, null);
    assert.match(error.message, /DOCTYPE/);
  });

  it('refuses processing instructions and CDATA', () => {
    assert.equal(refused(speak('<?engine pitch=9?>a')).element, null);
    assert.equal(refused(speak('<![CDATA[<break/>]]>')).element, null);
  });

  it('reads the five predefined entities and character references as text', () => {
    assert.deepEqual(segments(speak('&lt;b&gt; &amp; &quot;&apos; &#65;&#x42;')), [
      { kind: 'text', text: '<b> & "\' AB', rate: 1 },
    ]);
  });

  it('refuses an unknown element, with its name and where it starts', () => {
    refusedAt('<speak>\n  Hi <voice name="x">a</voice></speak>', 'voice', 2, 6);
    refusedAt(speak('<amazon:effect>a</amazon:effect>'), 'amazon:effect', 1, 8);
    refusedAt(speak('<Break/>'), 'Break', 1, 8);
  });

  it('refuses an unknown attribute', () => {
    refusedAt('<speak foo="1">a</speak>', 'speak', 1, 1);
    refusedAt(speak('<p style="x">a</p>'), 'p', 1, 8);
    refusedAt(speak('<sub alias="a" lang="en">b</sub>'), 'sub', 1, 8);
  });

  it('refuses a root other than speak, and speak inside speak', () => {
    refusedAt('<p>Hello</p>', 'p', 1, 1);
    refusedAt(speak('<speak>a</speak>'), 'speak', 1, 8);
    assert.equal(refused('Hello').element, null);
  });

  it('refuses nesting deeper than 32 elements', () => {
    const nest = (depth: number) =>
      speak(`${'<prosody>'.repeat(depth - 1)}a${'</prosody>'.repeat(depth - 1)}`);
    assert.equal(segments(nest(32)).length, 1);
    refusedAt(nest(33), 'prosody', 1, 7 + 9 * 31 + 1);
  });

  it('places an element whose name ends its line where its "<" is', () => {
    refusedAt('<speak\n  xml:lang="fr">x</speak>', 'speak', 1, 1);
  });

  it('refuses a paragraph inside a sentence', () => {
    refusedAt(speak('<s><p>x</p></s>'), 'p', 1, 11);
  });

  it('refuses control characters written as character references', () => {
    assert.equal(refused(speak('a&#x7F;b')).line, 1);
  });
});

describe('parseSsml: a voice that reads text only', () => {
  it('refuses phoneme at the element, and takes everything else', () => {
    const error = refused(speak('Hello <phoneme alphabet="ipa" ph="həˈloʊ">hello</phoneme>'), 'en', false);
    assert.equal(error.element, 'phoneme');
    assert.equal(error.column, 14);
    assert.match(error.message, /text only/);
    const result = parseSsml(speak('Hello <sub alias="world">w</sub><break time="1s"/>'), { language: 'en' });
    assert.ok(result.ok);
  });
});
