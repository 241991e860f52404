/** An inclusive byte range, as HTTP `Range` and `fs.createReadStream` both count. */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

/** The kinds of generated file, by the extension of their name: WAV, and the compressed formats. */
export const fileExtensions = ['wav', 'mp3', 'opus', 'flac'] as const;

export type FileExtension = (typeof fileExtensions)[number];

/** A stored file's name: its id and its kind's extension; anything else is no name of this store. */
export const STORED_NAME = new RegExp(`^[0-9A-Za-z]{22}\\.(?:${fileExtensions.join('|')})$`);

/** A generated file found by id, still within its lifetime. */
export interface StoredFile {
  readonly size: number;
  readonly createdAt: Date;
  /** When the file stops being served; caches must not keep it longer. */
  readonly expiresAt: Date;
  /** Reads the file, or only `range`, without loading it into memory. */
  stream(range?: ByteSpan): NodeJS.ReadableStream;
}

/**
 * Where generated audio files live between synthesis and download. Ids are unguessable (at
 * least 128 random bits) because the download URL is the only credential. An expired file is
 * indistinguishable from one that never existed. Implementations: a folder on local disk (the
 * embedded default); a shared store can be added for several instances.
 */
export interface GeneratedFileStore {
  /**
   * Starts a file of this kind, written as its bytes come (a 10,000-character WAV is tens of
   * MB: the local store keeps at most 1 MiB of it in memory); readers never see it before
   * `commit`. `reserve` bytes at its start are left for the head given to `commit` (a WAV
   * header, which needs the length of the audio after it).
   */
  create(extension?: FileExtension, reserve?: number): Promise<FileDraft>;
  /**
   * The file, or undefined when the id is malformed, unknown or expired, or names a file of
   * another kind: a file is found by its id and its extension (WAV when not given) together.
   */
  open(id: string, extension?: FileExtension): Promise<StoredFile | undefined>;
  /** Removes the file if it exists; a malformed or unknown id is not an error. */
  delete(id: string, extension?: FileExtension): Promise<void>;
  /** Removes every file older than the lifetime; returns how many were removed. */
  sweep(now?: Date): Promise<number>;
  /** For health: true when files can be written, otherwise a short reason. */
  check(): Promise<true | string>;
}

/** A file being written: found under no id until committed. */
export interface FileDraft {
  /** Adds `bytes` after those appended before. */
  append(bytes: Uint8Array): Promise<void>;
  /**
   * Writes `head` into the bytes reserved at the start (exactly as many) and makes the file
   * readable under a fresh id.
   */
  commit(head?: Uint8Array): Promise<{ id: string }>;
  /** Drops the file; once committed or dropped, does nothing. */
  discard(): Promise<void>;
}

/** Checks that `head` fills the `reserve` bytes left at a draft's start, no more and no fewer. */
export function checkHead(head: Uint8Array | undefined, reserve: number): void {
  if ((head?.length ?? 0) !== reserve) {
    throw new RangeError(`the head must be the ${reserve} bytes reserved, not ${head?.length ?? 0}`);
  }
}

/**
 * Runs `store.sweep()` every `intervalMs` until the returned function is called. The timer is
 * unref'd so it never keeps the process alive, and a sweep that outlasts the interval is not
 * started twice. Sweep errors go to `onError` (e.g. the logger) and do not stop the timer.
 */
export function startSweeper(
  store: Pick<GeneratedFileStore, 'sweep'>,
  intervalMs: number,
  onError: (error: unknown) => void = () => {},
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    store
      .sweep()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
