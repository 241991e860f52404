/** Every chunk of a stream of bytes (a Node stream, or a web stream as an SDK returns one), as one buffer. */
export async function collect(
  stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  // Node's web streams are async iterable, which the DOM types do not say.
  for await (const bytes of stream as AsyncIterable<Uint8Array>) parts.push(bytes);
  return Buffer.concat(parts);
}
