/**
 * The `*` and `#` of a reply that are not Markdown: keypad and USSD codes (`*182*7#`, `*#06#`),
 * a key on its own ("press #", "press * to repeat") and a product (`5 * 3`, `2*3`). CommonMark
 * would read `*182*7#` as emphasis around 182 and `2*3*4` as emphasis around 3, so these are
 * found before parsing and stand in the text as characters the parser treats as letters (from
 * Unicode's private use area), then are given back as `*` and `#` for the normaliser to read
 * (`../text/normalize.ts`, its keypad pass).
 */

const STAND_IN: Readonly<Record<string, string>> = { '*': '\uE001', '#': '\uE002' };
const STAND_INS = /[\uE001\uE002]/gu;
const BACK: Readonly<Record<string, string>> = { '\uE001': '*', '\uE002': '#' };

// A keypad code starts with `*` or `#`, holds a digit and ends with `#` (USSD), as dialled.
const KEYPAD_CODE = /(?<![\p{L}\p{N}*#/])[*#][\d*#]*\d[\d*#]*#(?![\p{L}\p{N}])/gu;
// A star between two numbers: a product (`5 * 3`, `2*3*4`).
const TIMES = /(?<=\d[ \t]*)\*(?=[ \t]*\d)/gu;
// A key on its own after words on its line (at a line's start, `* ` is a bullet, `# ` a heading).
const LONE_KEY = /(?<=\S[ \t]+)[*#](?=[ \t]*(?:$|[\s.,;:!?)]))/gmu;

/** `text` with its literal `*` and `#` standing in as characters Markdown leaves alone. */
export function protectLiteralSymbols(text: string): string {
  // A client's own stand-ins are not symbols of its text: the voices skip such characters anyway.
  const own = text.replace(STAND_INS, ' ');
  const swap = (symbols: string) => symbols.replace(/[*#]/gu, (s) => STAND_IN[s] ?? s);
  return own.replace(KEYPAD_CODE, swap).replace(TIMES, swap).replace(LONE_KEY, swap);
}

/** Text read from a protected reply with its `*` and `#` given back. */
export function restoreLiteralSymbols(text: string): string {
  return text.replace(STAND_INS, (s) => BACK[s] ?? s);
}
