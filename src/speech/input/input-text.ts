/**
 * What a client's `input` may hold, and how it becomes a speech document: the one gate every
 * path that speaks a client's text passes (file, stream, studio, the `say` command). Plain text
 * is data whatever it contains; SSML is parsed by Ijwi (ssml/), never by an engine.
 */

import { ipaReaderOf } from '../engines/registry.ts';
import { markdownDocument } from '../markdown/read.ts';
import { parseSsml } from '../ssml/read.ts';
import { clientText } from '../text/word-language/marks.ts';
import type { Voice } from '../voices/voices.ts';
import { firstForbiddenCharacter } from './control-characters.ts';
import type { SpeechDocument } from './document.ts';

/** How `input` is to be read: plain text (the default) or an SSML `<speak>` document. */
export const textTypes = ['text', 'ssml'] as const;
export type TextType = (typeof textTypes)[number];

export type InputTextResult =
  | { readonly ok: true; readonly document: SpeechDocument }
  | {
      readonly ok: false;
      readonly code: 'invalid_input';
      readonly message: string;
      /** Of the first offending character, in code points from the start of the input as sent. */
      readonly position: number;
    }
  | {
      readonly ok: false;
      readonly code: 'invalid_ssml';
      readonly message: string;
      readonly element: string | null;
      readonly line: number;
      readonly column: number;
    };

/**
 * Checks a client's input and reads it as `textType` for `voice`. Control characters other
 * than tab, line feed and carriage return are refused with their position, never dropped, so
 * text is never silently cut short; SSML errors name the element, line and column.
 */
export function readInputText(input: string, textType: TextType, voice: Voice): InputTextResult {
  const forbidden = firstForbiddenCharacter(input);
  if (forbidden) {
    return {
      ok: false,
      code: 'invalid_input',
      position: forbidden.position,
      message:
        `input holds the control character ${forbidden.name} at position ${forbidden.position} ` +
        '(counting characters from 0); only tab, line feed and carriage return are allowed',
    };
  }
  const text = clientText(input);
  if (textType === 'text') return { ok: true, document: markdownDocument(text) };
  const readIpa = ipaReaderOf(voice);
  const parsed = parseSsml(text, { language: voice.language, ...(readIpa ? { readIpa } : {}) });
  if (parsed.ok) return parsed;
  return { ok: false, code: 'invalid_ssml', ...parsed.error };
}
