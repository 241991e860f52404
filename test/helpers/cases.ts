import assert from 'node:assert/strict';
import { it } from 'node:test';

/** One test per (input, expected) pair: `transform(input)` must equal `expected`. */
export function expectCases<T>(
  transform: (input: T) => string,
  cases: readonly (readonly [T, string])[],
): void {
  for (const [input, expected] of cases) {
    it(`${typeof input === 'string' ? JSON.stringify(input) : String(input)} -> ${expected}`, () =>
      assert.equal(transform(input), expected));
  }
}
