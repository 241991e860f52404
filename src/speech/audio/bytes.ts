/**
 * One buffer holding `parts` in order: the part itself when there is only one (no copy), else a
 * copy of them all. `length` is their total, when the caller has counted it already.
 */
export function joinBytes(parts: readonly Uint8Array[], length?: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const total = length ?? parts.reduce((sum, part) => sum + part.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
