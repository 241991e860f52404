/**
 * The two edits the Flite runner makes to Flite's WebAssembly binary before compiling it: drop
 * the custom sections (4 MB of debug information nobody reads) and export the module's one
 * mutable global, the C stack pointer, so that a run can start from the instance's first state
 * without a new instance (see `wasi-runner.ts`). The binary format is the WebAssembly core
 * specification's, section 5: a preamble, then sections of `id, size (LEB128), body`.
 */

const PREAMBLE_BYTES = 8;
const CUSTOM_SECTION = 0;
const GLOBAL_SECTION = 6;
const EXPORT_SECTION = 7;
const DATA_SECTION = 11;
/** The name section's subsection of data segment names (extended name section). */
const DATA_NAMES = 9;
const ACTIVE_SEGMENT = 0;
const I32_CONST = 0x41;
const END = 0x0b;
const EXPORT_KIND_GLOBAL = 3;

interface Section {
  readonly id: number;
  readonly body: Uint8Array;
}

function readUnsigned(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let next = at;
  for (;;) {
    const byte = bytes[next++];
    if (byte === undefined || shift > 28) throw new Error('malformed WebAssembly binary');
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next };
    shift += 7;
  }
}

function writeUnsigned(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return out;
}

function readSections(binary: Uint8Array): Section[] {
  const sections: Section[] = [];
  let at = PREAMBLE_BYTES;
  while (at < binary.length) {
    const id = binary[at] as number;
    const { value: size, next } = readUnsigned(binary, at + 1);
    sections.push({ id, body: binary.subarray(next, next + size) });
    at = next + size;
  }
  return sections;
}

/**
 * Which globals are mutable, in index order. A global is `valtype, mut, init expression`; the
 * linker's are `i32.const n; end`, which is all this reads (anything else is refused).
 */
function mutableGlobals(body: Uint8Array): number[] {
  const { value: count, next } = readUnsigned(body, 0);
  const mutable: number[] = [];
  let at = next;
  for (let index = 0; index < count; index++) {
    const mutability = body[at + 1];
    if (body[at + 2] !== 0x41) throw new Error('unexpected global initialiser in WebAssembly binary');
    at = readUnsigned(body, at + 3).next;
    if (body[at] !== 0x0b) throw new Error('unexpected global initialiser in WebAssembly binary');
    at += 1;
    if (mutability === 1) mutable.push(index);
  }
  return mutable;
}

function withExport(body: Uint8Array, name: string, kind: number, index: number): Uint8Array {
  const { value: count, next } = readUnsigned(body, 0);
  const encodedName = new TextEncoder().encode(name);
  return Uint8Array.from([
    ...writeUnsigned(count + 1),
    ...body.subarray(next),
    ...writeUnsigned(encodedName.length),
    ...encodedName,
    kind,
    ...writeUnsigned(index),
  ]);
}

/**
 * The binary without custom sections and with its only mutable global exported as
 * `exportName`. Throws when the module has other than exactly one mutable global: state this
 * rewrite could not reset.
 */
export function exportStackPointer(binary: Uint8Array, exportName: string): Uint8Array {
  const sections = readSections(binary).filter((section) => section.id !== CUSTOM_SECTION);
  const globals = sections.find((section) => section.id === GLOBAL_SECTION);
  const mutable = globals ? mutableGlobals(globals.body) : [];
  if (mutable.length !== 1) {
    throw new Error(`expected one mutable global (the stack pointer), found ${mutable.length}`);
  }
  const parts: Uint8Array[] = [binary.subarray(0, PREAMBLE_BYTES)];
  for (const section of sections) {
    const body =
      section.id === EXPORT_SECTION
        ? withExport(section.body, exportName, EXPORT_KIND_GLOBAL, mutable[0] as number)
        : section.body;
    parts.push(Uint8Array.from([section.id, ...writeUnsigned(body.length)]), body);
  }
  return concatenate(parts);
}

/** Bytes `start` (included) to `end` (excluded) of the instance's memory. */
export interface MemoryRange {
  readonly start: number;
  readonly end: number;
}

/** The names the binary's name section gives its data segments, by index. */
function dataSegmentNames(sections: readonly Section[]): Map<number, string> {
  const names = new Map<number, string>();
  const decoder = new TextDecoder();
  for (const { id, body } of sections) {
    if (id !== CUSTOM_SECTION) continue;
    const { value: length, next } = readUnsigned(body, 0);
    if (decoder.decode(body.subarray(next, next + length)) !== 'name') continue;
    let at = next + length;
    while (at < body.length) {
      const subsection = body[at] as number;
      const { value: size, next: start } = readUnsigned(body, at + 1);
      if (subsection === DATA_NAMES) {
        let { value: count, next: entry } = readUnsigned(body, start);
        for (; count > 0; count--) {
          const index = readUnsigned(body, entry);
          const nameLength = readUnsigned(body, index.next);
          names.set(
            index.value,
            decoder.decode(body.subarray(nameLength.next, nameLength.next + nameLength.value)),
          );
          entry = nameLength.next + nameLength.value;
        }
      }
      at = start + size;
    }
  }
  return names;
}

/**
 * Where the linker put the module's read-only data (its `.rodata` data segment, named in the
 * name section), or undefined when the binary does not say. C never writes there (a native
 * build maps it read-only), so a run leaves it as the instance got it.
 */
export function readOnlyData(binary: Uint8Array): MemoryRange | undefined {
  const sections = readSections(binary);
  const index = [...dataSegmentNames(sections)].find(([, name]) => name === '.rodata')?.[0];
  const data = sections.find((section) => section.id === DATA_SECTION)?.body;
  if (index === undefined || data === undefined) return undefined;
  let { value: count, next: at } = readUnsigned(data, 0);
  for (let segment = 0; segment < count; segment++) {
    // Only active segments at a constant offset are read; any other kind ends the search.
    if (data[at] !== ACTIVE_SEGMENT || data[at + 1] !== I32_CONST) return undefined;
    const offset = readUnsigned(data, at + 2);
    if (data[offset.next] !== END) return undefined;
    const size = readUnsigned(data, offset.next + 1);
    if (segment === index) return { start: offset.value, end: offset.value + size.value };
    at = size.next + size.value;
  }
  return undefined;
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
