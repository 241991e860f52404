import { markdownOpenAtEnd, unclosedFence } from '../markdown/read.ts';

/**
 * Text that arrives in pieces (a language model's reply, word by word) cut into the parts that can
 * be spoken now. A part is complete at clause or sentence punctuation followed by white space, or
 * at a line break: the white space shows the word before the mark is whole, so "3.5" or "1,000"
 * never split, and a mark at the very end of what has arrived waits for the next piece. A period
 * after a common abbreviation or an initial (Dr. Mme. Nov. J.) waits for a later boundary, so
 * "Dr. Smith" is read as one. The reply is Markdown (`../markdown/read.ts`): a boundary where a
 * construct is still open (`**Great news, ` before its `**`, a link's text, a code span, a
 * fenced block, a table) waits for a later one, so each part reads alone as it reads in the
 * whole reply and no marker split across pieces is ever spoken. A run longer than `maxChars`
 * without a boundary is cut at its last line break or space, so what waits stays bounded; a
 * fenced block cut so is opened again for the rest. The pipeline then splits each part into its
 * clauses as it does for any text.
 */
export class LiveClauses {
  #buffer = '';
  /**
   * Boundaries of the buffer up to here were refused: what decides a boundary is the text before
   * it and the white space after, which later pieces do not change, so none is asked twice.
   */
  #checkedUpTo = 0;
  readonly #maxChars: number;

  constructor(maxChars = 220) {
    this.#maxChars = maxChars;
  }

  /** What is waiting for a boundary. */
  get pending(): string {
    return this.#buffer;
  }

  /** Appends `text`; returns the parts it completed, in order (often none). */
  push(text: string): string[] {
    this.#buffer += text;
    const parts: string[] = [];
    for (;;) {
      const end = this.#completedEnd();
      if (end === undefined) break;
      this.#checkedUpTo = 0;
      const part = this.#buffer.slice(0, end);
      parts.push(part);
      // Only a part that holds more than the fence's line reopens it, so each cut shortens the text.
      const fence = unclosedFence(part);
      this.#buffer =
        (fence !== undefined && fence.length < part.length ? fence : '') + this.#buffer.slice(end);
    }
    return parts.filter(hasWords);
  }

  /** Appends `text` without cutting: a document read whole (SSML) waits for `flush`. */
  hold(text: string): void {
    this.#buffer += text;
  }

  /** Everything waiting, as one part (none when it holds no words); the buffer is then empty. */
  flush(): string[] {
    const rest = this.#buffer;
    this.#buffer = '';
    this.#checkedUpTo = 0;
    return hasWords(rest) ? [rest] : [];
  }

  /** Drops what is waiting. */
  clear(): void {
    this.#buffer = '';
    this.#checkedUpTo = 0;
  }

  /**
   * The index just after the first complete part of the buffer, if one is complete. Boundaries
   * past `maxChars` are not asked about: the buffer is cut for length there first, so each
   * question parses at most `maxChars` characters.
   */
  #completedEnd(): number | undefined {
    const text = this.#buffer;
    const maxChars = this.#maxChars;
    for (const match of text.matchAll(BOUNDARY)) {
      const end = (match.index ?? 0) + match[0].length;
      if (end <= this.#checkedUpTo) continue;
      if (end > maxChars) break;
      this.#checkedUpTo = end;
      if (match[0] === '.' && ABBREVIATION.test(text.slice(Math.max(0, end - 8), end))) continue;
      if (markdownOpenAtEnd(text.slice(0, end))) continue;
      return end;
    }
    if (text.length <= maxChars) return undefined;
    const space = Math.max(text.lastIndexOf('\n', maxChars), text.lastIndexOf(' ', maxChars));
    if (space > 0) return space + 1;
    // Never between the two halves of a surrogate pair.
    return /[\uD800-\uDBFF]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  }
}

// Sentence and clause marks (with closing quotes, brackets or Markdown markers) followed by white
// space, or a line break.
const BOUNDARY = /[.!?…,;:—–]+["'”’»)\]*_~`]*(?=\s)|\n/gu;
// Abbreviations a period does not end a sentence after (English and French titles, streets, days,
// months), and initials (a lone letter): "Dr. Smith", "Mme. Uwase", "J. Mugisha".
const ABBREVIATIONS = [
  'Dr',
  'Mr',
  'Mrs',
  'Ms',
  'Mx',
  'Prof',
  'Jr',
  'Sr',
  'St',
  'Ave',
  'Rd',
  'Mt',
  'Mme',
  'Mlle',
  'Av',
  'Bd',
  'Mon',
  'Tue',
  'Tues',
  'Wed',
  'Thu',
  'Thurs',
  'Fri',
  'Sat',
  'Sun',
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
  'janv',
  'févr',
  'avr',
  'juil',
  'sept',
  'oct',
  'nov',
  'déc',
  'etc',
  'vs',
  'approx',
];
const ABBREVIATION = new RegExp(`(?:^|[\\s(])(?:${ABBREVIATIONS.join('|')}|\\p{L})\\.$`, 'iu');

function hasWords(part: string): boolean {
  return /[\p{L}\p{N}]/u.test(part);
}
