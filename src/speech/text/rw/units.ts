import type { NormalizationRule } from '../verbalizer.ts';
import { AMOUNT, rangeWords, writtenAmount } from './amounts.ts';
import type { Agreement } from './numbers.ts';

interface Unit {
  /** The noun for exactly one: ikiro (kimwe), metero (imwe). */
  readonly one: string;
  /** The noun for any other amount: ibiro (bitanu), metero (eshanu). */
  readonly many: string;
  /** The class the number agrees with. */
  readonly agreement: Agreement;
  /** Words said after the number: "ku isaha" (per hour) for km/h. */
  readonly after?: string;
}

// The unit is said first and the number agrees with it, as a noun and its number (the reference
// normaliser anzeyimana/morphokin moves "5kg" to "kg 5" and reads "ibiro bitanu"; Rwandan press
// writes "ibiro 130", "metero zitarenze 35", "santimetero makumyabiri n'eshanu (25cm)").
// Kilograms and kilometres are class 7/8 nouns (ikiro/ibiro, ikirometero/ibirometero: REB
// textbooks and the press); the loans metero, garama, litiro, dogere, hegitari are class 9/10, as
// the reference normaliser's agreement table (`rw_prefix`) gives them.
const KILOMETRE: Unit = { one: 'ikirometero', many: 'ibirometero', agreement: 'class8' };
const LITRE: Unit = { one: 'litiro', many: 'litiro', agreement: 'class10' };
const class10 = (noun: string): Unit => ({ one: noun, many: noun, agreement: 'class10' });

const UNITS: Readonly<Record<string, Unit>> = {
  'km/h': { ...KILOMETRE, after: 'ku isaha' },
  km: KILOMETRE,
  m: class10('metero'),
  cm: class10('santimetero'),
  mm: class10('milimetero'),
  kg: { one: 'ikiro', many: 'ibiro', agreement: 'class8' },
  g: class10('garama'),
  mg: class10('miligarama'),
  l: LITRE,
  L: LITRE,
  ml: class10('mililitiro'),
  ha: class10('hegitari'),
  '°C': class10('dogere selisiyusi'),
  '°': class10('dogere'),
};

/** A unit written alone (not after a number), as the abbreviation pass reads it. */
export const UNIT_NAMES: Readonly<Record<string, string>> = {
  'km/h': 'ibirometero ku isaha',
  km: 'ibirometero',
  kg: 'ibiro',
  cm: 'santimetero',
};

// "ha" is also a Kinyarwanda word ("aho ha"): hectares only when written against the number.
const SYMBOLS = String.raw`[ \u00a0]?(?:km\/h|km|cm|mm|kg|mg|ml|m|g|l|L|°[ \u00a0]?C|°)|ha`;

/**
 * "5 km" is said "ibirometero bitanu", "25°C" "dogere selisiyusi makumyabiri n'eshanu", "2,5 kg"
 * "ibiro bibiri n'igice", "60 km/h" "ibirometero mirongo itandatu ku isaha", a range "5-10 km"
 * "ibirometero kuva kuri bitanu kugeza ku icumi", a temperature below zero "dogere selisiyusi
 * ukuyemo eshatu".
 */
export const unitAfterNumber: NormalizationRule = {
  name: 'unit-after-number',
  pattern: new RegExp(
    String.raw`(?:(?<![\p{L}\p{N}.,])([-\u2212]))?(?<![\p{N}.,])(${AMOUNT})(?:[^\S\n]*[-–][^\S\n]*(${AMOUNT}))?(${SYMBOLS})(?![\p{L}\p{N}/²³])`,
    'gu',
  ),
  replace(match) {
    const [whole, sign, amount = '', until, written = ''] = match;
    const unit = UNITS[written.replace(/[ \u00a0]/g, '')];
    const from = unit && writtenAmount(amount, unit.agreement)?.words;
    if (unit === undefined || from === undefined) return whole;
    const after = unit.after === undefined ? '' : ` ${unit.after}`;
    if (until !== undefined) {
      const to = writtenAmount(until, unit.agreement)?.words;
      return to === undefined ? whole : `${unit.many} ${rangeWords(from, to)}${after}`;
    }
    const one = sign === undefined && /^1$/.test(amount);
    const words = sign === undefined ? from : `ukuyemo ${from}`;
    return `${one ? unit.one : unit.many} ${words}${after}`;
  },
};
