import type { CompressedFormatName } from './compressed-formats.ts';

/** Messages to an encoding thread. Streams are numbered by the sender; replies by request number. */
export type ToEncoder =
  | {
      readonly type: 'open';
      readonly stream: number;
      readonly format: CompressedFormatName;
      readonly sampleRate: number;
      /** The Ogg serial number of an Opus stream: the stream's own, so that a replay makes the same bytes. */
      readonly serial: number;
    }
  | { readonly type: 'encode'; readonly stream: number; readonly request: number; readonly pcm: Uint8Array }
  | { readonly type: 'end'; readonly stream: number; readonly request: number }
  | { readonly type: 'drop'; readonly stream: number };

/** Replies of an encoding thread: the bytes a request produced, or why it failed. `bytes` are transferred. */
export type FromEncoder =
  | { readonly type: 'bytes'; readonly request: number; readonly bytes: Uint8Array }
  | { readonly type: 'error'; readonly request: number; readonly message: string };
