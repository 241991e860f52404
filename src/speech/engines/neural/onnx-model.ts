import protobuf from 'protobufjs/minimal.js';

/**
 * What a voice pack's checks need from an ONNX model file, read with protobufjs's wire-format
 * reader from onnx.proto's field numbers, without the runtime: its metadata (`metadata_props`)
 * and the names of its graph's inputs and outputs. The weights (the graph's initializers) are
 * skipped, never decoded. Throws on bytes that are not a protobuf message of that shape.
 */
export interface OnnxModelInfo {
  readonly metadata: ReadonlyMap<string, string>;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

const MODEL_GRAPH = 7;
const MODEL_METADATA = 14;
const GRAPH_INPUT = 11;
const GRAPH_OUTPUT = 12;
const VALUE_INFO_NAME = 1;
const ENTRY_KEY = 1;
const ENTRY_VALUE = 2;
const LENGTH_DELIMITED = 2;
/** A key or value longer than this is not metadata a voice needs; the model is refused. */
const MAX_METADATA_TEXT = 64 * 1024;

/** Reads a message's fields, handing each length-delimited one `{field, reader of its bytes}`. */
function eachField(
  reader: protobuf.Reader,
  end: number,
  onField: (field: number, value: protobuf.Reader, valueEnd: number) => void,
): void {
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType !== LENGTH_DELIMITED) {
      reader.skipType(wireType);
      continue;
    }
    const length = reader.uint32();
    const valueEnd = reader.pos + length;
    if (valueEnd > end) throw new Error('a field runs past the end of its message');
    onField(field, reader, valueEnd);
    reader.pos = valueEnd;
  }
}

function text(reader: protobuf.Reader, end: number): string {
  if (end - reader.pos > MAX_METADATA_TEXT) throw new Error('a metadata text is too long');
  return new TextDecoder('utf-8', { fatal: true }).decode(reader.buf.subarray(reader.pos, end));
}

/** The `name` of a ValueInfoProto. */
function valueName(reader: protobuf.Reader, end: number): string {
  let name = '';
  eachField(reader, end, (field, value, valueEnd) => {
    if (field === VALUE_INFO_NAME) name = text(value, valueEnd);
  });
  return name;
}

export function readOnnxModel(bytes: Uint8Array): OnnxModelInfo {
  const reader = protobuf.Reader.create(bytes);
  const metadata = new Map<string, string>();
  const inputs: string[] = [];
  const outputs: string[] = [];
  eachField(reader, bytes.length, (field, value, end) => {
    if (field === MODEL_METADATA) {
      let key = '';
      let entry = '';
      eachField(value, end, (entryField, part, partEnd) => {
        if (entryField === ENTRY_KEY) key = text(part, partEnd);
        if (entryField === ENTRY_VALUE) entry = text(part, partEnd);
      });
      metadata.set(key, entry);
    } else if (field === MODEL_GRAPH) {
      eachField(value, end, (graphField, part, partEnd) => {
        if (graphField === GRAPH_INPUT) inputs.push(valueName(part, partEnd));
        if (graphField === GRAPH_OUTPUT) outputs.push(valueName(part, partEnd));
      });
    }
  });
  if (inputs.length === 0 || outputs.length === 0) throw new Error('no graph with inputs and outputs');
  return { metadata, inputs, outputs };
}

/**
 * The model with `entries` added to its metadata: `metadata_props` entries appended after its
 * last field (a repeated protobuf field may appear anywhere; readers collect every entry), so
 * the weights are copied as they are, never decoded and written again.
 */
export function withMetadata(bytes: Uint8Array, entries: Readonly<Record<string, string>>): Uint8Array {
  const writer = protobuf.Writer.create();
  for (const [key, value] of Object.entries(entries)) {
    writer
      .uint32((MODEL_METADATA << 3) | LENGTH_DELIMITED)
      .fork()
      .uint32((ENTRY_KEY << 3) | LENGTH_DELIMITED)
      .string(key)
      .uint32((ENTRY_VALUE << 3) | LENGTH_DELIMITED)
      .string(value)
      .ldelim();
  }
  const appended = writer.finish();
  const out = new Uint8Array(bytes.length + appended.length);
  out.set(bytes, 0);
  out.set(appended, bytes.length);
  return out;
}
