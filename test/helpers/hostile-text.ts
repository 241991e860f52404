/**
 * Text a hostile client might send, for the audio-bound bench and the input-safety tests: the
 * inputs that make the most audio per character (long numbers read in words, digit strings,
 * money, dates, spelled letters), engine markup of every kind (SSML, phoneme brackets, espeak-ng
 * commands, entities) and random Unicode. Seeded, so a failure can be replayed.
 */
import { randomSource } from './signals.ts';

/**
 * Shapes that make the most audio per character, found by trying every character from U+0021
 * to U+33FF (and samples beyond) alone and in runs, in every voice: numbers of 7 to 12 digits
 * whose every group is read in full (7s are long words in all three languages), the same in
 * money, percentages, decimals, dates, times, phone numbers and ordinals, digit strings read one
 * by one, letters spelled out or read by their names, and letters the voices do not read.
 */
export const worstCaseShapes: Readonly<Record<string, string>> = {
  'numbers, 9 digits': '777777777 '.repeat(20),
  'numbers, 12 digits': '777777777777 '.repeat(15),
  'numbers, 7 digits': '7777777 '.repeat(25),
  'numbers, 8 digits': '77777777 '.repeat(22),
  'numbers, 8 sixes': '66666666 '.repeat(22),
  'numbers, grouped': '777,777,777 '.repeat(16),
  'numbers, 97s': '979797979 '.repeat(20),
  'digit string': '7'.repeat(200),
  'leading-zero codes': '0777777 '.repeat(25),
  'money, francs': '777777777 Frw '.repeat(14),
  'money, dollars and cents': '$777777.77 '.repeat(18),
  'money, euros': '777 777,77 € '.repeat(15),
  percentages: '77.77% '.repeat(28),
  decimals: '777777.777777 '.repeat(14),
  'negative numbers': '-777777 '.repeat(25),
  dates: '27/07/2027 '.repeat(18),
  'ISO dates': '2027-07-27 '.repeat(18),
  times: '23:57 '.repeat(33),
  'phone numbers': '0788777777 '.repeat(18),
  'international phone numbers': '+250788777777 '.repeat(14),
  ordinals: '77th 77e 77. '.repeat(15),
  ranges: '1977-1997 '.repeat(20),
  acronyms: 'WWW XQW '.repeat(25),
  'e-mail addresses': 'w_w@w.w '.repeat(25),
  'keypad codes': '*7*7*7*7*7*7*7# '.repeat(12),
  'web addresses': 'www.w.ww '.repeat(22),
  'day and time ranges': 'Mon-Thu 7am-7pm '.repeat(12),
  'clock time ranges': '07:57-23:57 '.repeat(16),
  'unit ranges': '7-77°C '.repeat(25),
  fractions: '⅞ '.repeat(66),
  'single letters': 'W. '.repeat(66),
  'lone letters with names': 'Æ W Â Œ '.repeat(25),
  'exotic letters': 'ŴŵᴭǢ 𝐀𝐖 ㉗㎤ ሀ൷ '.repeat(12),
  'clause marks': 'a, '.repeat(66),
  'sentence marks': 'a! '.repeat(66),
  'long words': 'Pneumonoultramicroscopicsilicovolcanoconiosis ',
};

/** Markup, brackets and commands that some engine would obey if it read them. */
const MARKUP_PIECES = [
  '<speak>',
  '</speak>',
  '<break time="3600s"/>',
  '<break time="99999ms"/>',
  '<voice name="en-us+m3">',
  '<voice gender="male" age="90">',
  '</voice>',
  '<prosody rate="x-slow" pitch="x-high" volume="silent">',
  '<prosody rate="20%">',
  '</prosody>',
  '<say-as interpret-as="characters">',
  '<audio src="file:///etc/passwd">',
  '<tts:style field="punctuation" mode="all">',
  '<tts:style field="capital_letters" mode="spelling">',
  '<mark name="x"/>',
  '<emphasis level="strong">',
  '<!-- comment -->',
  '<?xml version="1.0"?>',
  '<!DOCTYPE speak [<!ENTITY a "aaaaaaaa">]>',
  '&a;',
  '&lt;',
  '&#x1;',
  '&#60;break time="9s"/&#62;',
  '[[',
  ']]',
  "[[h@l'oU w'3:ld]]",
  '[[_:_:_:_:_:_:]]',
  '_^_EN',
  '\\x01 50P',
  '%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: text that looks like a template is the point.
  '${process.exit()}',
  ']]>',
  '<![CDATA[',
];

const WORDS = [
  'Muraho',
  'neza',
  'hello',
  'thank you',
  'bonjour',
  'merci',
  'Kigali',
  'appointment',
  'rendez-vous',
];

/** Code point ranges a random text draws from: scripts, symbols, emoji, combining marks, controls. */
const RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x300, 0x36f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x590, 0x6ff],
  [0x900, 0x97f],
  [0x1200, 0x137f],
  [0x2000, 0x206f],
  [0x20a0, 0x20cf],
  [0x2190, 0x22ff],
  [0x3000, 0x30ff],
  [0x4e00, 0x4eff],
  [0xfe00, 0xfe0f],
  [0xfff0, 0xffff],
  [0x1f300, 0x1f6ff],
  [0x0, 0x1f],
  [0x7f, 0x9f],
  [0xd800, 0xdfff],
];

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function randomUnicode(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const [low, high] = pick(random, RANGES);
    out += String.fromCodePoint(low + Math.floor(random() * (high - low + 1)));
  }
  return out;
}

function randomMarkup(random: () => number, pieces: number): string {
  const out: string[] = [];
  for (let i = 0; i < pieces; i++)
    out.push(random() < 0.5 ? pick(random, MARKUP_PIECES) : pick(random, WORDS));
  return out.join(random() < 0.5 ? ' ' : '');
}

function randomRun(random: () => number): string {
  const length = 5 + Math.floor(random() * 120);
  const kind = Math.floor(random() * 4);
  if (kind === 0) return Array.from({ length }, () => String(Math.floor(random() * 10))).join('');
  if (kind === 1)
    return Array.from({ length }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join('');
  if (kind === 2) {
    const groups = Array.from({ length: 1 + Math.floor(length / 10) }, () =>
      String(Math.floor(random() * 1e9)).padStart(Math.floor(random() * 12), '7'),
    );
    return groups.join(pick(random, [' ', ', ', '.', ' Frw ', '% ', ':', '/']));
  }
  return Array.from(
    { length: Math.ceil(length / 2) },
    () => `${String.fromCharCode(65 + Math.floor(random() * 26))} `,
  ).join('');
}

/** `count` hostile texts: random Unicode, markup-like text and long digit and letter runs, mixed. */
export function hostileTexts(seed: number, count: number): string[] {
  const random = randomSource(seed);
  return Array.from({ length: count }, (_, i) => {
    switch (i % 4) {
      case 0:
        return randomUnicode(random, 1 + Math.floor(random() * 80));
      case 1:
        return randomMarkup(random, 2 + Math.floor(random() * 12));
      case 2:
        return randomRun(random);
      default:
        return `${randomMarkup(random, 3)} ${randomRun(random)} ${randomUnicode(random, 10)}`;
    }
  });
}
