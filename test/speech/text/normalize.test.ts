import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type NormalizationFailure,
  NormalizationPassError,
  reportNormalizationFailures,
} from '../../../src/speech/text/normalization-failures.ts';
import {
  createNormalizer,
  parseNumericDate,
  parseWrittenNumber,
  readsAsWord,
} from '../../../src/speech/text/normalize.ts';
import type { Verbalizer } from '../../../src/speech/text/verbalizer.ts';

// A verbalizer that writes what it was asked in braces, so these tests see what the shared
// detection found and passed on, independent of any language's words. Its digits are written
// as superscripts, which no pass reads again, and turned back into digits by `read`.
const SUPERSCRIPTS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const sup = (text: string) => text.replace(/\d/g, (d) => SUPERSCRIPTS.charAt(Number(d)));
const sign = (n: number) => (n < 0 || Object.is(n, -0) ? '-' : '');
function stub(decimalSeparator: '.' | ',', overrides: Partial<Verbalizer> = {}): Verbalizer {
  return {
    language: 'en',
    decimalSeparator,
    cardinal: (n) => sup(`{n ${n}}`),
    minus: '{minus}',
    decimal: (i, f) => sup(`{d ${sign(i)}${Math.abs(i)}.${f}}`),
    percent: (i, f) => sup(`{pct ${sign(i)}${Math.abs(i)}.${f}}`),
    money: (i, f, c) => sup(`{money ${i}.${f} ${c.toLowerCase()}}`),
    phone: (groups) => sup(`{phone ${groups.join('|')}}`),
    time: (h, m) => sup(`{time ${h}:${m}}`),
    date: (d, m, y) => sup(`{date ${d}/${m}/${y}}`),
    ordinal: (n) => sup(`{ord ${n}}`),
    letter: (l) => l.toLowerCase(),
    symbols: { star: '{star}', hash: '{hash}', times: '{times}' },
    abbreviations: { 'Dr.': 'doctor', km: 'kilometres', 'n°': 'number', ONU: 'onu' },
    rules: [],
    ...overrides,
  };
}
const read = (normalize: (text: string) => string) => (text: string) =>
  normalize(text).replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹]/g, (d) => String(SUPERSCRIPTS.indexOf(d)));
const dot = read(createNormalizer(stub('.')));
const comma = read(createNormalizer(stub(',')));

describe('createNormalizer: money', () => {
  // Currency spellings used in Rwanda (Frw, RWF on National Bank of Rwanda notes and price
  // tags) and ISO 4217 codes; ISO 4217 gives RWF no minor unit, so `5.000` is five thousand.
  const cases: [string, string][] = [
    ['5,000 Frw', '{money 5000. rwf}'],
    ['Frw 5.000', '{money 5000. rwf}'],
    ['RWF 12,500', '{money 12500. rwf}'],
    ['FRW 2 500', '{money 2500. rwf}'],
    ['300frw', '{money 300. rwf}'],
    ['$12.50', '{money 12.50 usd}'],
    ['12.50 USD', '{money 12.50 usd}'],
    ['€7', '{money 7. eur}'],
    ['1.250,99 EUR', '{money 1250.99 eur}'],
    // A negative amount (a refund, a debt) says its sign first, whichever side the currency is.
    ['-$20', '{minus} {money 20. usd}'],
    ['a refund of -20 USD', 'a refund of {minus} {money 20. usd}'],
    ['balance -5,000 Frw', 'balance {minus} {money 5000. rwf}'],
    // A hyphen after a word is no sign.
    ['COVID-$5', 'COVID-{money 5. usd}'],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text}`, () => assert.equal(dot(text), expected));
  }
  it('takes the amount before the currency also in a comma-decimal language', () => {
    assert.equal(comma('12,50 €'), '{money 12.50 eur}');
    assert.equal(comma('5.000 Frw'), '{money 5000. rwf}');
  });
});

describe('createNormalizer: Rwandan phone numbers', () => {
  // Rwanda numbering plan (RURA): country code 250 (ITU-T E.164), nine-digit national numbers,
  // mobile 072/073/078/079 and fixed 025x, a trunk 0 in front when dialled nationally.
  const cases: [string, string][] = [
    ['0788 123 456', '{phone 0788|123|456}'],
    ['0788123456', '{phone 0788|123|456}'],
    ['078-812-3456', '{phone 0788|123|456}'],
    ['0722 000 111', '{phone 0722|000|111}'],
    ['0738123456', '{phone 0738|123|456}'],
    ['0791 234 567', '{phone 0791|234|567}'],
    ['0252 123 456', '{phone 0252|123|456}'],
    ['+250 788 123 456', '{phone +250|788|123|456}'],
    ['+250788123456', '{phone +250|788|123|456}'],
    ['00250788123456', '{phone +250|788|123|456}'],
  ];
  for (const [text, expected] of cases) {
    it(`groups ${text}`, () => assert.equal(dot(text), expected));
  }
  it('leaves numbers that are not Rwandan phone numbers to the number pass', () => {
    assert.equal(dot('0768123456'), '{n 0} {n 7} {n 6} {n 8} {n 1} {n 2} {n 3} {n 4} {n 5} {n 6}');
    assert.doesNotMatch(dot('07881234567'), /phone/);
  });
});

describe('createNormalizer: clock times', () => {
  // 24-hour clock as written in Rwanda; French typography writes 14 h 30 or 14h30 (OQLF,
  // Banque de dépannage linguistique, "Heure"); a.m./p.m. converted to the 24-hour clock.
  const cases: [string, string][] = [
    ['14:30', '{time 14:30}'],
    ['9:05', '{time 9:5}'],
    ['9h30', '{time 9:30}'],
    ['14h', '{time 14:0}'],
    ['14 h 30', '{time 14:30}'],
    ['9:05 pm', '{time 21:5}'],
    // Its last dot ends the text, so it is kept as the full stop.
    ['12:15 a.m.', '{time 0:15}.'],
    ['12:15 a.m. today', '{time 0:15} today'],
    ['10am', '{time 10:0}'],
    ['7 PM', '{time 19:0}'],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text}`, () => assert.equal(dot(text), expected));
  }
  it('does not take impossible times or ratios with seconds', () => {
    assert.doesNotMatch(dot('25:00'), /time/);
    assert.doesNotMatch(dot('9:05:30'), /time/);
    assert.doesNotMatch(dot('14:30 pm'), /time 26/);
  });
});

describe('createNormalizer: numeric dates', () => {
  // Rwanda writes dates day first (Wikipedia, "Date format by country"); ISO 8601 year first.
  const cases: [string, string][] = [
    ['12/05/2026', '{date 12/5/2026}'],
    ['12-05-2026', '{date 12/5/2026}'],
    ['12.05.2026', '{date 12/5/2026}'],
    ['2026-05-12', '{date 12/5/2026}'],
    ['29/02/2024', '{date 29/2/2024}'],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text}`, () => assert.equal(dot(text), expected));
  }
  it('rejects impossible dates', () => {
    assert.equal(parseNumericDate('31/04/2026'), undefined);
    assert.equal(parseNumericDate('29/02/2026'), undefined);
    assert.equal(parseNumericDate('12/13/2026'), undefined);
    assert.doesNotMatch(dot('31/04/2026'), /date/);
  });
});

describe('createNormalizer: percentages, decimals and grouped numbers', () => {
  // Digit grouping: SI Brochure (BIPM) 5.4.4 groups by three with a thin space; English
  // groups with a comma and French with a space or a dot, the decimal mark being the other.
  it('reads percentages', () => {
    assert.equal(dot('15%'), '{pct 15.}');
    assert.equal(dot('12.5%'), '{pct 12.5}');
    assert.equal(comma('12,5 %'), '{pct 12.5}');
    assert.equal(dot('-3%'), '{pct -3.}');
  });
  it('reads thousands separators in both conventions', () => {
    for (const text of [
      '1,000,000',
      '1 000 000',
      '1\u202F000\u202F000',
      '1\u00A0000\u00A0000',
      '1.000.000',
    ]) {
      assert.equal(dot(text), '{n 1000000}', text);
      assert.equal(comma(text), '{n 1000000}', text);
    }
  });
  it('reads a lone separator by the language', () => {
    assert.equal(dot('1,000'), '{n 1000}');
    assert.equal(dot('1.000'), '{d 1.000}');
    assert.equal(comma('1,000'), '{d 1.000}');
    assert.equal(comma('1.000'), '{n 1000}');
    assert.equal(dot('3.14'), '{d 3.14}');
    assert.equal(comma('3,05'), '{d 3.05}');
    assert.equal(dot('1,234.56'), '{d 1234.56}');
    assert.equal(comma('1.234,56'), '{d 1234.56}');
  });
  it('reads signs only where they cannot be a hyphen', () => {
    assert.equal(dot('-42'), '{n -42}');
    assert.equal(dot('(−7)'), '({n -7})');
    assert.equal(dot('-0.5'), '{d -0.5}');
    assert.equal(dot('COVID-19'), 'COVID-{n 19}');
  });
  it('reads codes with a leading zero digit by digit and leaves dotted versions alone', () => {
    assert.equal(dot('007'), '{n 0} {n 0} {n 7}');
    assert.equal(dot('v1.2.3'), 'v1.2.3');
  });
  it('parses written numbers', () => {
    assert.deepEqual(parseWrittenNumber('12,5', ','), { integer: 12, fractionDigits: '5' });
    assert.deepEqual(parseWrittenNumber('5.000', '.', true), { integer: 5000, fractionDigits: '' });
    assert.equal(parseWrittenNumber('abc', '.'), undefined);
  });
  it('groups a lone mark before three digits, whichever it is, for a language that asks it', () => {
    assert.deepEqual(parseWrittenNumber('1,500', '.', true), { integer: 1500, fractionDigits: '' });
    assert.deepEqual(parseWrittenNumber('1.500', '.', true), { integer: 1500, fractionDigits: '' });
    assert.deepEqual(parseWrittenNumber('2,5', '.', true), { integer: 2, fractionDigits: '5' });
    assert.deepEqual(parseWrittenNumber('1,5000', '.', true), { integer: 1, fractionDigits: '5000' });
  });
  it('never groups a number whose first group is 0', () => {
    assert.deepEqual(parseWrittenNumber('0,125', '.', true), { integer: 0, fractionDigits: '125' });
    assert.deepEqual(parseWrittenNumber('0,500', '.'), { integer: 0, fractionDigits: '500' });
  });
});

describe('createNormalizer: acronyms and abbreviations', () => {
  it('spells acronyms of two to six capitals letter by letter', () => {
    assert.equal(dot('The BBC and MTN.'), 'The b b c and m t n.');
    assert.equal(dot('UNHCR'), 'u n h c r');
  });
  it('leaves acronyms read as words, Roman numerals, listed words and shouting alone', () => {
    // Said as words: NASA, UNESCO, COVID, RURA (Rwanda Utilities Regulatory Authority).
    for (const word of ['NASA', 'UNESCO', 'COVID', 'RURA']) assert.ok(readsAsWord(word), word);
    for (const letters of ['BBC', 'UNHCR', 'FDLR', 'RSSB']) assert.ok(!readsAsWord(letters), letters);
    assert.equal(dot('NASA'), 'NASA');
    assert.equal(dot('John Paul II'), 'John Paul II');
    assert.equal(dot('ONU'), 'onu');
    assert.equal(dot('CALL NOW TO BOOK'), 'CALL NOW TO BOOK');
    assert.equal(dot('MINECOFIN'), 'MINECOFIN');
  });
  it('replaces abbreviations as whole, case-sensitive tokens', () => {
    assert.equal(dot('Dr. Mugabo'), 'doctor Mugabo');
    assert.equal(dot('dr. Mugabo'), 'dr. Mugabo');
    assert.equal(dot('5km'), '{n 5} kilometres');
    assert.equal(dot('kms'), 'kms');
    assert.equal(dot('n° 5'), 'number {n 5}');
  });
  it('keeps the dot of an abbreviation that ends the text', () => {
    assert.equal(dot('I saw the Dr.'), 'I saw the doctor.');
  });
});

describe('createNormalizer: order, punctuation and whitespace', () => {
  it('tries language rules first', () => {
    const withRule = read(
      createNormalizer(
        stub('.', {
          rules: [{ name: 'ordinal', pattern: /(\d+)th/g, replace: (m) => sup(`{ord ${m[1]}}`) }],
        }),
      ),
    );
    assert.equal(withRule('the 5th of 7'), 'the {ord 5} of {n 7}');
  });
  it('reads money and phone numbers whole rather than as separate numbers', () => {
    assert.equal(
      dot('Pay 5,000 Frw to 0788 123 456 by 12/05/2026 at 14:30.'),
      'Pay {money 5000. rwf} to {phone 0788|123|456} by {date 12/5/2026} at {time 14:30}.',
    );
  });
  it('keeps punctuation and collapses whitespace, keeping one line break', () => {
    assert.equal(dot('  Hello,   world!  Yes;\t(no) — «ok»?  '), 'Hello, world! Yes; (no) — «ok»?');
    assert.equal(dot('One.\n\n  Two.'), 'One.\nTwo.');
  });
  it('keeps words apart from the letters a number touched', () => {
    assert.equal(dot('A4'), 'A {n 4}');
  });
});

describe('createNormalizer: robustness', () => {
  const alphabet = [
    '0',
    '7',
    '8',
    '9',
    '1',
    ',',
    '.',
    ' ',
    '\u00A0',
    '-',
    '+',
    '/',
    ':',
    'h',
    '%',
    '$',
    '€',
    'Frw',
    'A',
    'Z',
    '°',
    'Dr.',
    'é',
    '\n',
    '\uD83D',
    '\uDE00',
    '(',
    '2',
    '5',
    'pm',
  ];
  // A fixed seed, so a failure can be replayed.
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  it('never throws on odd strings', () => {
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 40);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      assert.equal(typeof dot(text), 'string', JSON.stringify(text));
      assert.equal(typeof comma(text), 'string', JSON.stringify(text));
    }
    assert.equal(dot(''), '');
    assert.equal(dot(undefined as unknown as string), 'undefined');
  });
  it('fails the call when a pass throws: a bug in one pass is never silently dropped', () => {
    const fail = () => {
      throw new Error('no words');
    };
    const broken = createNormalizer(stub('.', { money: fail }));
    assert.throws(
      () => broken('Pay 5,000 Frw at 14:30.'),
      (error: unknown) =>
        error instanceof NormalizationPassError &&
        /"money" \(en\)/.test(error.message) &&
        error.cause instanceof Error &&
        error.cause.message === 'no words',
    );
  });
  it('in the service, reports a pass that throws and keeps every other reading', () => {
    const fail = () => {
      throw new Error('no words');
    };
    const broken = read(createNormalizer(stub('.', { money: fail, letter: fail })));
    const failures: NormalizationFailure[] = [];
    const restore = reportNormalizationFailures((failure) => failures.push(failure));
    try {
      // The money and its currency kept as written (the number pass then reads the digits it
      // left), the time and the phone number read: only the broken passes' matches are raw.
      assert.equal(
        broken('Pay 5,000 Frw, call 0788 123 456 at 14:30, BBC  7.'),
        'Pay {n 5000} Frw, call {phone 0788|123|456} at {time 14:30}, BBC {n 7}.',
      );
    } finally {
      restore();
    }
    assert.deepEqual(
      failures.map(({ language, pass }) => `${language} ${pass}`),
      ['en money', 'en acronym'],
    );
    assert.ok(failures.every((f) => f.error instanceof Error && f.error.message === 'no words'));
    // Strict again once restored.
    assert.throws(() => broken('$5'), NormalizationPassError);
  });
  it('normalises a long text quickly', () => {
    const text =
      'Dr. Smith paid 5,000 Frw on 12/05/2026 at 14:30, call 0788 123 456; 15% of 1 000 000. '.repeat(500);
    const started = performance.now();
    dot(text);
    // Generous bound for a shared machine; the pass over 45 KB takes tens of milliseconds.
    assert.ok(performance.now() - started < 1000);
    assert.doesNotThrow(() => dot('9'.repeat(100_000)));
  });
});

describe('createNormalizer: star and hash', () => {
  it('reads a USSD or keypad code key by key, before any number reading', () => {
    assert.equal(dot('Dial *182*7# now'), 'Dial {star} {n 1} {n 8} {n 2} {star} {n 7} {hash} now');
    assert.equal(dot('*#06#'), '{star} {hash} {n 0} {n 6} {hash}');
  });

  it('reads a key alone by its name, a star between numbers as times, and drops any other', () => {
    assert.equal(dot('press # or *.'), 'press {hash} or {star}.');
    assert.equal(dot('5 * 3 and 2*3'), '{n 5} {times} {n 3} and {n 2} {times} {n 3}');
    assert.equal(dot('Room #5, C# and note*'), 'Room {n 5}, C and note');
  });
});
