import { mkdir, rm, writeFile } from 'node:fs/promises';
import { firstByteMs } from './http-client.ts';
import { NO_CLAUSE_CACHE, prepareData, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';

// Pronunciation dictionaries (`-- --only dictionaries`), against the service as `npm start` runs
// it: a stream request's first byte naming three dictionaries of 300 entries each beside the same
// request naming none, one call at a
// time, the two taking turns with the same texts; the first call after a new version (its lexicon
// compiled) apart. Then the import of a 1,000-entry PLS file (500 respellings, 500 IPA entries,
// each IPA checked against every English voice) through POST /api/v1/dictionaries.

// No text holds a phrase of the dictionaries, so both sides speak the same audio and the
// difference is the look-up and the matching alone (a respelling would change the audio itself).
const TEXTS = [
  'Good morning, the doctor will see you at ten.',
  'Your table for four is booked, see you on Friday.',
  'Thank you for calling, how can I help you today?',
];
const ENTRIES_PER_DICTIONARY = 300;

const post = (key: string, body: string, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
  body,
});

function plsOf(count: number): string {
  const lexemes = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? `  <lexeme><grapheme>Name${i}</grapheme><alias>nah may ${i}</alias></lexeme>\n`
      : `  <lexeme><grapheme>Place${i}</grapheme><phoneme>njanza</phoneme></lexeme>\n`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en">
${lexemes}</lexicon>
`;
}

export interface DictionaryResults {
  readonly rounds: number;
  readonly none: Percentiles;
  readonly three: Percentiles;
  /** The first call naming the three at their new versions (compiled then), ms. */
  readonly threeFirstMs: number;
  /** Importing a 1,000-entry PLS file, ms per import. */
  readonly plsImport: Percentiles;
}

export async function benchDictionaries(
  rounds: number,
  progress: (line: string) => void,
): Promise<DictionaryResults> {
  // Keys enough that no side meets the per-key rate limit of 30 a minute.
  const data = await prepareData(1, 8);
  let turn = 0;
  const key = () => data.keys[turn++ % data.keys.length] as string;
  const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE });
  try {
    const ids: string[] = [];
    for (let d = 0; d < 3; d++) {
      const entries = Array.from({ length: ENTRIES_PER_DICTIONARY }, (_, i) => ({
        language: 'en',
        phrase: `Business${d}Name${i}`,
        kind: 'respelling',
        says: `business ${d} name ${i}`,
      }));
      const response = await fetch(
        `${server.base}/api/v1/dictionaries`,
        post(key(), JSON.stringify({ name: `business ${d}`, entries })),
      );
      if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { id: string }).id);
    }
    const stream = (text: string, dictionaries?: unknown) =>
      firstByteMs(
        `${server.base}/api/v1/tts-stream.php`,
        post(key(), JSON.stringify({ input: text, language: 'en', format: 'pcm16_8k', dictionaries })),
        'read',
      );
    const selection = ids.map((id) => ({ id }));
    const threeFirstMs = await stream(TEXTS[0] as string, selection);
    // Warm both sides once, then take turns.
    await stream(TEXTS[0] as string);
    const none: number[] = [];
    const three: number[] = [];
    for (let round = 0; round < rounds; round++) {
      progress(`dictionaries: round ${round + 1} of ${rounds}`);
      for (const text of TEXTS) {
        none.push(await stream(text));
        three.push(await stream(text, selection));
      }
    }
    const pls = plsOf(1000);
    // At most 10 imports: with the three and the default, within the account's 50 dictionaries.
    const imports: number[] = [];
    for (let i = 0; i < Math.max(3, Math.min(rounds, 10)); i++) {
      const started = performance.now();
      const response = await fetch(
        `${server.base}/api/v1/dictionaries?name=import${i}`,
        post(key(), pls, 'application/pls+xml'),
      );
      if (response.status !== 201) throw new Error(`import: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      imports.push(performance.now() - started);
    }
    return {
      rounds,
      none: percentiles(none),
      three: percentiles(three),
      threeFirstMs,
      plsImport: percentiles(imports),
    };
  } finally {
    await server.stop();
    await rm(data.dataDir, { recursive: true, force: true });
  }
}

export function printDictionaries(results: DictionaryResults): void {
  console.log(
    `\nPronunciation dictionaries: a stream's first byte naming three of ${ENTRIES_PER_DICTIONARY} entries ` +
      `against none, ${results.rounds} rounds of ${TEXTS.length} texts, one call at a time`,
  );
  printTable(
    ['request', 'n', 'p50 ms', 'p95 ms', 'p50 vs none', 'p95 vs none'],
    [
      [
        'no dictionary',
        String(results.none.n),
        fixed(results.none.p50),
        fixed(results.none.p95),
        '1.00x',
        '1.00x',
      ],
      [
        'three dictionaries',
        String(results.three.n),
        fixed(results.three.p50),
        fixed(results.three.p95),
        ratio(results.three.p50, results.none.p50),
        ratio(results.three.p95, results.none.p95),
      ],
    ],
  );
  console.log(
    `first call naming the three at new versions (lexicon compiled): ${fixed(results.threeFirstMs)} ms`,
  );
  printTable(
    ['import of a 1,000-entry PLS file (HTTP)', 'n', 'p50 ms', 'max ms'],
    [
      [
        'POST /api/v1/dictionaries',
        String(results.plsImport.n),
        fixed(results.plsImport.p50),
        fixed(results.plsImport.max),
      ],
    ],
  );
}

/** Writes the figures to bench/results/dictionaries.json. */
export async function saveDictionaries(results: DictionaryResults): Promise<void> {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('dictionaries.json', dir), `${JSON.stringify(results, null, 2)}\n`);
}
