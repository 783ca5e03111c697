// Copies every image of DATA_DIR/uploads into another image store (the S3 bucket a data
// directory moves to: admin migrate-to-postgres). Storing an image again under its name is
// harmless, so a copy that stopped halfway can simply run again.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { uploadsDir } from '../uploads.ts';
import { isImageName, type ImageStore } from './image-store.ts';

/** Uploads under way at once: enough to hide each request's round trip, few enough for any bucket. */
const PARALLEL_UPLOADS = 8;

/** The image files of the data directory (none when it has no uploads folder). */
export async function listUploads(dataDir: string): Promise<string[]> {
  const names = await readdir(uploadsDir(dataDir)).catch(() => []);
  return names.filter(isImageName).sort();
}

export async function copyUploads(
  dataDir: string, names: readonly string[], store: ImageStore, progress: (done: number, total: number) => void,
): Promise<void> {
  const dir = uploadsDir(dataDir);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++]!;
      await store.putFile(name, path.join(dir, name));
      done += 1;
      progress(done, names.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, names.length) }, worker));
}
