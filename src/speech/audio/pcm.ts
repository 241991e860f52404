/**
 * 16-bit PCM between samples and little-endian bytes, the byte order of every PCM stream and
 * WAV file Ijwi writes. Typed arrays use the host's byte order, so on little-endian hosts
 * (x86, ARM as deployed) the conversion is a view; elsewhere it is an explicit copy.
 */

/** True when the host stores a 16-bit integer low byte first. */
export const hostIsLittleEndian: boolean = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The samples as signed 16-bit little-endian bytes. On little-endian hosts the result is a view
 * of the same memory (no copy): writing to one changes the other, and transferring its buffer
 * to another thread detaches the samples too.
 */
export function int16ToLittleEndianBytes(samples: Int16Array): Uint8Array {
  if (hostIsLittleEndian) return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, samples[i] ?? 0, true);
  return bytes;
}

/**
 * Signed 16-bit little-endian bytes as samples. A view of the same memory when the host is
 * little-endian and the bytes start at an even offset (an Int16Array must be aligned); a copy
 * otherwise. Throws a RangeError on an odd byte count: half a sample means a framing bug upstream.
 */
export function littleEndianBytesToInt16(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength % 2 !== 0) {
    throw new RangeError(`16-bit PCM needs an even number of bytes, got ${bytes.byteLength}`);
  }
  if (hostIsLittleEndian && bytes.byteOffset % 2 === 0) {
    return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  }
  const samples = new Int16Array(bytes.byteLength / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}
