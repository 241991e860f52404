import { existsSync } from 'node:fs';

/** Debian's Chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** False, or why the browser tests are skipped. */
export const noChromium: false | string = !existsSync(CHROMIUM) && 'Chromium is not installed (see .ci/run)';

// Background services and QUIC would try to reach the internet; the sandbox needs a user namespace.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
