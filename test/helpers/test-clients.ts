import { createRequire } from 'node:module';

// The third-party clients the compatibility tests drive live in their own package (`test/clients/`,
// installed by `npm run test:clients`, which `npm test` runs first), so they are loaded from there
// by name at run time; the typecheck never needs them installed.
const requireClient = createRequire(new URL('../clients/package.json', import.meta.url));

/** False, or why the tests that drive `name` are skipped (the test package is not installed). */
export function missingTestClient(name: string): false | string {
  try {
    requireClient.resolve(name);
    return false;
  } catch {
    return `${name} is not installed; run npm run test:clients`;
  }
}

/** The module `name` of the test package, to be read through the narrow type its test declares. */
export function loadTestClient(name: string): unknown {
  return requireClient(name);
}
