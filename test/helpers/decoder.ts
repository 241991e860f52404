import { spawn, spawnSync } from 'node:child_process';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';

// An independent decoder for the encoded formats: Debian's ffmpeg, run as a separate process.
// The tests that need it skip, saying so, where it is not installed (`.ci/run` installs it).

/** False, or why the decoding tests are skipped. */
export const noDecoder: false | string =
  spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0
    ? false
    : 'ffmpeg is not installed (apt-get install ffmpeg; .ci/run installs it)';

/** Runs `command` with `input` on its stdin; resolves its stdout, or rejects with its stderr. */
function run(command: string, args: readonly string[], input: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} failed (${code}): ${Buffer.concat(err).toString().slice(-500)}`));
    });
    // A decoder that stops reading early closes its stdin; that is its answer, not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** What ffmpeg reads `bytes` as: the first audio stream's codec and sample rate. */
export async function probe(bytes: Uint8Array): Promise<{ codec: string; sampleRate: number }> {
  const out = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name,sample_rate',
      '-of',
      'json',
      '-i',
      'pipe:0',
    ],
    bytes,
  );
  const stream = (JSON.parse(out.toString()) as { streams: { codec_name: string; sample_rate: string }[] })
    .streams[0];
  if (!stream) throw new Error('ffprobe found no audio stream');
  return { codec: stream.codec_name, sampleRate: Number(stream.sample_rate) };
}

/**
 * `bytes` decoded by ffmpeg to mono 16-bit samples at `sampleRate`. `rawRate`: the bytes are bare
 * 16-bit little-endian PCM at that rate, which has no header to say so.
 */
export async function decode(bytes: Uint8Array, sampleRate: number, rawRate?: number): Promise<Int16Array> {
  const input = rawRate === undefined ? [] : ['-f', 's16le', '-ar', String(rawRate), '-ac', '1'];
  const out = await run(
    'ffmpeg',
    ['-v', 'error', ...input, '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', String(sampleRate), 'pipe:1'],
    bytes,
  );
  return littleEndianBytesToInt16(
    new Uint8Array(out.buffer, out.byteOffset, out.byteLength - (out.byteLength % 2)),
  );
}

/** What ffmpeg's EBU R128 meter (`ebur128` with `peak=true`) reads in a programme. */
export interface LoudnessReading {
  /** Integrated loudness, LUFS. */
  readonly integrated: number;
  /** True peak, dBTP (ffmpeg prints it as dBFS). */
  readonly truePeak: number;
}

/**
 * The integrated loudness and true peak of `bytes` as ffmpeg measures them. `raw`: bare bytes
 * with no header to say what they are (the stream endpoint's), as ffmpeg's format name
 * (`s16le`, `mulaw`, `alaw`) and rate.
 */
export async function measureLoudness(
  bytes: Uint8Array,
  raw?: { readonly format: 's16le' | 'mulaw' | 'alaw'; readonly sampleRate: number },
): Promise<LoudnessReading> {
  const input = raw === undefined ? [] : ['-f', raw.format, '-ar', String(raw.sampleRate), '-ac', '1'];
  const meter = [...input, '-i', 'pipe:0', '-af', 'ebur128=peak=true', '-f', 'null', '-'];
  // The meter writes its summary to stderr: run with the summary's level and read it from there.
  const summary = await new Promise<string>((resolve, reject) => {
    const child = spawn('ffmpeg', ['-nostats', '-hide_banner', ...meter], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const err: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const text = Buffer.concat(err).toString();
      if (code === 0) resolve(text.slice(text.lastIndexOf('Summary:')));
      else reject(new Error(`ffmpeg failed (${code}): ${text.slice(-500)}`));
    });
    child.stdin.on('error', () => {});
    child.stdin.end(bytes);
  });
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary)?.[1];
  const truePeak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary)?.[1];
  if (integrated === undefined || truePeak === undefined) throw new Error(`no EBU R128 summary: ${summary}`);
  const value = (text: string) => (text === '-inf' ? Number.NEGATIVE_INFINITY : Number(text));
  return { integrated: value(integrated), truePeak: value(truePeak) };
}
