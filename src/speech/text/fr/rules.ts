/**
 * Patterns only French has: ordinals written with a suffix (1er, 1re, 2e, 3ème), "M." before
 * a name, a date after "le", "du" or "au" (the article is already written), ranges read with
 * "à", and the singular of a unit after "1".
 */
import {
  addressRules,
  degreeRule,
  identifierRule,
  letterNames,
  NUMERIC_DATE_SOURCE,
  numberRangeRule,
  parseNumericDate,
  singularUnitRule,
} from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { frenchCardinal, frenchFeminine, frenchOrdinal, frenchPairs, frenchPhoneGroup } from './numbers.ts';

/** French letter names (OQLF, BDL "Nom des lettres"). */
export const frenchLetter = letterNames(
  'a|bé|cé|dé|e|effe|gé|hache|i|ji|ka|elle|emme|enne|o|pé|ku|erre|esse|té|u|vé|double vé|ixe|i grec|zède',
);

// Feminine nouns a receptionist counts. A number ending in "un" agrees with them: "une place",
// "vingt et une personnes" (Académie française, "Dire, ne pas dire": "vingt et une"; BDL, "Accord
// de un dans les numéraux"). Nouns ending in -tion, -sion, -té, -ette, -ance, -ence are feminine
// as a rule and need no list.
const FEMININE = [
  'place',
  'personne',
  'heure',
  'minute',
  'seconde',
  'semaine',
  'nuit',
  'journée',
  'année',
  'fois',
  'chambre',
  'salle',
  'consultation',
  'visite',
  'ordonnance',
  'dose',
  'boîte',
  'pilule',
  'gélule',
  'table',
  'voiture',
  'clinique',
  'étape',
  'question',
  'réponse',
  'demande',
  'commande',
  'facture',
  'carte',
  'lettre',
  'page',
  'ligne',
  'femme',
  'fille',
  'infirmière',
  'patiente',
  'rue',
  'avenue',
  'porte',
  'étoile',
  'tablette',
  'injection',
  'urgence',
  'analyse',
  'radio',
  'séance',
  'offre',
].join('|');
const FEMININE_NOUN = `(?:${FEMININE})s?|\\p{L}+(?:tion|sion|té|ette|ance|ence)s?`;

const ROMAN_VALUES: readonly (readonly [string, number])[] = [
  ['M', 1000],
  ['CM', 900],
  ['D', 500],
  ['CD', 400],
  ['C', 100],
  ['XC', 90],
  ['L', 50],
  ['XL', 40],
  ['X', 10],
  ['IX', 9],
  ['V', 5],
  ['IV', 4],
  ['I', 1],
];

/**
 * A Roman numeral's value up to 3999, the way centuries, millennia, kings and popes are written
 * (XXIe siècle, Louis XIV); 0 for letters that are not a numeral in its usual form (IIII, VX).
 */
function romanValue(roman: string): number {
  let rest = roman;
  let total = 0;
  for (const [symbol, value] of ROMAN_VALUES) {
    for (let times = 0; rest.startsWith(symbol) && times < 3; times++) {
      total += value;
      rest = rest.slice(symbol.length);
    }
  }
  return rest === '' ? total : 0;
}

// Month and day abbreviations (BDL, "Abréviations des noms de mois et de jours").
const MONTH_ABBREVIATIONS: Readonly<Record<string, string>> = {
  janv: 'janvier',
  févr: 'février',
  avr: 'avril',
  juil: 'juillet',
  sept: 'septembre',
  oct: 'octobre',
  nov: 'novembre',
  déc: 'décembre',
};
const DAY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  lun: 'lundi',
  mar: 'mardi',
  mer: 'mercredi',
  jeu: 'jeudi',
  ven: 'vendredi',
  sam: 'samedi',
  dim: 'dimanche',
};
const MONTHS_SHORT = Object.keys(MONTH_ABBREVIATIONS).join('|');
const DAY = `(${Object.keys(DAY_ABBREVIATIONS).join('|')})\\.`;
const dayName = (abbreviation: string | undefined) =>
  DAY_ABBREVIATIONS[(abbreviation ?? '').toLowerCase()] ?? '';

// Units written after a number (BDL, "Symboles des unités de mesure"): singular below two.
const UNITS: Readonly<Record<string, readonly [string, string]>> = {
  L: ['litre', 'litres'],
  l: ['litre', 'litres'],
  mL: ['millilitre', 'millilitres'],
  ml: ['millilitre', 'millilitres'],
  cl: ['centilitre', 'centilitres'],
  g: ['gramme', 'grammes'],
  mg: ['milligramme', 'milligrammes'],
  m: ['mètre', 'mètres'],
};

const MONTHS = 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(
  ' ',
);

/** A date without its article: "premier mai", "douze mai deux mille vingt-six". */
export function frenchDateWords(day: number, month: number, year: number | undefined): string {
  const words = `${day === 1 ? 'premier' : frenchCardinal(day)} ${MONTHS[month - 1] ?? frenchCardinal(month)}`;
  return year === undefined ? words : `${words} ${frenchCardinal(year)}`;
}

export const frenchRules: readonly NormalizationRule[] = [
  // Addresses first: their dots and digits are not sentence ends or numbers (BDL, "arobase").
  ...addressRules({
    at: 'arobase',
    dot: 'point',
    slash: 'barre oblique',
    underscore: 'tiret bas',
    dash: 'tiret',
    www: 'trois double vé',
    letter: frenchLetter,
    cardinal: frenchCardinal,
  }),
  // "25 °C": BDL, "Degré Celsius"; singular below two, as for every French unit.
  degreeRule({ one: 'degré', many: 'degrés', C: 'Celsius', F: 'Fahrenheit', singular: (value) => value < 2 }),
  {
    // "XXIe siècle", "Ier siècle", "IIIe millénaire": Roman centuries read as ordinals.
    name: 'roman-century',
    pattern: /(?<![\p{L}\p{N}])([IVXLCDM]{1,7})(er|re|e|ème)(?= (?:siècles?|millénaires?)(?![\p{L}]))/gu,
    replace: (m) => {
      const n = romanValue(m[1] ?? '');
      if (n === 0) return m[0];
      return n === 1 ? (m[2] === 're' ? 'première' : 'premier') : frenchOrdinal(n);
    },
  },
  {
    // "Louis XIV", "Jean-Paul II", "lycée Henri-IV", "François Ier": a regnal number after a name
    // is a cardinal, except the first, "Ier", said "premier" (BDL, "Chiffres romains"). Only I, V
    // and X, so "Vitamine C" or "Groupe D" stay letters.
    name: 'regnal-number',
    pattern: /(?<=\p{Lu}\p{Ll}+[ -])([IVX]{1,6})(er)?(?![\p{L}\p{N}])/gu,
    replace: (m) => {
      const n = romanValue(m[1] ?? '');
      if (n === 0 || (m[2] !== undefined && n !== 1)) return m[0];
      return m[2] === undefined ? frenchCardinal(n) : 'premier';
    },
  },
  {
    // "au XIXe", "la Ve République": a Roman ordinal of I, V and X alone is an ordinal too.
    name: 'roman-ordinal',
    pattern: /(?<![\p{L}\p{N}])([IVX]{1,6})(er|re|e|ème)(?![\p{L}\p{N}])/gu,
    replace: (m) => {
      const n = romanValue(m[1] ?? '');
      if (n === 0) return m[0];
      return n === 1 ? (m[2] === 're' ? 'première' : 'premier') : frenchOrdinal(n);
    },
  },
  // Numbers that name rather than count, read in pairs as French speakers read them: an
  // extension ("poste"), a flight (airline code spelled), a post-office box ("B.P.").
  identifierRule({ name: 'extension', keyword: '[Pp]oste', say: (keyword) => keyword, read: frenchPairs }),
  identifierRule({
    name: 'flight-number',
    keyword: '[Vv]ol',
    say: (keyword) => keyword,
    read: frenchPairs,
    letter: frenchLetter,
  }),
  identifierRule({
    name: 'post-office-box',
    keyword: 'B\\.? ?P\\.?|[Bb]oîte postale',
    say: () => 'boîte postale',
    read: frenchPairs,
  }),
  {
    // "01 23 45 67 89", "+33 1 23 45 67 89", "01.23.45.67.89": a number written in pairs is read
    // in those pairs, with a pause between them (Rwandan numbers, in groups of three, are read by
    // the shared phone reading).
    name: 'phone-in-pairs',
    pattern:
      /(?<![\p{L}\p{N}+])(?:\+(?!250)\d{2,3}[ \u00A0.]\d|0[1-9])([ \u00A0.-])\d\d(?:\1\d\d){3}(?!\p{N}|[.,]\p{N})/gu,
    replace: (m) =>
      m[0]
        .split(/[ \u00A0.-]/)
        .map(frenchPhoneGroup)
        .join(', '),
  },
  {
    // "1 place", "21 personnes": un/une agrees with the feminine noun counted.
    name: 'feminine-count',
    pattern: new RegExp(`(?<![\\p{L}\\p{N}.,\\-])(\\d{1,9})(?= (?:${FEMININE_NOUN})(?![\\p{L}]))`, 'gu'),
    replace: (m) => {
      const words = frenchCardinal(Number(m[1]));
      return /(^|[ -])un$/.test(words) ? frenchFeminine(Number(m[1])) : (m[1] ?? '');
    },
  },
  {
    // "lun.-ven.", "lun. – sam.": a range of days, "du lundi au vendredi".
    name: 'day-range',
    pattern: new RegExp(`(?<![\\p{L}])(?:([Dd]u) )?${DAY} ?[-–] ?${DAY}`, 'giu'),
    replace: (m) => `${m[1] ?? 'du'} ${dayName(m[2])} au ${dayName(m[3])}`,
  },
  {
    // A lone day abbreviation only where a day is expected ("du lun.", "le sam."): "la mer." is the sea.
    name: 'day-abbreviation',
    pattern: new RegExp(`(?<=(?:[Dd]u|[Aa]u|[Ll]e|et|,) )${DAY}(?=[\\s,;:)]|$)`, 'giu'),
    replace: (m) => dayName(m[1]),
  },
  {
    // A month abbreviation only in a date ("3 nov.", "nov. 2026"): "nous sommes sept." is a number.
    name: 'month-abbreviation',
    pattern: new RegExp(
      `(?<=\\p{N} )(${MONTHS_SHORT})\\.|(?<![\\p{L}])(${MONTHS_SHORT})\\.(?= \\p{N})`,
      'giu',
    ),
    replace: (m) => MONTH_ABBREVIATIONS[(m[1] ?? m[2] ?? '').toLowerCase()] ?? m[0],
  },
  {
    // "8h-17h", "8 h 30 – 12 h": a range of clock times, "de huit heures à dix-sept heures".
    name: 'time-range',
    pattern:
      /(?<![\p{L}\p{N}])(?:([Dd]e) )?(\d{1,2} ?h(?: ?[0-5]\d)?) ?[-–] ?(\d{1,2} ?h(?: ?[0-5]\d)?)(?![\p{L}\p{N}])/gu,
    replace: (m) => `${m[1] ?? 'de'} ${m[2]} à ${m[3]}`,
  },
  {
    name: 'unit',
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}.,])(\\d+(?:,\\d+)?) ?(${Object.keys(UNITS)
        .sort((a, b) => b.length - a.length)
        .join('|')})(?![\\p{L}\\p{N}'’])`,
      'gu',
    ),
    replace: (m) => {
      const [one, many] = UNITS[m[2] ?? ''] ?? ['', ''];
      const value = Number((m[1] ?? '').replace(',', '.'));
      if (value < 2) return value === 1 ? `un ${one}` : `${m[1]} ${one}`;
      return `${m[1]} ${many}`;
    },
  },
  {
    name: 'date-after-article',
    pattern: new RegExp(`(?<![\\p{L}])([Ll]e|[Dd]u|[Aa]u) (${NUMERIC_DATE_SOURCE})(?![.,/-]?\\p{N})`, 'gu'),
    replace: (m) => {
      const date = parseNumericDate(m[2] ?? '');
      return date ? `${m[1]} ${frenchDateWords(date.day, date.month, date.year)}` : m[0];
    },
  },
  {
    // Banque de dépannage linguistique: 1er, 1re, 2e; "1ère", "2ème" and "2nd" are still common.
    name: 'ordinal',
    pattern: /(?<![\p{L}\p{N}.,])(\d{1,9})(er|re|ère|e|ème|eme|è|nd|nde)(?![\p{L}\p{N}])/gu,
    replace: (m) => {
      const n = Number(m[1]);
      const suffix = m[2] ?? '';
      if (n === 1) return suffix === 're' || suffix === 'ère' ? 'première' : 'premier';
      if (n === 2 && suffix.startsWith('nd')) return suffix === 'nde' ? 'seconde' : 'second';
      return frenchOrdinal(n);
    },
  },
  {
    // "M." is Monsieur only before a name, not as the initial in "J. M. Kagame".
    name: 'monsieur',
    pattern: /(?<![\p{L}.]|\p{Lu}\. )M\.(?= \p{Lu})/gu,
    replace: () => 'Monsieur',
  },
  numberRangeRule('à'),
  singularUnitRule({
    km: 'un kilomètre',
    kg: 'un kilogramme',
    cm: 'un centimètre',
    mm: 'un millimètre',
    'km/h': 'un kilomètre heure',
    min: 'une minute',
  }),
];
