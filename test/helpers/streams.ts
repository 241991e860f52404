/** Every chunk of a stream of bytes, as one buffer. */
export async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const bytes of stream) parts.push(bytes);
  return Buffer.concat(parts);
}
