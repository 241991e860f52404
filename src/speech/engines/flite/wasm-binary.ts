/**
 * The edits the Flite runner makes to Flite's WebAssembly binary before compiling it: drop the
 * custom sections (4 MB of debug information nobody reads), export the module's one mutable
 * global, the C stack pointer, so that a run can start from the instance's first state without
 * a new instance, and send the audio Flite streams while it synthesises out through an import
 * (see `wasi-runner.ts`). The binary format is the WebAssembly core specification's, section 5:
 * a preamble, then sections of `id, size (LEB128), body`.
 */

/** `\0asm`, version 1. */
const PREAMBLE = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);
const CUSTOM_SECTION = 0;
const TYPE_SECTION = 1;
const IMPORT_SECTION = 2;
const FUNCTION_SECTION = 3;
const GLOBAL_SECTION = 6;
const EXPORT_SECTION = 7;
const CODE_SECTION = 10;
const DATA_SECTION = 11;
/** The name section's subsections of function names and of data segment names (extended). */
const FUNCTION_NAMES = 1;
const DATA_NAMES = 9;
const ACTIVE_SEGMENT = 0;
const I32_CONST = 0x41;
const LOCAL_GET = 0x20;
const CALL = 0x10;
const END = 0x0b;
const EXPORT_KIND_GLOBAL = 3;
const IMPORT_KIND_FUNCTION = 0;
const IMPORT_KIND_TABLE = 1;
const IMPORT_KIND_MEMORY = 2;
const FUNCTION_TYPE = 0x60;
const I32 = 0x7f;

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
  let at = PREAMBLE.length;
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

/** What `rewriteFlite` does to the binary besides dropping its custom sections. */
export interface FliteRewrite {
  /** The name to export the module's one mutable global, the C stack pointer, under. */
  readonly stackPointer: string;
  /** The negative descriptor Flite's audio streaming callback writes to (`redirectAudioStream`). */
  readonly streamFd?: number;
  /**
   * Leaves the bytes of the read-only data out of the module (its segment kept, empty), for
   * whoever instantiates it to copy them into the memory from the binary's file
   * (`readOnlyData` says where they are): V8 keeps a compiled module's bytes for as long as the
   * module lives, and these are 17 MB of the 17.1.
   */
  readonly leaveOutReadOnlyData?: boolean;
}

/**
 * The binary without custom sections, with its only mutable global exported and, if asked, its
 * audio stream redirected: one pass, so one copy of the 17 MB in memory. Throws when the module
 * has other than exactly one mutable global (state a reused instance could not reset), or lacks
 * what the redirection relies on.
 */
export function rewriteFlite(binary: Uint8Array, rewrite: FliteRewrite): Uint8Array {
  const sections = readSections(binary);
  const code = rewrite.streamFd === undefined ? undefined : redirectAudioStream(sections, rewrite.streamFd);
  const globals = sections.find((section) => section.id === GLOBAL_SECTION);
  const mutable = globals ? mutableGlobals(globals.body) : [];
  if (mutable.length !== 1) {
    throw new Error(`expected one mutable global (the stack pointer), found ${mutable.length}`);
  }
  const readOnly = rewrite.leaveOutReadOnlyData ? readOnlySegment(sections) : undefined;
  if (rewrite.leaveOutReadOnlyData && readOnly === undefined) {
    throw new Error('the binary names no .rodata segment to leave out');
  }
  return assemble(
    sections
      .filter((section) => section.id !== CUSTOM_SECTION)
      .map((section) => {
        if (section.id === EXPORT_SECTION) {
          const index = mutable[0] as number;
          return {
            id: section.id,
            body: withExport(section.body, rewrite.stackPointer, EXPORT_KIND_GLOBAL, index),
          };
        }
        if (section.id === DATA_SECTION && readOnly) {
          // The segment's header, its size now 0, in place of the header and the bytes.
          const { body } = section;
          return {
            id: DATA_SECTION,
            body: concatenate([
              body.subarray(0, readOnly.header),
              Uint8Array.of(0),
              body.subarray(readOnly.bytes + readOnly.size),
            ]),
          };
        }
        return section.id === CODE_SECTION && code ? { id: CODE_SECTION, body: code } : section;
      }),
  );
}

/** A binary of these sections. */
function assemble(sections: readonly Section[]): Uint8Array {
  const parts: Uint8Array[] = [PREAMBLE];
  for (const { id, body } of sections) parts.push(Uint8Array.from([id, ...writeUnsigned(body.length)]), body);
  return concatenate(parts);
}

/** Bytes `start` (included) to `end` (excluded) of the instance's memory. */
export interface MemoryRange {
  readonly start: number;
  readonly end: number;
}

/** The names the binary's name section gives to one kind of thing (a subsection), by index. */
function names(sections: readonly Section[], subsectionId: number): Map<number, string> {
  const found = new Map<number, string>();
  const decoder = new TextDecoder();
  for (const { id, body } of sections) {
    if (id !== CUSTOM_SECTION) continue;
    const { value: length, next } = readUnsigned(body, 0);
    if (decoder.decode(body.subarray(next, next + length)) !== 'name') continue;
    let at = next + length;
    while (at < body.length) {
      const subsection = body[at] as number;
      const { value: size, next: start } = readUnsigned(body, at + 1);
      if (subsection === subsectionId) {
        let { value: count, next: entry } = readUnsigned(body, start);
        for (; count > 0; count--) {
          const index = readUnsigned(body, entry);
          const nameLength = readUnsigned(body, index.next);
          found.set(
            index.value,
            decoder.decode(body.subarray(nameLength.next, nameLength.next + nameLength.value)),
          );
          entry = nameLength.next + nameLength.value;
        }
      }
      at = start + size;
    }
  }
  return found;
}

/** The read-only data's segment: where it lies in memory and in the data section's body. */
interface ReadOnlySegment {
  /** Its offset in memory. */
  readonly start: number;
  readonly size: number;
  /** Where its size is written in the data section's body, and where its bytes start there. */
  readonly header: number;
  readonly bytes: number;
  /** The data section's body, a view of the binary. */
  readonly data: Uint8Array;
}

/** The linker's `.rodata` segment, named in the name section, or undefined when none is. */
function readOnlySegment(sections: readonly Section[]): ReadOnlySegment | undefined {
  const index = [...names(sections, DATA_NAMES)].find(([, name]) => name === '.rodata')?.[0];
  const data = sections.find((section) => section.id === DATA_SECTION)?.body;
  if (index === undefined || data === undefined) return undefined;
  let { value: count, next: at } = readUnsigned(data, 0);
  for (let segment = 0; segment < count; segment++) {
    // Only active segments at a constant offset are read; any other kind ends the search.
    if (data[at] !== ACTIVE_SEGMENT || data[at + 1] !== I32_CONST) return undefined;
    const offset = readUnsigned(data, at + 2);
    if (data[offset.next] !== END) return undefined;
    const header = offset.next + 1;
    const size = readUnsigned(data, header);
    if (segment === index) return { start: offset.value, size: size.value, header, bytes: size.next, data };
    at = size.next + size.value;
  }
  return undefined;
}

/** The read-only data: where it lies in the instance's memory, and where its bytes are in the binary. */
export interface ReadOnlyData extends MemoryRange {
  readonly offsetInBinary: number;
}

/**
 * Where the linker put the module's read-only data (its `.rodata` data segment, named in the
 * name section), or undefined when the binary does not say. C never writes there (a native
 * build maps it read-only), so a run leaves it as the instance got it.
 */
export function readOnlyData(binary: Uint8Array): ReadOnlyData | undefined {
  const segment = readOnlySegment(readSections(binary));
  if (segment === undefined) return undefined;
  return {
    start: segment.start,
    end: segment.start + segment.size,
    offsetInBinary: segment.data.byteOffset - binary.byteOffset + segment.bytes,
  };
}

/** `count` entries of a vector starting at `at`, each read by `entry`, which returns where the next begins. */
function readVector(body: Uint8Array, at: number, entry: (at: number, index: number) => number): number {
  const { value: count, next } = readUnsigned(body, at);
  let position = next;
  for (let index = 0; index < count; index++) position = entry(position, index);
  return position;
}

/** The function types of the type section, as `params -> results` of value type bytes. */
function functionTypes(body: Uint8Array): string[] {
  const types: string[] = [];
  readVector(body, 0, (at) => {
    if (body[at] !== FUNCTION_TYPE) throw new Error('unexpected type in WebAssembly binary');
    const params = readUnsigned(body, at + 1);
    const results = readUnsigned(body, params.next + params.value);
    types.push(
      `${[...body.subarray(params.next, params.next + params.value)]}->${[
        ...body.subarray(results.next, results.next + results.value),
      ]}`,
    );
    return results.next + results.value;
  });
  return types;
}

/** Skips a name (`length, bytes`) and returns it with where what follows begins. */
function readName(body: Uint8Array, at: number): { name: string; next: number } {
  const { value: length, next } = readUnsigned(body, at);
  return { name: new TextDecoder().decode(body.subarray(next, next + length)), next: next + length };
}

/** The imported functions, in index order: `module.name` and type index. */
function importedFunctions(body: Uint8Array): { name: string; type: number }[] {
  const functions: { name: string; type: number }[] = [];
  readVector(body, 0, (at) => {
    const module = readName(body, at);
    const field = readName(body, module.next);
    const kind = body[field.next];
    const description = field.next + 1;
    if (kind === IMPORT_KIND_FUNCTION) {
      const type = readUnsigned(body, description);
      functions.push({ name: `${module.name}.${field.name}`, type: type.value });
      return type.next;
    }
    // A table's reference type, then limits; a memory's limits; a global's type and mutability.
    const limits = kind === IMPORT_KIND_TABLE ? description + 1 : description;
    if (kind !== IMPORT_KIND_TABLE && kind !== IMPORT_KIND_MEMORY) return description + 2;
    const minimum = readUnsigned(body, limits + 1);
    return (body[limits] as number) & 1 ? readUnsigned(body, minimum.next).next : minimum.next;
  });
  return functions;
}

/** Signed LEB128, for an `i32.const` immediate. */
function writeSigned(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0);
    out.push(done ? low : low | 0x80);
    if (done) return out;
  }
}

const STREAM_CALLBACK = 'audio_stream_chunk';
const WRITE_IMPORT = 'wasi_snapshot_preview1.fd_write';
const I32_TO_I32 = (params: number) => `${Array(params).fill(I32)}->${I32}`;

/**
 * The code section with the body of Flite's audio streaming callback, `audio_stream_chunk(wave,
 * start, size, last, info)` (it opens, writes and closes an audio device, which a WASI build has
 * not got), replaced by a call of the WASI `fd_write` import as `fd_write(fd, wave, start, size)`
 * whose answer it returns (0: go on, -1: stop). No real descriptor is negative, so the runner's
 * import tells these calls from Flite's own writes by `fd` and reads the samples itself: `wave`
 * is a `cst_wave *`. Flite calls it with each new stretch of samples while its vocoder runs,
 * when it is asked for `-o stream`. Finds the callback by the name section; throws when the
 * callback or the import is not there with the types this relies on.
 */
function redirectAudioStream(sections: readonly Section[], fd: number): Uint8Array {
  if (fd >= 0) throw new Error('the stream descriptor must be negative, so no real one can be it');
  const body = (id: number) => {
    const section = sections.find((candidate) => candidate.id === id);
    if (!section) throw new Error(`the WebAssembly binary has no section ${id}`);
    return section.body;
  };
  const types = functionTypes(body(TYPE_SECTION));
  const imported = importedFunctions(body(IMPORT_SECTION));
  const write = imported.findIndex((entry) => entry.name === WRITE_IMPORT);
  const callback = [...names(sections, FUNCTION_NAMES)].find(([, name]) => name === STREAM_CALLBACK)?.[0];
  if (write === -1 || types[imported[write]?.type ?? -1] !== I32_TO_I32(4)) {
    throw new Error(`the WebAssembly binary imports no ${WRITE_IMPORT} of the expected type`);
  }
  if (callback === undefined || callback < imported.length) {
    throw new Error(`the WebAssembly binary defines no ${STREAM_CALLBACK}`);
  }
  const defined = callback - imported.length;
  const declared: number[] = [];
  readVector(body(FUNCTION_SECTION), 0, (at) => {
    const type = readUnsigned(body(FUNCTION_SECTION), at);
    declared.push(type.value);
    return type.next;
  });
  if (types[declared[defined] ?? -1] !== I32_TO_I32(5)) {
    throw new Error(`${STREAM_CALLBACK} in the WebAssembly binary has an unexpected type`);
  }
  const replacement = [
    0, // no locals
    I32_CONST,
    ...writeSigned(fd),
    ...[0, 1, 2].flatMap((parameter) => [LOCAL_GET, parameter]),
    CALL,
    ...writeUnsigned(write),
    END,
  ];
  const code = body(CODE_SECTION);
  const entries: Uint8Array[] = [];
  readVector(code, 0, (at, index) => {
    const { value: size, next } = readUnsigned(code, at);
    entries.push(
      index === defined
        ? Uint8Array.from([...writeUnsigned(replacement.length), ...replacement])
        : code.subarray(at, next + size),
    );
    return next + size;
  });
  return concatenate([Uint8Array.from(writeUnsigned(entries.length)), ...entries]);
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
