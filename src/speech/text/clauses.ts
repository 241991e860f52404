/**
 * Splits normalised text into the chunks the engine speaks one at a time. Streaming starts
 * as soon as the first chunk is spoken, so the first is kept short; no chunk is so long that
 * the next would stall behind it. Chunks end at sentence ends, then clause punctuation, then
 * word boundaries, in that order of preference, never inside a word, and keep their punctuation
 * so the engine gives each the right intonation and pause. A "word" longer than `maxChars` (a
 * run of letters with no space) is cut into pieces of `maxChars`: a chunk's audio, which is what
 * a stream holds for a client that does not read, stays bounded whatever the text.
 */
export interface ClauseOptions {
  /** The first chunk is at most this long (unless its first word alone is longer). */
  readonly firstMaxChars: number;
  /** No chunk is longer than this: a longer word is cut. */
  readonly maxChars: number;
  /** Where a long first clause is cut after its first phrase; absent: it is not. */
  readonly firstPhrase?: FirstPhrase;
}

/**
 * For an engine whose first audio waits for its analysis of the whole first clause (Flite): a
 * first clause of more than `maxWords` words is spoken as its first phrase, then the rest, cut
 * before the first word that `startsPhrase` (a conjunction or preposition) after at least
 * `MIN_PHRASE_WORDS` words and at most `maxWords`, with at least as many words left after it.
 * No such word: the clause stays whole (a cut inside a noun phrase costs more than it saves).
 */
export interface FirstPhrase {
  readonly maxWords: number;
  /** Whether a phrase may start with `word`, after `before` (the last word of the one before). */
  readonly startsPhrase: (word: string, before: string) => boolean;
}

export const defaultClauseOptions: ClauseOptions = { firstMaxChars: 60, maxChars: 220 };

/** A first clause shorter than this ("Yes,") is spoken with what follows it. */
const MIN_FIRST_CLAUSE = 8;
/** Neither side of a cut after the first phrase has fewer words than this. */
const MIN_PHRASE_WORDS = 3;
const SENTENCE = /[^.!?…\n]+(?:[.!?…]+["'”’»)]*|\n+|$)/gu;
const CLAUSE = /[^,;:—–]+(?:[,;:—–]+|$)/gu;

/** Chunks of `text` to speak in order; empty when there is nothing to speak. */
export function splitClauses(text: string, options: ClauseOptions = defaultClauseOptions): string[] {
  return splitFirstPhrase(text, options).chunks;
}

/**
 * The chunks of `text`, as `splitClauses` gives them, and whether the first is a phrase cut from a
 * sentence that goes on after it (`options.firstPhrase`): no clause-end pause belongs after it.
 */
export function splitFirstPhrase(
  text: string,
  options: ClauseOptions,
): { readonly chunks: string[]; readonly phraseCut: boolean } {
  const chunks: string[] = [];
  let phraseCut = false;
  const limit = () => (chunks.length === 0 ? options.firstMaxChars : options.maxChars);
  for (const whole of pieces(text, SENTENCE)) {
    let sentence = whole;
    if (chunks.length === 0) {
      // The first words are spoken alone up to their first clause mark ("Good morning,"): a call
      // hears them after the engine has rendered only them, and the mark is a phrase boundary
      // already, so the cut costs no intonation.
      const [first, ...rest] = pieces(sentence, CLAUSE);
      if (
        first !== undefined &&
        rest.length > 0 &&
        first.length >= MIN_FIRST_CLAUSE &&
        first.length <= limit()
      ) {
        chunks.push(first);
        sentence = rest.join(' ');
      } else if (first !== undefined && options.firstPhrase) {
        const cut = firstPhraseCut(first, sentence, options.firstPhrase);
        if (cut !== undefined && cut.phrase.length <= limit()) {
          chunks.push(cut.phrase);
          phraseCut = true;
          sentence = cut.rest;
        }
      }
    }
    if (sentence.length <= limit()) {
      chunks.push(sentence);
      continue;
    }
    // Too long for one chunk: join its clauses while they fit, cut a clause that alone is too long.
    let current = '';
    for (const clause of pieces(sentence, CLAUSE)) {
      if (current && current.length + 1 + clause.length <= limit()) {
        current = `${current} ${clause}`;
        continue;
      }
      if (current) chunks.push(current);
      const parts = clause.length <= limit() ? [clause] : splitWords(clause, limit(), options.maxChars);
      current = parts.pop() ?? '';
      chunks.push(...parts);
    }
    if (current) chunks.push(current);
  }
  return { chunks, phraseCut };
}

/** The sentence cut after the first phrase of its first clause `clause`, if `rule` finds one. */
function firstPhraseCut(
  clause: string,
  sentence: string,
  rule: FirstPhrase,
): { phrase: string; rest: string } | undefined {
  if (clause.split(' ').length <= rule.maxWords) return undefined;
  const words = sentence.split(' ');
  for (let at = MIN_PHRASE_WORDS; at <= rule.maxWords && words.length - at >= MIN_PHRASE_WORDS; at++) {
    if (rule.startsPhrase(words[at] ?? '', words[at - 1] ?? '')) {
      return { phrase: words.slice(0, at).join(' '), rest: words.slice(at).join(' ') };
    }
  }
  return undefined;
}

function pieces(text: string, pattern: RegExp): string[] {
  return Array.from(text.matchAll(pattern), (m) => m[0].replace(/\s+/g, ' ').trim()).filter((p) =>
    /[\p{L}\p{N}]/u.test(p),
  );
}

/** The first piece at most `firstLimit` long, the rest at most `limit`, cut between words. */
function splitWords(clause: string, firstLimit: number, limit: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of clause.split(' ').flatMap((w) => cutWord(w, limit))) {
    const max = out.length === 0 ? firstLimit : limit;
    if (current && current.length + 1 + word.length > max) {
      out.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) out.push(current);
  return out;
}

/** A word cut into pieces of at most `limit` code points; the word itself when it fits. */
function cutWord(word: string, limit: number): string[] {
  if (word.length <= limit) return [word];
  const characters = Array.from(word);
  const pieces: string[] = [];
  for (let i = 0; i < characters.length; i += limit) pieces.push(characters.slice(i, i + limit).join(''));
  return pieces;
}
