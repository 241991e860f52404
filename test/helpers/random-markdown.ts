/**
 * Random English replies in the Markdown language models write (emphasis, code, links, struck-out
 * text, HTML tags, emoji, keypad codes, headings, lists, quotes, rules, tables, fenced code), and
 * random cuts of them into the pieces a live socket receives. Seeded (`randomSource`), so a
 * failure can be replayed.
 */

const WORDS = [
  'booking',
  'room',
  'Monday',
  'clinic',
  'deposit',
  'doctor',
  'table',
  'thanks',
  'today',
  'open',
  'price',
  'please',
  'call',
  'Kigali',
  'soon',
];
const EMOJI = ['😊', '🙏', '👍🏽', '🇷🇼', '✂️'];
const ENDS = ['.', '!', '?', ',', ';', ':'];

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const count = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

function words(random: Random, min = 1, max = 4): string {
  return Array.from({ length: count(random, min, max) }, () => pick(random, WORDS)).join(' ');
}

/** An inline piece: plain words, or words in a construct, or a symbol read as what it means. */
function inline(random: Random): string {
  const w = words(random);
  const shapes = [
    () => w,
    () => w,
    () => `**${w}**`,
    () => `*${w}*`,
    () => `_${w}_`,
    () => `\`${w}\``,
    () => `[${w}](https://example.rw/a.b/${pick(random, WORDS)})`,
    () => `~~${w}~~`,
    () => `<b>${w}</b>`,
    () => `${w} ${pick(random, EMOJI)}`,
    () => `dial *${count(random, 100, 999)}*${count(random, 1, 9)}#`,
    () => `press #`,
    () => `${count(random, 2, 9)} * ${count(random, 2, 9)}`,
    () => `**${w}, ${words(random)}${pick(random, ['.', '!'])}**`,
    () => 'www.example.rw',
  ];
  return pick(random, shapes)();
}

function sentence(random: Random): string {
  const parts = Array.from({ length: count(random, 1, 3) }, () => inline(random));
  return `${parts.join(' ')}${pick(random, ENDS)}`;
}

function block(random: Random): string {
  const shapes = [
    () => Array.from({ length: count(random, 1, 3) }, () => sentence(random)).join(' '),
    () => `${'#'.repeat(count(random, 1, 3))} ${sentence(random)}`,
    () =>
      Array.from(
        { length: count(random, 2, 3) },
        () => `${pick(random, ['-', '*', '+'])} ${sentence(random)}`,
      ).join('\n'),
    () => Array.from({ length: count(random, 2, 3) }, (_, i) => `${i + 1}. ${sentence(random)}`).join('\n'),
    () => `> ${sentence(random)}`,
    () => '---',
    () =>
      `| ${words(random, 1, 2)} | ${words(random, 1, 2)} |\n|---|---|\n| ${inline(random)} | ${words(random)} |`,
    () => `\`\`\`\n${words(random)}, ${words(random)}. ${words(random)}\n\`\`\``,
  ];
  return pick(random, shapes)();
}

/** A reply of one to four blocks. */
export function randomMarkdownReply(random: Random): string {
  return Array.from({ length: count(random, 1, 4) }, () => block(random)).join('\n\n');
}

/** `text` cut into pieces of `min` to `max` UTF-16 units, never inside a surrogate pair. */
export function randomPieces(random: Random, text: string, min = 1, max = 5): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + count(random, min, max));
    if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end++;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** The words of spoken text, lower case, without punctuation: to compare what two paths say. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}'’-]+/u)
    .filter((w) => w !== '');
}
