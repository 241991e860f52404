/**
 * The stream formats of the API, as one table. Names and content types are fixed by the API
 * contract; everything else about a format (frame size, silence) is derived here so that the
 * framer, the encoder and the HTTP headers cannot disagree.
 */

/** The value of the `X-Voice-Encoding` header: how the bytes of a stream are to be read. */
export type StreamEncoding = 'pcm_s16le' | 'mulaw' | 'alaw';

/** Every stream format name, default first; usable as a zod enum (`z.enum(streamFormatNames)`). */
export const streamFormatNames = [
  'pcm16_8k',
  'pcm16_16k',
  'pcm16_24k',
  'mulaw_8k',
  'alaw_8k',
  'pcm16_22k',
  'pcm16_44k',
] as const;

export type StreamFormatName = (typeof streamFormatNames)[number];

export interface StreamFormat {
  readonly name: StreamFormatName;
  readonly contentType: string;
  readonly sampleRate: number;
  readonly encoding: StreamEncoding;
  readonly bytesPerSample: number;
  /** Bytes in one 20 ms frame: every streamed chunk is a whole number of these. */
  readonly bytesPerFrame: number;
  /** The byte that decodes to (nearly) zero amplitude, used to pad the last frame. */
  readonly silenceByte: number;
}

/** Frames are 20 ms: the packet time of RTP telephony (G.711 payloads of 160 bytes at 8 kHz). */
export const FRAME_MS = 20;

// Linear PCM zero is 0x00 in both bytes. G.711 has no code for exact zero: mu-law 0xFF and
// A-law 0xD5 are the codes an encoder gives for 0, and decode to 0 and +8 (of 32768).
const PCM_SILENCE = 0x00;
const MULAW_SILENCE = 0xff;
const ALAW_SILENCE = 0xd5;

function format(
  name: StreamFormatName,
  contentType: string,
  sampleRate: number,
  encoding: StreamEncoding,
  silenceByte: number,
): StreamFormat {
  const bytesPerSample = encoding === 'pcm_s16le' ? 2 : 1;
  const bytesPerFrame = (sampleRate * FRAME_MS * bytesPerSample) / 1000;
  return Object.freeze({
    name,
    contentType,
    sampleRate,
    encoding,
    bytesPerSample,
    bytesPerFrame,
    silenceByte,
  });
}

/** The formats by name. */
export const streamFormats: Readonly<Record<StreamFormatName, StreamFormat>> = Object.freeze({
  pcm16_8k: format('pcm16_8k', 'audio/l16', 8000, 'pcm_s16le', PCM_SILENCE),
  pcm16_16k: format('pcm16_16k', 'audio/l16', 16000, 'pcm_s16le', PCM_SILENCE),
  pcm16_24k: format('pcm16_24k', 'audio/l16', 24000, 'pcm_s16le', PCM_SILENCE),
  mulaw_8k: format('mulaw_8k', 'audio/basic', 8000, 'mulaw', MULAW_SILENCE),
  alaw_8k: format('alaw_8k', 'audio/x-alaw-basic', 8000, 'alaw', ALAW_SILENCE),
  // The CD-family rates that voice-agent frameworks default to (LiveKit's ElevenLabs plugin asks
  // for 22,050 Hz; custom-voice webhooks for 22,050 or 44,100): 441 and 882 samples a frame.
  pcm16_22k: format('pcm16_22k', 'audio/l16', 22050, 'pcm_s16le', PCM_SILENCE),
  pcm16_44k: format('pcm16_44k', 'audio/l16', 44100, 'pcm_s16le', PCM_SILENCE),
});

/** The format a stream request gets when it names none. */
export const defaultStreamFormat: StreamFormat = streamFormats.pcm16_8k;

/** True when `value` is the name of a stream format (exact, case-sensitive, as clients send it). */
export function isStreamFormatName(value: unknown): value is StreamFormatName {
  return typeof value === 'string' && (streamFormatNames as readonly string[]).includes(value);
}

/**
 * The format for a request's `format` field: the default when it is absent, `undefined` when
 * it names no format (the caller answers 400 `unsupported_format`, listing `streamFormatNames`).
 */
export function parseStreamFormat(value: unknown): StreamFormat | undefined {
  if (value === undefined) return defaultStreamFormat;
  return isStreamFormatName(value) ? streamFormats[value] : undefined;
}
