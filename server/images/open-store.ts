// Picks the image store the configuration names, once at start.
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { createDiskStore } from './disk-store.ts';
import type { ImageStore } from './image-store.ts';
import { createS3Store } from './s3-store.ts';

/** The store the configuration names. */
export async function createImageStore(config: Config, log: Logger): Promise<ImageStore> {
  return config.s3 ? createS3Store(config.s3, log) : createDiskStore(config.dataDir);
}

/** The store, checked: what the server starts with. */
export async function openImageStore(config: Config, log: Logger): Promise<ImageStore> {
  const store = await createImageStore(config, log);
  await store.check();
  return store;
}
