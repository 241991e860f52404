/**
 * What a `Range` request header asks of a representation of known size, following RFC 9110
 * section 14: `ignore` (serve the whole file with 200), one inclusive `range` (206), or
 * `unsatisfiable` (416).
 */
export type ByteRangeRequest =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'range'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

const IGNORE: ByteRangeRequest = { kind: 'ignore' };
const UNSATISFIABLE: ByteRangeRequest = { kind: 'unsatisfiable' };
const SPEC = /^(\d*)-(\d*)$/;

/**
 * Reads a single-range `Range` header against a file of `size` bytes. Malformed headers, units
 * other than bytes and multi-range requests are ignored, which RFC 9110 (14.2) allows: the
 * client then gets the whole file with 200, which every player handles. An end past the file is
 * clamped; a suffix longer than the file means the whole file; a start at or past the end, or a
 * zero-length suffix, is unsatisfiable.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRangeRequest {
  if (header === undefined) return IGNORE;
  const equals = header.indexOf('=');
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== 'bytes') return IGNORE;
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (specs.length !== 1) return IGNORE;
  const match = SPEC.exec(specs[0] ?? '');
  const first = match?.[1] ?? '';
  const last = match?.[2] ?? '';
  if (!match || (first === '' && last === '')) return IGNORE;

  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return UNSATISFIABLE;
    // A zero-length file has no byte a Content-Range could name; send it whole (and empty).
    if (size === 0) return IGNORE;
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.POSITIVE_INFINITY : Number(last);
  if (end < start) return IGNORE;
  if (start >= size) return UNSATISFIABLE;
  return { kind: 'range', start, end: Math.min(end, size - 1) };
}
