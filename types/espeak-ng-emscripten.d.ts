// The package ships no typings: these cover the part of its API that Ijwi uses.
declare module '@echogarden/espeak-ng-emscripten' {
  export interface ESpeakEvent {
    readonly type:
      | 'word'
      | 'sentence'
      | 'mark'
      | 'play'
      | 'end'
      | 'msg_terminated'
      | 'phoneme'
      | 'samplerate';
    readonly text_position: number;
    readonly word_length: number;
    readonly audio_position: number;
    readonly id: string | number | undefined;
  }

  export interface ESpeakNGWorker {
    readonly samplerate: number;
    /** Returns 0 on success. Accepts variants such as `en-us+f3`. */
    set_voice(name: string): number;
    /** Words per minute, 80..450; espeak-ng's default is 175. */
    set_rate(wordsPerMinute: number): void;
    /** Base pitch, 0..100 (default 50). */
    set_pitch(pitch: number): void;
    /** Pitch range, 0..100 (default 50). */
    set_range(range: number): void;
    set_volume(volume: number): void;
    /** Blocks until done; the callback returning true aborts synthesis. */
    /** Reads SSML and `[[...]]` phoneme input (espeak-ng's flags SSML | PHONEMES). */
    synthesize(text: string, onChunk: (samples: Int16Array, events: ESpeakEvent[]) => boolean): void;
    /**
     * Reads plain text only: no SSML, no phoneme brackets (espeak-ng's flags 0); returns the IPA
     * trace of what it spoke.
     */
    synthesize_and_get_phonemes(
      text: string,
      onChunk: (samples: Int16Array, events: ESpeakEvent[]) => boolean,
    ): string;
    synthesize_ipa(text: string): { code: number; ipa: string };
    list_voices(): { name: string; identifier: string; languages: { priority: number; name: string }[] }[];
  }

  /** A file of emscripten's in-memory file system; a package file's contents are a view of the package. */
  export interface FSNode {
    contents?: Uint8Array | null;
  }

  export interface ESpeakNGModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    /** Emscripten's in-memory file system holding espeak-ng-data. */
    FS: {
      writeFile(path: string, data: string): void;
      open(path: string, ...rest: unknown[]): { node: FSNode };
    };
  }

  export interface ModuleOptions {
    /**
     * The data package (`espeak-ng.data`, `size` bytes) instead of the one the loader would read
     * from disk; each of its files is a view of it.
     */
    getPreloadedPackage?(name: string, size: number): ArrayBuffer;
  }

  const loadModule: (options?: ModuleOptions) => Promise<ESpeakNGModule>;
  export default loadModule;
}
