import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cardinal, link, ordinal, readDigits } from '../../../../src/speech/text/rw/numbers.ts';
import { kinyarwandaVerbalizer as rw } from '../../../../src/speech/text/rw/verbalizer.ts';
import { expectCases } from '../../../helpers/cases.ts';

const table = (cases: readonly (readonly [number, string])[], read: (n: number) => string) =>
  expectCases(read, cases);

describe('Kinyarwanda cardinals, counting form', () => {
  // Units 1-10 and zero: Harvard ELIAS "Grammar: Cardinal and ordinal numbers" (ri-mwe, ka-biri...
  // u-munani, i-cyenda, i-cumi; "zero"); French Wikibooks "Enseignement du kinyarwanda – Nombres".
  table(
    [
      [0, 'zeru'],
      [1, 'rimwe'],
      [2, 'kabiri'],
      [3, 'gatatu'],
      [4, 'kane'],
      [5, 'gatanu'],
      [6, 'gatandatu'],
      [7, 'karindwi'],
      [8, 'umunani'],
      [9, 'icyenda'],
      [10, 'icumi'],
    ],
    cardinal,
  );

  // Teens and tens: Wikibooks (11 cumi na rimwe, 20 makumyabiri, 21 makumyabiri na rimwe, mirongo
  // itatu..mirongo icyenda); languagesandnumbers.com "How to count in Kinyarwanda" (19 cumi n'icyenda);
  // gusoma README (18 cumi n'umunani).
  table(
    [
      [11, 'cumi na rimwe'],
      [12, 'cumi na kabiri'],
      [18, "cumi n'umunani"],
      [19, "cumi n'icyenda"],
      [20, 'makumyabiri'],
      [21, 'makumyabiri na rimwe'],
      [30, 'mirongo itatu'],
      [80, 'mirongo inani'],
      [99, "mirongo icyenda n'icyenda"],
    ],
    cardinal,
  );

  // Hundreds: Wikibooks (ijana, ijana na rimwe, magana abiri..magana cyenda); NeMo rw hundreds.tsv;
  // gusoma README (116 ijana na cumi na gatandatu, 1110 ... n'ijana n'icumi).
  table(
    [
      [100, 'ijana'],
      [101, 'ijana na rimwe'],
      [110, "ijana n'icumi"],
      [116, 'ijana na cumi na gatandatu'],
      [200, 'magana abiri'],
      [800, 'magana inani'],
      [999, "magana cyenda na mirongo icyenda n'icyenda"],
    ],
    cardinal,
  );

  // Thousands with the class 8 multiplier: Wikibooks (igihumbi, ibihumbi bibiri, ibihumbi ijana);
  // NeMo rw thousands.tsv and digits_for_thousands.tsv (ibihumbi umunani; kimwe, bibiri...);
  // gusoma README (1195, 1110).
  table(
    [
      [1000, 'igihumbi'],
      [1110, "igihumbi n'ijana n'icumi"],
      [1195, "igihumbi n'ijana na mirongo icyenda na gatanu"],
      [2000, 'ibihumbi bibiri'],
      [8000, 'ibihumbi umunani'],
      [10000, 'ibihumbi icumi'],
      [21000, 'ibihumbi makumyabiri na kimwe'],
      [100000, 'ibihumbi ijana'],
      [
        999999,
        "ibihumbi magana cyenda na mirongo icyenda n'icyenda na magana cyenda na mirongo icyenda n'icyenda",
      ],
    ],
    cardinal,
  );

  // Millions with the class 9/10 multiplier: Rwandan Penal Code ("miliyoni imwe (1.000.000 FRW)",
  // "miliyoni ebyiri"); Wikibooks (miliyoni ebyiri); gusoma README (43,000,000 miliyoni mirongo ine
  // n'eshatu); NeMo rw digits_millions_trillions.tsv (imwe, ebyiri, eshatu...).
  table(
    [
      [1000000, 'miliyoni imwe'],
      [2000000, 'miliyoni ebyiri'],
      [2500000, "miliyoni ebyiri n'ibihumbi magana atanu"],
      [43000000, "miliyoni mirongo ine n'eshatu"],
      [
        999999999,
        "miliyoni magana cyenda na mirongo icyenda n'icyenda n'ibihumbi magana cyenda na mirongo icyenda n'icyenda na magana cyenda na mirongo icyenda n'icyenda",
      ],
    ],
    cardinal,
  );
});

describe('Kinyarwanda cardinals agreeing with a noun', () => {
  // Harvard ELIAS "Teacher Notes: The application of cardinal numbers" (intebe ebyiri, eshatu...);
  // Kinyarwanda Wikipedia "Rwanda" ("ibiyaga makumyabiri na bitatu": the units digit agrees);
  // NeMo rw minutes.tsv (iminota cumi n'itanu, class 4).
  it('puts the noun class on the last units digit only', () => {
    assert.equal(cardinal(23, 'class8'), 'makumyabiri na bitatu');
    assert.equal(cardinal(15, 'class4'), "cumi n'itanu");
    assert.equal(cardinal(12, 'class10'), "cumi n'ebyiri");
    assert.equal(cardinal(2005, 'class6'), "ibihumbi bibiri n'atanu");
  });
});

describe('Kinyarwanda ordinals and linking', () => {
  // Harvard ELIAS unit 3 (ukwezi kwa mbere, kwa kane); CLDR rw weekdays (Kuwa mbere, Kuwa kabiri...
  // Kuwa gatandatu); months said "ukwa munani", "ukwa cumi" (Harvard ELIAS unit 3).
  table(
    [
      [1, 'mbere'],
      [2, 'kabiri'],
      [6, 'gatandatu'],
      [8, 'munani'],
      [10, 'cumi'],
      [11, 'cumi na rimwe'],
    ],
    ordinal,
  );

  it('elides a connective before a vowel and keeps it before a consonant', () => {
    assert.equal(link('na', 'ijana'), "n'ijana");
    assert.equal(link('wa', 'igihumbi'), "w'igihumbi");
    assert.equal(link('na', 'gatanu'), 'na gatanu');
  });

  it('reads digits one by one, as in phone numbers', () => {
    assert.equal(readDigits('0788'), 'zeru karindwi umunani umunani');
  });
});

describe('kinyarwandaVerbalizer methods', () => {
  // yegob.rw ("saa kumi n'ebyiri n'igice z'umugoroba (18h30)"), kigalitoday.com ("saa sita z'amanywa"),
  // NeMo rw hours.tsv (14 saa munani, 7 saa moya), Harvard ELIAS unit 3 (hours counted from sunrise).
  it('reads clock times on the Rwandan clock', () => {
    assert.equal(rw.time(14, 30), "saa munani n'igice z'amanywa");
    assert.equal(rw.time(18, 30), "saa kumi n'ebyiri n'igice z'umugoroba");
    assert.equal(rw.time(12, 0), "saa sita z'amanywa");
    assert.equal(rw.time(7, 15), "saa moya n'iminota cumi n'itanu za mu gitondo");
    assert.equal(rw.time(0, 0), "saa sita z'ijoro");
  });

  // Penal Code ("amafaranga y'u Rwanda ... miliyoni imwe"); noun first, number agreeing in class 6.
  it('puts the currency noun first', () => {
    assert.equal(rw.money(1000, '', 'RWF'), 'amafaranga igihumbi');
    assert.equal(rw.money(1, '', 'RWF'), 'ifaranga rimwe');
    assert.equal(rw.money(25, '', 'USD'), "amadolari makumyabiri n'atanu");
    assert.equal(rw.money(5, '50', 'USD'), "amadolari atanu n'amasenti mirongo itanu");
  });

  // anzeyimana/morphokin `spell_decimal`: "n'ibice" and the digits after the mark as one number in
  // class 8; a single 5 is a half (Harvard ELIAS: 2 1/2 "kabiri n'igice"); leading zeros are said.
  it('reads decimals with ibice, a half as igice', () => {
    assert.equal(rw.decimal(3, '5'), "gatatu n'igice");
    assert.equal(rw.decimal(3, '05'), "gatatu n'ibice zeru bitanu");
    assert.equal(rw.decimal(2, '25'), "kabiri n'ibice makumyabiri na bitanu");
    assert.equal(rw.decimal(0, '1'), "zeru n'igice kimwe");
    assert.equal(rw.decimal(-0, '5'), "ukuyemo zeru n'igice");
  });

  it('names letters for acronyms and leaves other characters lower-cased', () => {
    assert.equal(rw.letter('R'), 'ari');
    assert.equal(rw.letter('é'), 'é');
  });
});
