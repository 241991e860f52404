import { describe } from 'node:test';
import { englishVerbalizer } from '../../../../src/speech/text/en/verbalizer.ts';
import { createNormalizer } from '../../../../src/speech/text/normalize.ts';
import { expectCases } from '../../../helpers/cases.ts';

const normalize = createNormalizer(englishVerbalizer);

const check = (cases: readonly (readonly [string, string])[]) => expectCases(normalize, cases);

describe('English normalisation', () => {
  describe('cardinal numbers', () => {
    // Chicago Manual of Style, 17th ed., 9.6 (hyphens in twenty-one...), and Wikipedia,
    // "English numerals" (American usage leaves "and" out of "one hundred one").
    check([
      ['0', 'zero'],
      ['13', 'thirteen'],
      ['21', 'twenty-one'],
      ['101', 'one hundred one'],
      ['1195', 'one thousand one hundred ninety-five'],
      ['1,000,000', 'one million'],
      ['1 000 000', 'one million'],
      ['2,500,000,000', 'two billion five hundred million'],
      ['-42', 'minus forty-two'],
    ]);
  });

  describe('decimals and percentages', () => {
    // Wikipedia, "Decimal separator" (digits after the point read one by one); Chicago Manual
    // of Style 9.18 ("percent" spelled as a word).
    check([
      ['3.5', 'three point five'],
      ['0.05', 'zero point zero five'],
      ['-0.5', 'minus zero point five'],
      ['15%', 'fifteen percent'],
      ['12.5%', 'twelve point five percent'],
    ]);
  });

  describe('money', () => {
    // Wikipedia, "Rwandan franc" (ISO 4217 RWF, written Frw or RWF in Rwanda); Chicago Manual
    // of Style 9.20-9.22 (dollars and cents).
    check([
      ['5,000 Frw', 'five thousand Rwandan francs'],
      ['Frw 5.000', 'five thousand Rwandan francs'],
      ['RWF 12,500', 'twelve thousand five hundred Rwandan francs'],
      ['1 Frw', 'one Rwandan franc'],
      ['$12.50', 'twelve dollars and fifty cents'],
      ['12.50 USD', 'twelve dollars and fifty cents'],
      ['$1', 'one dollar'],
      ['$0.99', 'ninety-nine cents'],
      // Past what a number can hold exactly, its digits are read one by one.
      ['Frw 99999999999999999999', `Rwandan francs${' nine'.repeat(20)}`],
      ['€20', 'twenty euros'],
    ]);
  });

  describe('phone numbers', () => {
    // Rwanda numbering plan (RURA) and ITU-T E.164 (+250); ITU-T E.123 (groups as written,
    // read digit by digit).
    check([
      ['0788 123 456', 'zero seven eight eight, one two three, four five six'],
      ['0788123456', 'zero seven eight eight, one two three, four five six'],
      ['+250 788 123 456', 'plus two five zero, seven eight eight, one two three, four five six'],
      ['+250788123456', 'plus two five zero, seven eight eight, one two three, four five six'],
      ['078-812-3456', 'zero seven eight eight, one two three, four five six'],
    ]);
  });

  describe('times', () => {
    // Wikipedia, "12-hour clock" (a.m./p.m., "twelve noon", "oh" before one-digit minutes).
    check([
      ['14:30', 'two thirty p m'],
      ['9:05', 'nine oh five a m'],
      ['12:00', 'twelve noon'],
      ['0:00', 'twelve midnight'],
      ['18:00', 'six p m'],
      ['10am', 'ten a m'],
      ['9:15 pm', 'nine fifteen p m'],
    ]);
  });

  describe('dates and years', () => {
    // Wikipedia, "Date format by country" (Rwanda: day first) and "Calendar date" (British
    // "the twelfth of May"); Wikipedia, "English numerals", years said in pairs of digits.
    check([
      ['12/05/2026', 'the twelfth of May twenty twenty-six'],
      ['2026-05-12', 'the twelfth of May twenty twenty-six'],
      ['01.07.1962', 'the first of July nineteen sixty-two'],
      ['12 May 2026', 'the twelfth of May twenty twenty-six'],
      ['the 4th of July', 'the fourth of July'],
      ['May 12, 2026', 'May twelfth, twenty twenty-six'],
      ['in 1994', 'in nineteen ninety-four'],
      ['since 2005', 'since two thousand five'],
      ['from 2020-2021', 'from twenty twenty to twenty twenty-one'],
    ]);
  });

  describe('ordinals', () => {
    // Chicago Manual of Style 9.6 and Wikipedia, "English numerals" (ordinal numbers).
    check([
      ['1st', 'first'],
      ['2nd', 'second'],
      ['3rd', 'third'],
      ['12th', 'twelfth'],
      ['21st', 'twenty-first'],
      ['40th', 'fortieth'],
      ['100th', 'one hundredth'],
    ]);
  });

  describe('abbreviations and units', () => {
    // Chicago Manual of Style ch. 10 (Dr., Mr., St., e.g., etc.) and New Hart's Rules (Dr, Mr
    // without a full stop in British usage); SI Brochure (BIPM) for unit symbols.
    check([
      ['Dr. Mugabo', 'Doctor Mugabo'],
      ['Mr Habimana', 'Mister Habimana'],
      ['Mrs. Uwase', 'Missus Uwase'],
      ['St. Michael', 'Saint Michael'],
      ['KN 5 Rd.', 'kay en five Road.'],
      ['No. 5', 'number five'],
      ['Say No.', 'Say No.'],
      ['apples, pears, etc.', 'apples, pears, et cetera.'],
      ['5km', 'five kilometres'],
      ['1 km', 'one kilometre'],
      ['20 kg', 'twenty kilograms'],
    ]);
  });

  describe('days, months and ranges', () => {
    // Chicago Manual of Style ch. 10 (abbreviations of days, Mon. Tues. Wed. Thurs. Fri., and of
    // months, Jan. Feb. Aug. Sept. Nov., read as the full names); ranges with an en dash are
    // read "to" (ch. 6, the en dash between numbers and dates). Wed, Sat and Sun are also words,
    // so alone they stay words.
    check([
      ['Open Mon-Fri.', 'Open Monday to Friday.'],
      ['Open Mon. – Sat.', 'Open Monday to Saturday.'],
      ['Mon–Thu', 'Monday to Thursday'],
      ['Sat-Sun', 'Saturday to Sunday'],
      ['See you Fri. Bye.', 'See you Friday. Bye.'],
      ['Your visit is on Tues. at noon', 'Your visit is on Tuesday at noon'],
      ['Tue 3 Nov.', 'Tuesday the third of November.'],
      ['Sat, 5 Dec 2026', 'Saturday, the fifth of December twenty twenty-six'],
      ['Wed 2 Sept', 'Wednesday the second of September'],
      ['We sat in the sun on Wed.', 'We sat in the sun on Wed.'],
      ['on 3 Mar.', 'on the third of March.'],
      ['Nov. 12, 2026', 'November twelfth, twenty twenty-six'],
      ['Do not mar 3 walls', 'Do not mar three walls'],
      ['8am-5pm', 'eight a m to five p m'],
      ['9:00–17:00.', 'nine a m to five p m.'],
      ['8 a.m. – 5 p.m. daily', 'eight a m to five p m daily'],
      // The dot of "pm." that ends a sentence is kept as its full stop, so the clause ends there.
      ['Open 8am-5pm.', 'Open eight a m to five p m.'],
      ['See you at 5 p.m. Bye.', 'See you at five p m. Bye.'],
      ['at 5 p.m. tomorrow', 'at five p m tomorrow'],
      ['It takes 1-2 weeks.', 'It takes one to two weeks.'],
    ]);
  });

  describe('negative amounts', () => {
    // A refund or a debt is said with "minus" first (Chicago Manual of Style ch. 9, negative numbers).
    check([
      ['-$20', 'minus twenty dollars'],
      ['a refund of -20 USD', 'a refund of minus twenty dollars'],
      ['balance: -5,000 Frw', 'balance: minus five thousand Rwandan francs'],
      // A dash between two amounts is a range, not a sign.
      ['$20-$30', 'twenty dollars to thirty dollars'],
      ['€5 – €10', 'five euros to ten euros'],
      ['$1,500.50-$2,000', 'one thousand five hundred dollars and fifty cents to two thousand dollars'],
    ]);
  });

  describe('addresses', () => {
    // USPS Publication 28, appendix C (street suffixes: AVE avenue, RD road, ST street); the City
    // of Kigali's street addresses (KG 7 Ave, KN 3 Rd); Merriam-Webster, "24/7" (said
    // "twenty-four seven"); e-mail and web addresses as they are said aloud: "at", "dot", "dash",
    // a country code letter by letter, "com" and "org" as words (Wikipedia, "Email address").
    check([
      ["St Mary's church on Main St.", "Saint Mary's church on Main Street."],
      ['Kimihurura Ave, near KG 7 Ave.', 'Kimihurura Avenue, near kay gee seven Avenue.'],
      ['5 KN 3 Rd', 'five kay en three Road'],
      ['Ave Maria', 'Ave Maria'],
      ['P.O. Box 123', 'pee oh box one twenty-three'],
      ['PO Box 7', 'pee oh box seven'],
      ['Call us 24/7.', 'Call us twenty-four seven.'],
      ['Write to info@kigali-clinic.rw.', 'Write to info at kigali dash clinic dot ar double you.'],
      ['mail bookings@ijwi.com', 'mail bookings at ijwi dot com'],
      [
        'Visit www.kigali-clinic.rw today.',
        'Visit double you double you double you dot kigali dash clinic dot ar double you today.',
      ],
      ['See https://www.ijwi.org/docs', 'See double you double you double you dot ijwi dot org slash docs'],
    ]);
  });

  describe('acronyms', () => {
    // Wikipedia, "Acronym": initialisms are spelled (BBC, MTN), acronyms said as words (NASA).
    check([
      ['BBC', 'bee bee see'],
      ['MTN Rwanda', 'em tee en Rwanda'],
      ['UNHCR', 'you en aitch see ar'],
      ['NASA', 'NASA'],
      ['OK', 'oh kay'],
    ]);
  });

  describe('pounds, the minus sign and temperatures', () => {
    // Bank of England, "Our banknotes" (pound, pence); The Economist Style Guide, "Currencies"
    // (£ before the amount, GBP in tables); Unicode's MINUS SIGN (U+2212) is the minus of
    // typeset text; NIST SP 811, 7.2 ("25 °C": degrees Celsius, the scale named).
    check([
      ['£50', 'fifty pounds'],
      ['£1', 'one pound'],
      ['£5.50', 'five pounds and fifty pence'],
      ['£0.01', 'one penny'],
      ['GBP 20', 'twenty pounds'],
      ['20 GBP', 'twenty pounds'],
      ['\u221220 dollars', 'minus twenty dollars'],
      ['\u2212$5', 'minus five dollars'],
      ['25°C', 'twenty-five degrees Celsius'],
      ['-3 °C', 'minus three degrees Celsius'],
      ['98.6°F', 'ninety-eight point six degrees Fahrenheit'],
      ['1°C', 'one degree Celsius'],
    ]);
  });

  describe('numbers that name rather than count', () => {
    // An extension is dialled, so read digit by digit like the phone number before it; flight and
    // post-office box numbers are said like years, in pairs ("flight four oh one", "P.O. Box
    // twelve thirty-four"), an airline code letter by letter.
    check([
      ['extension 2045', 'extension two zero four five'],
      ['ext. 12', 'extension one two'],
      ['x123', 'extension one two three'],
      ['3 x 4', 'three x four'],
      ['next 5', 'next five'],
      ['flight WB 464', 'flight double you bee four sixty-four'],
      ['Flight KQ1234', 'Flight kay cue twelve thirty-four'],
      ['flight No. 1205', 'flight twelve oh five'],
      ['flight 5Y 300', 'flight five why three hundred'],
      ['P.O. Box 1234', 'pee oh box twelve thirty-four'],
      ['PO Box 56', 'pee oh box fifty-six'],
      ['post office box 3502', 'post office box thirty-five oh two'],
      ['The P.O. Box is closed.', 'The pee oh box is closed.'],
    ]);
  });

  describe('sentences', () => {
    check([
      [
        'Dr. Mugabo will see you on 12/05/2026 at 14:30; the fee is 5,000 Frw.',
        'Doctor Mugabo will see you on the twelfth of May twenty twenty-six at two thirty p m; the fee is five thousand Rwandan francs.',
      ],
      [
        'Call us on 0788 123 456, or +250 252 123 456!',
        'Call us on zero seven eight eight, one two three, four five six, or plus two five zero, two five two, one two three, four five six!',
      ],
    ]);
  });
});
