import { mkdir, rm, writeFile } from 'node:fs/promises';
import WebSocket from 'ws';
import { firstByteMs } from './http-client.ts';
import { NO_CLAUSE_CACHE, prepareData, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';

// The compatible ways in (`-- --only compat`): one call's first audio through each, against the
// native endpoint of the same kind in the same run, the same text and voice, one call at a time,
// the paths taking turns. HTTP: from sending the request to the first byte of audio (the native
// stream, OpenAI's speech, ElevenLabs' stream, Vapi's voice-request, Deepgram's speak, Cartesia's
// /tts/bytes, jambonz's HTTP form, all 16 kHz PCM but OpenAI's 24 kHz). WebSocket, on a socket
// already open: from sending a context's whole text (with its flush and end) to its first audio
// frame (Ijwi's live socket, ElevenLabs' multi-stream-input, Deepgram's speak socket, Cartesia's
// /tts/websocket, jambonz's streaming form). Then the playable URL for an IVR platform: a
// 300-character reply's first byte through its URL (made beforehand) against the file endpoint's
// whole file (tts.php answered, then its output_url downloaded), as a platform that plays a URL
// would otherwise get it.

const TEXTS = [
  {
    voice: 'keza',
    language: 'rw',
    tag: 'rw-RW',
    speakerId: 0,
    text: 'Muraho, murakaza neza kuri kliniki yacu. Mbese nabafasha iki?',
  },
  {
    voice: 'grace',
    language: 'en',
    tag: 'en-US',
    speakerId: 0,
    text: 'Good morning, thank you for calling. How can I help you today?',
  },
  {
    voice: 'claire',
    language: 'fr',
    tag: 'fr-FR',
    speakerId: 0,
    text: 'Bonjour, merci de votre appel. Comment puis-je vous aider?',
  },
] as const;

type Text = (typeof TEXTS)[number];

const CARTESIA_VERSION = '2025-04-16';
const RAW_16K = { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 } as const;

/** A 300-character reply (code points), as an agent might answer a caller. */
const REPLY_300 = (
  'Thank you for calling the Kigali Dental clinic. Your appointment is confirmed for Tuesday at ten ' +
  'in the morning with Doctor Uwase. Please arrive fifteen minutes early and bring your insurance card. ' +
  'If you need to change the time, call us back on this number or reply to the text message we sent you today.'
).slice(0, 300);

const json = (headers: Record<string, string>, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** The HTTP paths, each a first-byte measurement of one text. */
function httpPaths(base: string, key: (path: string) => string) {
  return {
    'native stream': (t: Text) =>
      firstByteMs(
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
        'cancel',
      ),
    'OpenAI speech': (t: Text) =>
      firstByteMs(
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
        'cancel',
      ),
    'ElevenLabs stream': (t: Text) =>
      firstByteMs(
        `${base}/elevenlabs/v1/text-to-speech/${t.voice}/stream?output_format=pcm_16000`,
        json({ 'xi-api-key': key('elevenlabs') }, { text: t.text, model_id: 'eleven_flash_v2_5' }),
        'cancel',
      ),
    'Deepgram speak': (t: Text) =>
      firstByteMs(
        `${base}/deepgram/v1/speak?model=${t.voice}&encoding=linear16&sample_rate=16000&container=none`,
        json({ authorization: `Token ${key('deepgram')}` }, { text: t.text }),
        'cancel',
      ),
    'Cartesia /tts/bytes': (t: Text) =>
      firstByteMs(
        `${base}/cartesia/tts/bytes`,
        json(
          { authorization: `Bearer ${key('cartesia')}`, 'cartesia-version': CARTESIA_VERSION },
          {
            model_id: 'sonic-2',
            transcript: t.text,
            voice: { mode: 'id', id: t.voice },
            language: t.language,
            output_format: RAW_16K,
          },
        ),
        'cancel',
      ),
    'jambonz HTTP': (t: Text) =>
      firstByteMs(
        `${base}/jambonz?format=l16&rate=16000`,
        json(
          { authorization: `Bearer ${key('jambonz')}` },
          { language: t.tag, voice: t.voice, type: 'text', text: t.text },
        ),
        'cancel',
      ),
    'Vapi voice-request': (t: Text) =>
      firstByteMs(
        `${base}/vapi/${t.voice}`,
        json(
          { 'x-vapi-secret': key('vapi') },
          {
            message: { type: 'voice-request', text: t.text, sampleRate: 16000 },
          },
        ),
        'cancel',
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
  // Deepgram's and jambonz's sockets send their audio as binary frames.
  socket.on('message', (data, isBinary) =>
    waiting?.(isBinary ? { binary: true } : (JSON.parse(data.toString()) as Record<string, unknown>)),
  );
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
    /** Sends `frame` and resolves once the server has closed the socket. */
    async closedAfter(frame: unknown) {
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.send(JSON.stringify(frame));
      await closed;
    },
  };
}

export interface CompatResults {
  readonly rounds: number;
  readonly http: Readonly<Record<string, Percentiles>>;
  readonly websocket: Readonly<Record<string, Percentiles>>;
  /** A 300-character reply for a player that takes a URL (`playTimes`). */
  readonly playable: Readonly<Record<string, Percentiles>>;
}

/** Ms to the whole body of a GET of `url`. */
async function wholeBody(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  await response.arrayBuffer();
  return performance.now() - started;
}

/**
 * The playable URL against the file endpoint, for one reply: the URL's making, its first GET's
 * first byte, and the file endpoint's whole file (tts.php's answer, then its file downloaded).
 */
async function playTimes(
  base: string,
  key: (path: string) => string,
): Promise<{ make: number; firstByte: number; file: number }> {
  const body = { input: REPLY_300, language: 'en', speaker_id: 0 };
  let started = performance.now();
  const made = await fetch(
    `${base}/api/v1/tts-url.php`,
    json({ authorization: `Bearer ${key('play')}` }, body),
  );
  if (made.status !== 200) throw new Error(`tts-url.php: ${made.status} ${await made.text()}`);
  const { play_url: playUrl } = (await made.json()) as { play_url: string };
  const make = performance.now() - started;
  const firstByte = await firstByteMs(`${base}${new URL(playUrl).pathname}`, { method: 'GET' }, 'cancel');
  started = performance.now();
  const file = await fetch(
    `${base}/api/v1/tts.php`,
    json({ authorization: `Bearer ${key('file')}` }, { ...body, output_format: 'wav' }),
  );
  if (file.status !== 200) throw new Error(`tts.php: ${file.status} ${await file.text()}`);
  const { output_url: outputUrl } = (await file.json()) as { output_url: string };
  await wholeBody(`${base}${new URL(outputUrl).pathname}`);
  return { make, firstByte, file: performance.now() - started };
}

export async function benchCompat(rounds: number, progress: (line: string) => void): Promise<CompatResults> {
  const paths = [
    'native',
    'openai',
    'elevenlabs',
    'vapi',
    'deepgram',
    'cartesia',
    'jambonz',
    'live',
    'elevenlabs-ws',
    'deepgram-ws',
    'cartesia-ws',
    'jambonz-ws',
    'play',
    'file',
  ];
  // A key per path, so that no path meets the per-key rate limit.
  const data = await prepareData(1, paths.length);
  const keyOf = (path: string) => data.keys[paths.indexOf(path)] as string;
  const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE });
  try {
    const http = httpPaths(server.base, keyOf);
    const httpTimes: Record<string, number[]> = Object.fromEntries(
      Object.keys(http).map((name) => [name, []]),
    );
    const wsTimes: Record<string, number[]> = {
      'Ijwi live': [],
      'ElevenLabs multi-stream-input': [],
      'Deepgram speak socket': [],
      'Cartesia /tts/websocket': [],
      'jambonz streaming': [],
    };
    const playable: Record<string, number[]> = {
      'play URL: making it (tts-url.php)': [],
      'play URL: first byte of its first GET': [],
      'file: tts.php, then the whole file': [],
    };
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
        const deepgram = await openSocket(
          `${ws}/deepgram/v1/speak?model=${text.voice}&encoding=linear16&sample_rate=16000`,
          { authorization: `Token ${keyOf('deepgram-ws')}` },
        );
        wsTimes['Deepgram speak socket']?.push(
          await deepgram.time(
            [{ type: 'Speak', text: text.text }, { type: 'Flush' }],
            (f) => f.binary === true,
            (f) => f.type === 'Flushed',
          ),
        );
        deepgram.close();
        const cartesia = await openSocket(
          `${ws}/cartesia/tts/websocket?api_key=${keyOf('cartesia-ws')}&cartesia_version=${CARTESIA_VERSION}`,
          {},
        );
        wsTimes['Cartesia /tts/websocket']?.push(
          await cartesia.time(
            [
              {
                model_id: 'sonic-2',
                transcript: text.text,
                voice: { mode: 'id', id: text.voice },
                language: text.language,
                context_id: id,
                output_format: RAW_16K,
                continue: false,
              },
            ],
            (f) => f.type === 'chunk',
            (f) => f.type === 'done',
          ),
        );
        cartesia.close();
        const jambonz = await openSocket(
          `${ws}/jambonz?voice=${text.voice}&language=${text.tag}&sampleRate=16000`,
          { authorization: `Bearer ${keyOf('jambonz-ws')}` },
        );
        // Its stream has no end of turn: the first audio frame is the figure.
        wsTimes['jambonz streaming']?.push(
          await jambonz.time(
            [{ type: 'stream', text: text.text }, { type: 'flush' }],
            (f) => f.binary === true,
            (f) => f.binary === true,
          ),
        );
        // Its `stop` ends the turn's audio; a socket closed mid-turn would be a hang-up.
        await jambonz.closedAfter({ type: 'stop' });
      }
      const play = await playTimes(server.base, keyOf);
      playable['play URL: making it (tts-url.php)']?.push(play.make);
      playable['play URL: first byte of its first GET']?.push(play.firstByte);
      playable['file: tts.php, then the whole file']?.push(play.file);
    }
    const summary = (times: Record<string, number[]>) =>
      Object.fromEntries(Object.entries(times).map(([name, values]) => [name, percentiles(values)]));
    return { rounds, http: summary(httpTimes), websocket: summary(wsTimes), playable: summary(playable) };
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
  console.log(`\nA 300-character reply for a player that takes a URL, ${results.rounds} rounds (en)`);
  printTable(
    ['playable URL or file', 'n', 'p50 ms', 'p95 ms', 'p95 vs whole file'],
    rows(results.playable, 'file: tts.php, then the whole file'),
  );
}

/** Writes the figures to bench/results/compat.json. */
export async function saveCompat(results: CompatResults): Promise<void> {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('compat.json', dir), `${JSON.stringify(results, null, 2)}\n`);
}
