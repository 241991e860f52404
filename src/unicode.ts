/** Unicode code points in `text`: the unit of every character limit, of the token rule and of the audio bound. */
export function codePointCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
