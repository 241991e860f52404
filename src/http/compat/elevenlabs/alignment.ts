import type { WordTiming } from '../../../speech/synthesize.ts';

/**
 * ElevenLabs' character alignment: one entry per character of the text, when it starts and how
 * long it lasts, in whole ms. Each character starts where the one before it ends, so the last
 * start plus its duration is when the text's last word ends.
 */
export interface CharacterAlignment {
  readonly chars: string[];
  readonly charStartTimesMs: number[];
  readonly charDurationsMs: number[];
}

/** A run of characters and the span of audio it is heard in, in ms. */
interface Span {
  readonly chars: readonly string[];
  readonly startMs: number;
  readonly endMs: number;
}

const WHITESPACE = /\s/u;

/**
 * Characters spread evenly over their spans, rounded on the boundaries rather than per character,
 * so that no rounding error accumulates; times are counted from `originMs` (never below 0).
 */
function alignSpans(spans: readonly Span[], originMs: number): CharacterAlignment {
  const alignment: CharacterAlignment = { chars: [], charStartTimesMs: [], charDurationsMs: [] };
  const at = (ms: number) => Math.max(0, Math.round(ms - originMs));
  for (const span of spans) {
    const n = span.chars.length;
    for (let i = 0; i < n; i++) {
      const start = at(span.startMs + ((span.endMs - span.startMs) * i) / n);
      const end = at(span.startMs + ((span.endMs - span.startMs) * (i + 1)) / n);
      alignment.chars.push(span.chars[i] as string);
      alignment.charStartTimesMs.push(start);
      alignment.charDurationsMs.push(end - start);
    }
  }
  return alignment;
}

/** Whitespace-separated tokens of `text` with the whitespace before each, by code point. */
function tokens(text: string): { readonly gap: string[]; readonly word: string[] }[] {
  const out: { gap: string[]; word: string[] }[] = [];
  let gap: string[] = [];
  let word: string[] = [];
  for (const char of text) {
    if (WHITESPACE.test(char)) {
      if (word.length > 0) {
        out.push({ gap, word });
        gap = [];
        word = [];
      }
      gap.push(char);
    } else {
      word.push(char);
    }
  }
  if (word.length > 0 || gap.length > 0) out.push({ gap, word });
  return out;
}

/**
 * The alignment of the words as they were read (ElevenLabs' `normalizedAlignment`): the timed
 * words joined by single spaces, each word's characters over its own time, each space over the
 * pause between two words. `after`, the word heard before these (a stream's earlier part), puts a
 * space first, over the pause since it ended, so that a client joining parts never runs two
 * words together.
 */
export function normalizedAlignment(
  words: readonly WordTiming[],
  originMs = 0,
  after?: WordTiming,
): CharacterAlignment {
  const spans: Span[] = [];
  words.forEach((word, i) => {
    const previous = i === 0 ? after : words[i - 1];
    if (previous) spans.push({ chars: [' '], startMs: previous.endMs, endMs: word.startMs });
    spans.push({ chars: Array.from(word.text), startMs: word.startMs, endMs: word.endMs });
  });
  return alignSpans(spans, originMs);
}

/**
 * The alignment of the text as the client sent it (ElevenLabs' `alignment`), from the timings of
 * its words as they were read. When reading kept one word per written word, each written word
 * takes its read word's time; when it did not (a number read as several words, an abbreviation
 * spelled out), the text's characters are spread evenly from the first word's start to the last
 * word's end, which still covers the text and ends with the audio. Whitespace takes the pause
 * before the word it precedes; leading and trailing whitespace lasts nothing.
 */
export function textAlignment(text: string, words: readonly WordTiming[], originMs = 0): CharacterAlignment {
  const written = tokens(text);
  const first = words[0];
  const last = words[words.length - 1];
  if (!first || !last) return alignSpans([{ chars: Array.from(text), startMs: 0, endMs: 0 }], 0);
  const spoken = written.filter((t) => t.word.length > 0);
  if (spoken.length !== words.length) {
    return alignSpans([{ chars: Array.from(text), startMs: first.startMs, endMs: last.endMs }], originMs);
  }
  const spans: Span[] = [];
  let index = 0;
  let previousEnd = first.startMs;
  for (const token of written) {
    const word = words[index];
    if (token.word.length === 0 || !word) {
      spans.push({ chars: token.gap, startMs: previousEnd, endMs: previousEnd });
      continue;
    }
    const gapStart = index === 0 ? word.startMs : previousEnd;
    spans.push({ chars: token.gap, startMs: gapStart, endMs: word.startMs });
    spans.push({ chars: token.word, startMs: word.startMs, endMs: word.endMs });
    previousEnd = word.endMs;
    index++;
  }
  return alignSpans(spans, originMs);
}

/** ElevenLabs' HTTP alignment: characters with their start and end times in seconds. */
export interface AlignmentInSeconds {
  readonly characters: string[];
  readonly character_start_times_seconds: number[];
  readonly character_end_times_seconds: number[];
}

/** An alignment as the HTTP responses carry it (the WebSocket messages carry ms and durations). */
export function inSeconds(alignment: CharacterAlignment): AlignmentInSeconds {
  const starts = alignment.charStartTimesMs;
  return {
    characters: alignment.chars,
    character_start_times_seconds: starts.map((ms) => ms / 1000),
    character_end_times_seconds: starts.map((ms, i) => (ms + (alignment.charDurationsMs[i] ?? 0)) / 1000),
  };
}
