/**
 * Characters no text of a request may hold: Unicode's control characters (C0, DEL, C1) other
 * than tab, line feed and carriage return, and halves of a surrogate pair standing alone, which
 * no encoding can carry as text. Refused wherever they come from (the input itself, or an SSML
 * character reference), never dropped, so text is never silently cut short.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const FORBIDDEN = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]|\p{Cs}/u;

/** The first forbidden character of `text`: its position in code points from 0, and its U+ name. */
export function firstForbiddenCharacter(text: string): { position: number; name: string } | undefined {
  if (!FORBIDDEN.test(text)) return undefined;
  let position = 0;
  for (const character of text) {
    if (FORBIDDEN.test(character)) {
      const code = character.codePointAt(0) ?? 0;
      return { position, name: `U+${code.toString(16).toUpperCase().padStart(4, '0')}` };
    }
    position++;
  }
  return undefined;
}
