/**
 * Cuts a byte stream into whole frames (20 ms of audio each) for streaming: telephony clients
 * read fixed-size packets, so every chunk sent is a whole number of frames, and the last
 * partial frame is completed with the format's silence byte.
 */
export class Framer {
  readonly frameBytes: number;
  readonly silenceByte: number;
  /** The start of a frame not yet complete; only its first `#pendingLength` bytes are meaningful. */
  readonly #pending: Uint8Array;
  #pendingLength = 0;

  /** `frameBytes`: bytes per frame (`StreamFormat.bytesPerFrame`); `silenceByte`: the padding byte. */
  constructor(frameBytes: number, silenceByte: number) {
    if (!Number.isInteger(frameBytes) || frameBytes < 1) {
      throw new RangeError(`frame size must be a positive whole number of bytes, got ${frameBytes}`);
    }
    if (!Number.isInteger(silenceByte) || silenceByte < 0 || silenceByte > 255) {
      throw new RangeError(`silence must be a byte value, got ${silenceByte}`);
    }
    this.frameBytes = frameBytes;
    this.silenceByte = silenceByte;
    this.#pending = new Uint8Array(frameBytes);
  }

  /**
   * Takes the next bytes and returns the whole frames now complete (possibly none: an empty
   * array). Bytes past the last whole frame are kept for the next call. When nothing was
   * pending the result is a view of `bytes` (no copy), so the caller must not reuse that buffer
   * before the frames are sent; otherwise the pending start and the new bytes are joined in a copy.
   */
  push(bytes: Uint8Array): Uint8Array {
    const total = this.#pendingLength + bytes.byteLength;
    const whole = total - (total % this.frameBytes);
    if (whole === 0) {
      this.#pending.set(bytes, this.#pendingLength);
      this.#pendingLength = total;
      return new Uint8Array(0);
    }
    const fromBytes = whole - this.#pendingLength;
    let frames: Uint8Array;
    if (this.#pendingLength === 0) {
      frames = bytes.subarray(0, fromBytes);
    } else {
      frames = new Uint8Array(whole);
      frames.set(this.#pending.subarray(0, this.#pendingLength));
      frames.set(bytes.subarray(0, fromBytes), this.#pendingLength);
    }
    // Copied, not kept as a view: the caller may transfer or reuse `bytes` once this returns.
    const rest = bytes.subarray(fromBytes);
    this.#pending.set(rest);
    this.#pendingLength = rest.byteLength;
    return frames;
  }

  /**
   * Ends the stream: the pending bytes completed to one whole frame with the silence byte, or
   * an empty array when nothing is pending. The framer is then empty and can be reused.
   */
  flush(): Uint8Array {
    if (this.#pendingLength === 0) return new Uint8Array(0);
    const frame = new Uint8Array(this.frameBytes).fill(this.silenceByte);
    frame.set(this.#pending.subarray(0, this.#pendingLength));
    this.#pendingLength = 0;
    return frame;
  }

  /** Bytes waiting for the rest of their frame. */
  get pendingBytes(): number {
    return this.#pendingLength;
  }
}
