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

/** LiveKit Agents, which its speech plugins need loaded, with a logger, before they run. */
const LIVEKIT_AGENTS = '@livekit/agents';

/** False, or why the tests of LiveKit's plugin `plugin` are skipped (it or Agents missing). */
export function missingLiveKit(plugin: string): false | string {
  return missingTestClient(LIVEKIT_AGENTS) || missingTestClient(plugin);
}

/** LiveKit's plugin `plugin`, Agents' logger started first at `level`, as the plugins require. */
export function loadLiveKitPlugin(plugin: string, level: 'warn' | 'error'): unknown {
  const agents = loadTestClient(LIVEKIT_AGENTS) as {
    initializeLogger(options: { pretty: boolean; level: string }): void;
  };
  agents.initializeLogger({ pretty: false, level });
  return loadTestClient(plugin);
}

/** One frame of audio from a LiveKit TTS plugin. */
export interface LiveKitAudioFrame {
  readonly data: Int16Array;
  readonly sampleRate: number;
}

/** A LiveKit TTS plugin's stream: text pushed in, frames (and end-of-segment markers) out. */
export interface LiveKitSynthesizeStream extends AsyncIterable<{ frame: LiveKitAudioFrame } | symbol> {
  pushText(text: string): void;
  flush(): void;
  endInput(): void;
  close(): void;
  on(event: 'error', listener: (error: unknown) => void): void;
}
