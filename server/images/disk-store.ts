// Images as files in DATA_DIR/uploads, served by express.static: the default store.
import { constants, copyFile, link, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import express from 'express';
import { uploadsDir } from '../uploads.ts';
import { IMAGE_MAX_AGE_SECONDS, isImageName, type ImageStore } from './image-store.ts';

export function createDiskStore(dataDir: string): ImageStore {
  const dir = uploadsDir(dataDir);
  const fileOf = (name: string) => {
    if (!isImageName(name)) throw new Error(`Not an image name: ${JSON.stringify(name)}`);
    return path.join(dir, name);
  };
  return {
    location: dir,
    // prepareDataDir made the folder and checked it can be written.
    check: async () => {},
    async put(name, bytes) {
      await writeFile(fileOf(name), bytes, { mode: 0o644 });
    },
    async putFile(name, file) {
      try {
        await link(file, fileOf(name));
      } catch {
        // Another file system, or one without hard links.
        await copyFile(file, fileOf(name));
      }
    },
    async remove(name) {
      await rm(fileOf(name), { force: true });
    },
    async usage() {
      const names = (await readdir(dir).catch(() => [])).filter(isImageName);
      const sizes = await Promise.all(names.map((name) => stat(fileOf(name)).then((s) => s.size, () => 0)));
      return { files: names.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
    },
    async size(name) {
      if (!isImageName(name)) return undefined;
      return stat(fileOf(name)).then((s) => s.size, () => undefined);
    },
    async names() {
      return (await readdir(dir).catch(() => [])).filter(isImageName).sort();
    },
    async saveTo(name, file) {
      // A copy (a clone where the file system can), not a hard link: tar 7 waits forever on a
      // file whose other links are outside what it packs (its pending-links queue).
      await copyFile(fileOf(name), file, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    },
    serve: express.static(dir, {
      index: false, dotfiles: 'deny', immutable: true, maxAge: IMAGE_MAX_AGE_SECONDS * 1000,
    }),
  };
}
