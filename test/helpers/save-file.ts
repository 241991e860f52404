import type { FileExtension, GeneratedFileStore } from '../../src/store/files/file-store.ts';

/** Writes `parts`, in order, as one file of `store` and commits it, as the file endpoint does. */
export async function saveFile(
  store: GeneratedFileStore,
  parts: readonly Uint8Array[],
  extension?: FileExtension,
): Promise<{ id: string }> {
  const draft = await store.create(extension);
  for (const part of parts) await draft.append(part);
  return draft.commit();
}
