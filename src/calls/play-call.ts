import { streamFormats } from '../speech/audio/formats.ts';
import { wavHeader } from '../speech/audio/wav.ts';
import type { SynthesisEvent } from '../speech/synthesize.ts';
import type { FileDraft, GeneratedFileStore } from '../store/files/file-store.ts';
import type { CallLog, CallServices } from './call-services.ts';
import type { PlayFormat } from './play-urls.ts';
import type { CallResult } from './refusal.ts';
import { type StreamCall, type StreamDelivery, speakStream } from './stream-call.ts';

/**
 * A playable URL's WAV: 16-bit PCM at 8 kHz, what every telephone line plays and the only WAV
 * rate Asterisk's `Playback` reads as `.wav`.
 */
export const PLAY_WAV_FORMAT = streamFormats.pcm16_8k;

/** How a playable URL's first fetch ended. */
export interface PlayedStream {
  /** The first audio reached the client, and the call was charged (by the stream's rule). */
  readonly heard: boolean;
  /** The whole audio, stored for later fetches; absent when it was cut short or not stored. */
  readonly fileId?: string;
}

/**
 * Speaks a playable URL's first fetch: the stream call (`stream-call.ts`, charged by its rule) to
 * `delivery`, its audio also written, as it goes, to a file of the store. A client gone before the
 * first audio stops it uncharged, as any stream; once the first audio was heard (and charged), the
 * synthesis goes on to the end even if that client goes, so that the audio paid for is stored
 * whole for the next fetch. A store that fails only leaves the URL without stored audio: it never
 * stops the stream nor touches its charge.
 */
export async function speakAndStore(
  services: CallServices,
  files: GeneratedFileStore,
  call: StreamCall,
  format: PlayFormat,
  delivery: StreamDelivery,
  log: CallLog,
): Promise<CallResult<PlayedStream>> {
  const draft = await files.create(
    format,
    format === 'wav' ? wavHeader(0, PLAY_WAV_FORMAT.sampleRate).length : 0,
  );
  const keeping = new Keeping(draft, log);
  const synthesis = new AbortController();
  let heard = false;
  let ended = false;
  const follow = () => {
    if (!heard) synthesis.abort(delivery.signal.reason);
  };
  if (delivery.signal.aborted) follow();
  else delivery.signal.addEventListener('abort', follow, { once: true });
  async function* stored(events: AsyncIterator<SynthesisEvent>): AsyncGenerator<SynthesisEvent> {
    for (;;) {
      const next = await events.next();
      if (next.done) return;
      if (next.value.type === 'audio') await keeping.append(next.value.bytes);
      else if (next.value.type === 'end') ended = true;
      yield next.value;
    }
  }
  const storing: StreamDelivery = {
    signal: synthesis.signal,
    async handFirst(first, billing) {
      heard = await delivery.handFirst(first, billing);
      if (heard) await keeping.append(first.audio.bytes);
      return heard;
    },
    sendRest: (events, delivered) => delivery.sendRest(stored(events), delivered),
    cut: () => delivery.cut(),
  };
  try {
    const outcome = await speakStream(services, call, storing, log);
    if (!outcome.ok) return outcome;
    if (!heard || !ended) return { ok: true, heard };
    const fileId = await keeping.commit(format === 'wav' ? PLAY_WAV_FORMAT.sampleRate : undefined);
    return fileId === undefined ? { ok: true, heard } : { ok: true, heard, fileId };
  } finally {
    delivery.signal.removeEventListener('abort', follow);
    await draft.discard().catch(() => {});
  }
}

/** The draft a stream's audio is kept in; a failure of the store is logged, never thrown. */
class Keeping {
  #bytes = 0;
  #failed = false;
  readonly #draft: FileDraft;
  readonly #log: CallLog;

  constructor(draft: FileDraft, log: CallLog) {
    this.#draft = draft;
    this.#log = log;
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (this.#failed) return;
    try {
      await this.#draft.append(bytes);
      this.#bytes += bytes.byteLength;
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Saves the audio (a WAV at `wavRate`, or bare frames); undefined when it could not be. */
  async commit(wavRate: number | undefined): Promise<string | undefined> {
    if (this.#failed || this.#bytes === 0) return undefined;
    try {
      const { id } = await this.#draft.commit(
        wavRate === undefined ? undefined : wavHeader(this.#bytes, wavRate),
      );
      return id;
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  #fail(error: unknown): void {
    this.#failed = true;
    this.#log.warn({ err: error }, 'play URL audio not stored; later fetches will not find it');
  }
}
