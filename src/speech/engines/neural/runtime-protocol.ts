/** Messages between a pool worker's neural engine and the runtime process it started. */

/** The files of a checked pack the runtime loads. */
export interface RuntimePack {
  readonly model: string;
  readonly tokens: string;
  readonly espeakData?: string;
}

export type RuntimeRequest =
  | {
      readonly type: 'speak';
      readonly id: number;
      readonly pack: RuntimePack;
      readonly text: string;
      readonly speaker: number;
      /** Speaking rate as a multiple of the voice's own. */
      readonly speed: number;
    }
  /** Stop the clause `id` at the runtime's next chunk. */
  | { readonly type: 'stop'; readonly id: number };

export type RuntimeReply =
  | { readonly type: 'ready' }
  | { readonly type: 'samples'; readonly id: number; readonly samples: Int16Array }
  | { readonly type: 'done'; readonly id: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
