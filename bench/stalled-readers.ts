import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type StalledReader,
  type StalledRequest,
  settledRssMb,
  stalledReader,
} from '../test/helpers/stalled-readers.ts';
import { prepareData, startServer } from './server.ts';
import { fixed, printTable } from './stats.ts';
import { loadTurns, longText } from './turns.ts';

// `npm run bench:stalled` (`-- --streams 30`, `-- --paths stream-pcm16_8k,openai-mp3`, `-- --dir
// DIR` for another built checkout): what a listener who stops reading costs the service. For each
// path, a fresh service started as `npm start` starts it; one request of the path read whole (so
// what its first use loads is in the baseline); then `--streams` requests of 4,000 characters
// whose clients read the response's head and nothing more. The service's resident memory is
// taken before, once it has stopped growing with the readers stalled, and again once it has
// settled after they hung up.

const CHARACTERS = 4_000;

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '30' },
    paths: { type: 'string' },
    dir: { type: 'string' },
    /** The clause cache's size (`CLAUSE_CACHE_MB`); the service's default when absent. */
    'cache-mb': { type: 'string' },
  },
});

const turns = await loadTurns();
const english = longText(turns, 'en', CHARACTERS);

/** Every way a listener can stall: the stream in each format, OpenAI's in each, a live context. */
const paths: Record<string, StalledRequest> = {
  'stream-pcm16_8k': stream('pcm16_8k'),
  'stream-pcm16_24k': stream('pcm16_24k'),
  'stream-mulaw_8k': stream('mulaw_8k'),
  'openai-mp3': openAi('mp3'),
  'openai-opus': openAi('opus'),
  'openai-flac': openAi('flac'),
  'openai-wav': openAi('wav'),
  'openai-pcm': openAi('pcm'),
  'openai-mp3-sse': openAi('mp3', 'sse'),
  'live-pcm16_24k': {
    kind: 'live',
    message: { type: 'text', text: english, language: 'en', format: 'pcm16_24k' },
  },
};

function stream(format: string): StalledRequest {
  return { kind: 'http', path: '/api/v1/tts-stream.php', body: { input: english, language: 'en', format } };
}

function openAi(format: string, streamFormat = 'audio'): StalledRequest {
  return {
    kind: 'http',
    path: '/v1/audio/speech',
    body: {
      model: 'tts-1',
      input: english,
      voice: 'alloy',
      response_format: format,
      stream_format: streamFormat,
    },
  };
}

const chosen = values.paths?.split(',') ?? Object.keys(paths);
const unknown = chosen.filter((name) => !(name in paths));
if (unknown.length > 0)
  throw new Error(`no path ${unknown.join(', ')}; the paths: ${Object.keys(paths).join(', ')}`);
const count = Number(values.streams);
if (!Number.isInteger(count) || count < 1) throw new Error('--streams takes a count');

interface PathFigures {
  readonly path: string;
  readonly beforeMb: number;
  readonly stalledMb: number;
  readonly afterMb: number;
}

const data = await prepareData(1, Math.ceil(count / 20) + 1);
let next = 0;
const key = () => data.keys[next++ % data.keys.length] ?? '';
const figures: PathFigures[] = [];
for (const name of chosen) {
  const request = paths[name] as StalledRequest;
  process.stderr.write(`stalled readers: ${name}\n`);
  const server = await startServer(data.dataDir, {
    env: values['cache-mb'] === undefined ? {} : { CLAUSE_CACHE_MB: values['cache-mb'] },
    ...(values.dir ? { dir: pathToFileURL(`${values.dir}/`) } : {}),
  });
  try {
    const beforeMb = await settledRssMb(server.pid, 10_000);
    const readers: StalledReader[] = [];
    for (let i = 0; i < count; i++) readers.push(await stalledReader(server.base, key(), request));
    const stalledMb = await settledRssMb(server.pid, 60_000);
    for (const reader of readers) reader.close();
    await sleep(1000);
    const afterMb = await settledRssMb(server.pid, 30_000);
    figures.push({ path: name, beforeMb, stalledMb, afterMb });
    process.stderr.write(`  ${fixed(beforeMb, 0)} -> ${fixed(stalledMb, 0)} -> ${fixed(afterMb, 0)} MB\n`);
  } finally {
    await server.stop();
  }
}
printTable(
  ['path', 'before MB', `${count} stalled MB`, 'per stream MB', 'after close MB'],
  figures.map((f) => [
    f.path,
    fixed(f.beforeMb, 0),
    fixed(f.stalledMb, 0),
    fixed((f.stalledMb - f.beforeMb) / count, 2),
    fixed(f.afterMb, 0),
  ]),
);
