import { mkdir, rm, writeFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { NO_CLAUSE_CACHE, prepareData, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';

// The compatible ways in (`-- --only compat`): one call's first audio through each, against the
// native endpoint of the same kind in the same run, the same text and voice, one call at a time,
// the paths taking turns. HTTP: from sending the request to the first byte of audio (the native
// stream, OpenAI's speech, ElevenLabs' stream, Vapi's voice-request, all 16 kHz PCM but OpenAI's
// 24 kHz). WebSocket, on a socket already open: from sending a context's whole text (with its
// flush and end) to its first audio frame (Ijwi's live socket, ElevenLabs' multi-stream-input).

const TEXTS = [
  {
    voice: 'keza',
    language: 'rw',
    speakerId: 0,
    text: 'Muraho, murakaza neza kuri kliniki yacu. Mbese nabafasha iki?',
  },
  {
    voice: 'grace',
    language: 'en',
    speakerId: 0,
    text: 'Good morning, thank you for calling. How can I help you today?',
  },
  {
    voice: 'claire',
    language: 'fr',
    speakerId: 0,
    text: 'Bonjour, merci de votre appel. Comment puis-je vous aider?',
  },
] as const;

type Text = (typeof TEXTS)[number];

/** Ms from `start` to the first byte of the response body. */
async function firstByte(url: string, init: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, init);
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const first = await reader.read();
  const ms = performance.now() - started;
  if (first.done) throw new Error('an empty body');
  await reader.cancel();
  return ms;
}

const json = (headers: Record<string, string>, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The HTTP paths, each a first-byte measurement of one text. */
function httpPaths(base: string, key: (path: string) => string) {
  return {
    'native stream': (t: Text) =>
      firstByte(
        `${base}/api/v1/tts-stream.php`,
        json(
          { authorization: `Bearer ${key('native')}` },
          {
            input: t.text,
            language: t.language,
            speaker_id: t.speakerId,
            format: 'pcm16_16k',
          },
        ),
      ),
    'OpenAI speech': (t: Text) =>
      firstByte(
        `${base}/v1/audio/speech`,
        json(
          { authorization: `Bearer ${key('openai')}` },
          {
            model: 'tts-1',
            input: t.text,
            voice: t.voice,
            response_format: 'pcm',
          },
        ),
      ),
    'ElevenLabs stream': (t: Text) =>
      firstByte(
        `${base}/elevenlabs/v1/text-to-speech/${t.voice}/stream?output_format=pcm_16000`,
        json({ 'xi-api-key': key('elevenlabs') }, { text: t.text, model_id: 'eleven_flash_v2_5' }),
      ),
    'Vapi voice-request': (t: Text) =>
      firstByte(
        `${base}/vapi/${t.voice}`,
        json(
          { 'x-vapi-secret': key('vapi') },
          {
            message: { type: 'voice-request', text: t.text, sampleRate: 16000 },
          },
        ),
      ),
  };
}

/** A WebSocket kept open, whose context's first audio frame is timed from its text. */
async function openSocket(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let waiting: ((frame: Record<string, unknown>) => void) | undefined;
  socket.on('message', (data) => waiting?.(JSON.parse(data.toString()) as Record<string, unknown>));
  return {
    /** Sends `frames` and resolves the ms to the first frame `isAudio` accepts. */
    time(
      frames: readonly unknown[],
      isAudio: (frame: Record<string, unknown>) => boolean,
      done: (frame: Record<string, unknown>) => boolean,
    ) {
      return new Promise<number>((resolve, reject) => {
        let first: number | undefined;
        const started = performance.now();
        const timer = setTimeout(() => reject(new Error(`${url}: no audio in 30 s`)), 30_000);
        waiting = (frame) => {
          if ('error' in frame && frame.error !== undefined) reject(new Error(JSON.stringify(frame)));
          if (first === undefined && isAudio(frame)) first = performance.now() - started;
          if (done(frame) && first !== undefined) {
            clearTimeout(timer);
            resolve(first);
          }
        };
        for (const frame of frames) socket.send(JSON.stringify(frame));
      });
    },
    close: () => socket.close(),
  };
}

export interface CompatResults {
  readonly rounds: number;
  readonly http: Readonly<Record<string, Percentiles>>;
  readonly websocket: Readonly<Record<string, Percentiles>>;
}

export async function benchCompat(rounds: number, progress: (line: string) => void): Promise<CompatResults> {
  const paths = ['native', 'openai', 'elevenlabs', 'vapi', 'live', 'elevenlabs-ws'];
  // A key per path, so that no path meets the per-key rate limit.
  const data = await prepareData(1, paths.length);
  const keyOf = (path: string) => data.keys[paths.indexOf(path)] as string;
  const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE });
  try {
    const http = httpPaths(server.base, keyOf);
    const httpTimes: Record<string, number[]> = Object.fromEntries(
      Object.keys(http).map((name) => [name, []]),
    );
    const wsTimes: Record<string, number[]> = { 'Ijwi live': [], 'ElevenLabs multi-stream-input': [] };
    const ws = server.base.replace(/^http/, 'ws');
    let context = 0;
    for (let round = 0; round < rounds; round++) {
      progress(`compat: round ${round + 1} of ${rounds}`);
      for (const text of TEXTS) {
        for (const [name, call] of Object.entries(http)) httpTimes[name]?.push(await call(text));
        const live = await openSocket(`${ws}/api/v1/tts-live`, { authorization: `Bearer ${keyOf('live')}` });
        const id = `c${++context}`;
        wsTimes['Ijwi live']?.push(
          await live.time(
            [
              {
                type: 'text',
                context_id: id,
                text: text.text,
                language: text.language,
                speaker_id: text.speakerId,
                format: 'pcm16_16k',
              },
              { type: 'end', context_id: id },
            ],
            (f) => f.type === 'audio',
            (f) => f.type === 'done',
          ),
        );
        live.close();
        const eleven = await openSocket(
          `${ws}/elevenlabs/v1/text-to-speech/${text.voice}/multi-stream-input?output_format=pcm_16000`,
          { 'xi-api-key': keyOf('elevenlabs-ws') },
        );
        wsTimes['ElevenLabs multi-stream-input']?.push(
          await eleven.time(
            [
              { text: ' ', context_id: id },
              { text: text.text, context_id: id, flush: true },
              { text: '', context_id: id, flush: true },
            ],
            (f) => typeof f.audio === 'string' && f.audio !== '',
            (f) => f.isFinal === true,
          ),
        );
        eleven.close();
      }
    }
    const summary = (times: Record<string, number[]>) =>
      Object.fromEntries(Object.entries(times).map(([name, values]) => [name, percentiles(values)]));
    return { rounds, http: summary(httpTimes), websocket: summary(wsTimes) };
  } finally {
    await server.stop();
    await rm(data.dataDir, { recursive: true, force: true });
  }
}

export function printCompat(results: CompatResults): void {
  const rows = (group: Readonly<Record<string, Percentiles>>, native: string) =>
    Object.entries(group).map(([name, p]) => [
      name,
      String(p.n),
      fixed(p.p50),
      fixed(p.p95),
      ratio(p.p95, group[native]?.p95),
    ]);
  console.log(
    `\nCompatible ways in: first audio, one call at a time, ${results.rounds} rounds of rw, en, fr`,
  );
  printTable(['HTTP path', 'n', 'p50 ms', 'p95 ms', 'p95 vs native'], rows(results.http, 'native stream'));
  printTable(
    ['WebSocket (open socket, text sent whole)', 'n', 'p50 ms', 'p95 ms', 'p95 vs live'],
    rows(results.websocket, 'Ijwi live'),
  );
}

/** Writes the figures to bench/results/compat.json. */
export async function saveCompat(results: CompatResults): Promise<void> {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('compat.json', dir), `${JSON.stringify(results, null, 2)}\n`);
}
