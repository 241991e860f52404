/**
 * The word errors of a transcript: the fewest substitutions, deletions and insertions that turn
 * `expected` into `heard` (the numerator of the word error rate).
 */
export function wordErrors(expected: readonly string[], heard: readonly string[]): number {
  let previous = Array.from({ length: heard.length + 1 }, (_, j) => j);
  for (const [i, word] of expected.entries()) {
    const current = [i + 1];
    for (const [j, candidate] of heard.entries()) {
      const substitution = (previous[j] as number) + (word === candidate ? 0 : 1);
      current.push(Math.min(substitution, (previous[j + 1] as number) + 1, (current[j] as number) + 1));
    }
    previous = current;
  }
  return previous[heard.length] as number;
}
