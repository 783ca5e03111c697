// Where processed images are kept: DATA_DIR/uploads (the default) or an S3-compatible bucket
// (DESIGN.md, More than one box). Chosen once at start (open-store.ts); every read, write and
// delete of an image file goes through the store on the AppContext; either way they are served
// at /uploads/…
import type { RequestHandler } from 'express';

export interface ImageStore {
  /** Where the images are, for people: a folder, or a bucket at an endpoint. */
  readonly location: string;
  /** Start-up check that the store can be used; a ConfigError (one line) naming what to fix. */
  check(): Promise<void>;
  put(name: string, bytes: Buffer): Promise<void>;
  /**
   * Stores a copy of a file that will not change afterwards (the seeder's picture pool, a data
   * directory being moved): on disk a hard link where possible, so a thousand articles sharing
   * one picture take its space once.
   */
  putFile(name: string, file: string): Promise<void>;
  /** Removes an image; one already gone is fine. */
  remove(name: string): Promise<void>;
  /** How many images there are and their total size. */
  usage(): Promise<{ files: number; bytes: number }>;
  /** One image's size in bytes (feeds announce it), or undefined when it cannot be told now. */
  size(name: string): Promise<number | undefined>;
  /** Every image's name, sorted (what a backup copies). */
  names(): Promise<string[]>;
  /** Writes one image's bytes to a local file that must not exist yet (a backup's copy). */
  saveTo(name: string, file: string): Promise<void>;
  /** The bucket's `backups/` folder; absent on the disk store, whose archives stay in BACKUP_DIR. */
  readonly archives?: ArchiveShelf;
  /**
   * GET and HEAD of /uploads/<name>, with the same answers from every store: long immutable
   * cache, ETag and Last-Modified with 304s, ranges; anything else falls through to a 404.
   */
  readonly serve: RequestHandler;
}

/** Backup archives kept beside the images, under `backups/` (server/backups/). */
export interface ArchiveShelf {
  /** Where they go, for people: `backups/` in the bucket at its endpoint. */
  readonly location: string;
  put(name: string, file: string): Promise<void>;
  /** The archives' names there (without the folder). */
  list(): Promise<string[]>;
  remove(name: string): Promise<void>;
}

/** Every name the stores hand out or accept: one path segment, no dot first (no traversal,
 * no hidden files), short enough for any file system or bucket. */
export function isImageName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name);
}

/** What every stored image is: re-encoded JPEG (images.ts), whatever the store. */
export const IMAGE_CONTENT_TYPE = 'image/jpeg';

/** A year, immutable: names are random and never reused, so a URL's bytes never change. */
export const IMAGE_MAX_AGE_SECONDS = 365 * 86_400;

/** An upload that cannot be stored is the storage's fault, not the user's: a 503 they can retry. */
export const STORAGE_UNAVAILABLE = 'Images cannot be stored right now; please try again in a moment';
