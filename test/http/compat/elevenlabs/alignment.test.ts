import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CharacterAlignment,
  normalizedAlignment,
  textAlignment,
} from '../../../../src/http/compat/elevenlabs/alignment.ts';
import type { WordTiming } from '../../../../src/speech/synthesize.ts';

// Word timings as the pipeline gives them for "Muraho, amakuru yawe?" (ms from the first sample).
const WORDS: readonly WordTiming[] = [
  { text: 'Muraho', startMs: 40, endMs: 517 },
  { text: 'amakuru', startMs: 690, endMs: 1203 },
  { text: 'yawe', startMs: 1203, endMs: 1580 },
];

/** Checks what every client relies on: one entry per character, back to back, in whole ms. */
function assertWellFormed(alignment: CharacterAlignment): void {
  const n = alignment.chars.length;
  assert.equal(alignment.charStartTimesMs.length, n);
  assert.equal(alignment.charDurationsMs.length, n);
  for (let i = 0; i < n; i++) {
    const start = alignment.charStartTimesMs[i] as number;
    const duration = alignment.charDurationsMs[i] as number;
    assert.ok(Number.isInteger(start) && Number.isInteger(duration), `whole ms at ${i}`);
    assert.ok(start >= 0 && duration >= 0, `no negative time at ${i}`);
    if (i + 1 < n) assert.equal(alignment.charStartTimesMs[i + 1], start + duration, `back to back at ${i}`);
  }
}

const endOf = (a: CharacterAlignment) =>
  (a.charStartTimesMs.at(-1) as number) + (a.charDurationsMs.at(-1) as number);

/** Where each whitespace-separated word of the alignment starts, in ms. */
function wordStarts(a: CharacterAlignment): number[] {
  const starts: number[] = [];
  a.chars.forEach((char, i) => {
    if (!/\s/.test(char) && (i === 0 || /\s/.test(a.chars[i - 1] as string)))
      starts.push(a.charStartTimesMs[i] as number);
  });
  return starts;
}

describe('ElevenLabs character alignment from word timings', () => {
  it('normalizedAlignment: the read words with single spaces, each word from its own start to its end', () => {
    const alignment = normalizedAlignment(WORDS);
    assertWellFormed(alignment);
    assert.equal(alignment.chars.join(''), 'Muraho amakuru yawe');
    assert.deepEqual(wordStarts(alignment), [40, 690, 1203]);
    assert.equal(alignment.charStartTimesMs[0], 40);
    assert.equal(endOf(alignment), 1580);
    // The space between two words lasts the pause between them.
    const space = alignment.chars.indexOf(' ');
    assert.deepEqual([alignment.charStartTimesMs[space], alignment.charDurationsMs[space]], [517, 173]);
  });

  it('textAlignment: the text as sent, punctuation and all, each written word over its read word', () => {
    const text = 'Muraho,  amakuru yawe?';
    const alignment = textAlignment(text, WORDS);
    assertWellFormed(alignment);
    assert.equal(alignment.chars.join(''), text);
    assert.deepEqual(wordStarts(alignment), [40, 690, 1203]);
    assert.equal(endOf(alignment), 1580);
  });

  it('textAlignment spreads the text over the speech when reading changed the words', () => {
    // "15:30" is read "fifteen thirty": four written words, five read.
    const read: WordTiming[] = [
      { text: 'doctor', startMs: 0, endMs: 400 },
      { text: 'Smith', startMs: 400, endMs: 800 },
      { text: 'at', startMs: 900, endMs: 1000 },
      { text: 'fifteen', startMs: 1000, endMs: 1400 },
      { text: 'thirty', startMs: 1400, endMs: 1600 },
    ];
    const text = 'Dr. Smith at 15:30';
    const alignment = textAlignment(text, read);
    assertWellFormed(alignment);
    assert.equal(alignment.chars.join(''), text);
    assert.equal(alignment.charStartTimesMs[0], 0);
    assert.equal(endOf(alignment), 1600);
    const durations = new Set(alignment.charDurationsMs);
    assert.ok(Math.max(...durations) - Math.min(...durations) <= 1, 'evenly spread');
  });

  it('counts from the origin given (a chunk of a longer utterance), never below zero', () => {
    const alignment = normalizedAlignment(WORDS, 690);
    assertWellFormed(alignment);
    assert.deepEqual(wordStarts(alignment), [0, 0, 513]);
    assert.equal(endOf(alignment), 890);
    const text = textAlignment('Muraho, amakuru yawe?', WORDS, 40);
    assert.deepEqual(wordStarts(text), [0, 650, 1163]);
  });

  it('keeps a character outside the BMP as one character, and leading and trailing spaces as instants', () => {
    const words: WordTiming[] = [
      { text: 'Hello', startMs: 100, endMs: 500 },
      { text: '𝔸', startMs: 600, endMs: 700 },
    ];
    const alignment = textAlignment(' Hello 𝔸 ', words);
    assertWellFormed(alignment);
    assert.deepEqual(alignment.chars, [' ', 'H', 'e', 'l', 'l', 'o', ' ', '𝔸', ' ']);
    assert.deepEqual([alignment.charStartTimesMs[0], alignment.charDurationsMs[0]], [100, 0]);
    assert.deepEqual([alignment.charStartTimesMs[8], alignment.charDurationsMs[8]], [700, 0]);
    assert.deepEqual([alignment.charStartTimesMs[7], alignment.charDurationsMs[7]], [600, 100]);
  });

  it('gives an empty alignment for no words, and zero times for text nothing was heard of', () => {
    assert.deepEqual(normalizedAlignment([]), { chars: [], charStartTimesMs: [], charDurationsMs: [] });
    const alignment = textAlignment('...', []);
    assertWellFormed(alignment);
    assert.deepEqual(alignment.chars, ['.', '.', '.']);
    assert.equal(endOf(alignment), 0);
  });
});
