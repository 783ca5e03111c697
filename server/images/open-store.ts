// Picks the image store the configuration names, once at start.
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createDiskStore } from './disk-store.ts';
import type { ImageStore } from './image-store.ts';

/** The store the configuration names. The S3 client (a large library) is
 * loaded only when S3 is configured, so the default start never pays for it. */
export async function createImageStore(config: Config, log: Logger): Promise<ImageStore> {
  if (!config.s3) return createDiskStore(config.dataDir);
  const { createS3Store } = await import('./s3-store.ts');
  return createS3Store(config.s3, log);
}

/** The store, checked: what the server starts with. */
export async function openImageStore(config: Config, log: Logger): Promise<ImageStore> {
  const store = await createImageStore(config, log);
  await store.check();
  return store;
}
