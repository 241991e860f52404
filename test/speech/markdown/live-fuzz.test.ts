import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SpeechPart, speechPart } from '../../../src/http/tts-request.ts';
import { streamFormats } from '../../../src/speech/audio/formats.ts';
import type { SpeechDocument } from '../../../src/speech/input/document.ts';
import { frontEndFor } from '../../../src/speech/text/front-end.ts';
import { LiveClauses } from '../../../src/speech/text/live-clauses.ts';
import { findVoice } from '../../../src/speech/voices/voices.ts';
import { randomMarkdownReply, randomPieces, wordsOf } from '../../helpers/random-markdown.ts';
import { randomSource } from '../../helpers/signals.ts';

// The live path's reading, as a live context runs it (live-context.ts): pieces into `LiveClauses`,
// each part it gives read by `speechPart`, then normalised as the pipeline does before the engine.
// Random Markdown cut at random places never puts a marker in front of an engine, and the parts
// together say what the whole reply says. Seeded: a failure names its seed.

const voice = findVoice('en', 0);
assert.ok(voice);
const settings = { voice, format: streamFormats.mulaw_8k, textType: 'text' } as const;
const frontEnd = frontEndFor('en');
const MARKUP = /[*_~`#[\]|<>]/u;

/** What the engines are given for a document: its text normalised, words as written. */
function engineTexts(document: SpeechDocument): string[] {
  return document.segments.flatMap((s) =>
    s.kind === 'text' ? [frontEnd.normalize(s.text)] : s.kind === 'words' ? [s.text] : [],
  );
}

describe('live Markdown, cut at random', () => {
  it('never speaks a marker and speaks the whole reply, for 400 seeded replies in 1-5 character pieces', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = randomSource(seed);
      const reply = randomMarkdownReply(random);
      const clauses = new LiveClauses();
      const parts = [
        ...randomPieces(random, reply).flatMap((piece) => clauses.push(piece)),
        ...clauses.flush(),
      ];
      const said = parts
        .map((part) => speechPart(part, settings))
        .filter((part): part is SpeechPart => part !== undefined)
        .flatMap((part) => engineTexts(part.document));
      for (const text of said) assert.doesNotMatch(text, MARKUP, `seed ${seed}: ${JSON.stringify(reply)}`);
      const whole = speechPart(reply, settings);
      assert.deepEqual(
        wordsOf(said.join(' ')),
        wordsOf(whole ? engineTexts(whole.document).join(' ') : ''),
        `seed ${seed}: ${JSON.stringify(reply)} in parts ${JSON.stringify(parts)}`,
      );
    }
  });
});
