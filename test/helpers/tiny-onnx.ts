import protobuf from 'protobufjs/minimal.js';

// Tiny ONNX models with the inputs, outputs and metadata of real VITS voices, so that the code
// that checks, converts and loads voice packs runs against the real runtime in tests, without
// any real weights. The graph is a few nodes, under a kilobyte, and depends on every input it
// uses (a graph that did not would be folded to a constant when the runtime loads it): each
// token id becomes `SAMPLES_PER_TOKEN` samples of a sine whose loudness is the noise scale.
// Written field by field from onnx.proto (ModelProto, GraphProto, NodeProto, ValueInfoProto,
// TensorProto), with protobufjs's writer.

const LENGTH_DELIMITED = 2;
const VARINT = 0;
const FLOAT = 1;
const INT64 = 7;
/** Samples each input token becomes: enough for audio of a plausible length. */
export const SAMPLES_PER_TOKEN = 400;

type Message = (writer: protobuf.Writer) => void;

function field(writer: protobuf.Writer, number: number, message: Message): void {
  writer.uint32((number << 3) | LENGTH_DELIMITED).fork();
  message(writer);
  writer.ldelim();
}

function text(writer: protobuf.Writer, number: number, value: string): void {
  writer.uint32((number << 3) | LENGTH_DELIMITED).string(value);
}

function varint(writer: protobuf.Writer, number: number, value: number): void {
  writer.uint32((number << 3) | VARINT).int64(value);
}

/** ValueInfoProto: a tensor of `type` and `shape` (a string is a symbolic dimension). */
function tensorInfo(name: string, type: number, shape: readonly (number | string)[]): Message {
  return (w) => {
    text(w, 1, name);
    field(w, 2, (typeProto) =>
      field(typeProto, 1, (tensor) => {
        varint(tensor, 1, type);
        field(tensor, 2, (shapeProto) => {
          for (const dim of shape) {
            field(shapeProto, 1, (d) => (typeof dim === 'number' ? varint(d, 1, dim) : text(d, 2, dim)));
          }
        });
      }),
    );
  };
}

interface Node {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly output: string;
  /** Integer attributes (AttributeProto type INT). */
  readonly ints?: Readonly<Record<string, number>>;
}

function node({ op, inputs, output, ints = {} }: Node): Message {
  return (w) => {
    for (const input of inputs) text(w, 1, input);
    text(w, 2, output);
    text(w, 3, `${op}_${output}`);
    text(w, 4, op);
    for (const [name, value] of Object.entries(ints)) {
      field(w, 5, (attribute) => {
        text(attribute, 1, name);
        varint(attribute, 3, value);
        varint(attribute, 20, 2); // AttributeProto.INT
      });
    }
  };
}

/** A 1-D int64 initializer (TensorProto with int64_data). */
function int64Tensor(name: string, values: readonly number[]): Message {
  return (w) => {
    varint(w, 1, values.length);
    varint(w, 2, INT64);
    w.uint32((7 << 3) | LENGTH_DELIMITED).fork();
    for (const value of values) w.int64(value);
    w.ldelim();
    text(w, 8, name);
  };
}

/** The two input conventions of VITS models as sherpa-onnx runs them. */
export type TinyKind = 'piper' | 'mms';

export interface TinyModelOptions {
  readonly kind: TinyKind;
  /** Metadata entries (`metadata_props`); a Piper voice as exported has none. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Adds a `sid` input, as multi-speaker models have. */
  readonly speakers?: boolean;
}

/** An ONNX model (bytes of a `.onnx` file) that takes a VITS voice's inputs. */
export function tinyVitsModel({ kind, metadata = {}, speakers = false }: TinyModelOptions): Uint8Array {
  const tokens = kind === 'piper' ? 'input' : 'x';
  const loudness = kind === 'piper' ? 'scales' : 'noise_scale';
  const inputs: Message[] =
    kind === 'piper'
      ? [
          tensorInfo('input', INT64, [1, 'tokens']),
          tensorInfo('input_lengths', INT64, [1]),
          tensorInfo('scales', FLOAT, [3]),
        ]
      : [
          tensorInfo('x', INT64, [1, 'tokens']),
          tensorInfo('x_length', INT64, [1]),
          tensorInfo('noise_scale', FLOAT, [1]),
          tensorInfo('length_scale', FLOAT, [1]),
          tensorInfo('noise_scale_w', FLOAT, [1]),
        ];
  if (speakers) inputs.push(tensorInfo('sid', INT64, [1]));
  const nodes: Node[] = [
    { op: 'Cast', inputs: [tokens], output: 'ids', ints: { to: FLOAT } },
    { op: 'Unsqueeze', inputs: ['ids', 'last_axis'], output: 'column' },
    { op: 'Tile', inputs: ['column', 'repeats'], output: 'repeated' },
    { op: 'Reshape', inputs: ['repeated', 'flat'], output: 'phase' },
    { op: 'Sin', inputs: ['phase'], output: 'wave' },
    { op: 'ReduceMax', inputs: [loudness], output: 'gain', ints: { keepdims: 0 } },
    { op: 'Mul', inputs: ['wave', 'gain'], output: 'y' },
  ];
  const writer = protobuf.Writer.create();
  varint(writer, 1, 8); // ir_version
  text(writer, 2, 'ijwi-tests');
  field(writer, 7, (graph) => {
    for (const n of nodes) field(graph, 1, node(n));
    text(graph, 2, `tiny-${kind}`);
    field(graph, 5, int64Tensor('last_axis', [2]));
    field(graph, 5, int64Tensor('repeats', [1, 1, SAMPLES_PER_TOKEN]));
    field(graph, 5, int64Tensor('flat', [1, 1, -1]));
    for (const input of inputs) field(graph, 11, input);
    field(graph, 12, tensorInfo('y', FLOAT, [1, 1, 'samples']));
  });
  field(writer, 8, (opset) => {
    text(opset, 1, '');
    varint(opset, 2, 13);
  });
  for (const [key, value] of Object.entries(metadata)) {
    field(writer, 14, (entry) => {
      text(entry, 1, key);
      text(entry, 2, value);
    });
  }
  return writer.finish();
}
