import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The installed version of an engine's npm package: what its audio may change with. */
export function packageVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}
