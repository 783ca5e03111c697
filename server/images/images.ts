// Every stored image is decoded and re-encoded here: true single-channel grayscale JPEG (q80),
// auto-rotated, metadata stripped, bounded in pixels, under a random name (DESIGN.md, Images).
import { randomBytes } from 'node:crypto';
import type { Sharp } from 'sharp';
import { INVALID_IMAGE_MESSAGE } from '../../shared/images.ts';
import { badRequest } from '../errors.ts';
import { isImageName, type ImageStore } from './image-store.ts';

/** A remote avatar is a fediverse author's picture, copied here as a user's avatar is (federation/). */
export type ImageKind = 'article' | 'avatar' | 'remote-avatar';

/** Formats people upload as pictures; SVG and PDF are documents, not pictures. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
/** Refuses decompression bombs before they are decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

type SharpModule = typeof import('sharp').default;
let sharpModule: Promise<SharpModule> | undefined;

/** libvips is loaded on the first upload, not at start: most requests never touch an image. */
function loadSharp(): Promise<SharpModule> {
  sharpModule ??= import('sharp').then((m) => m.default);
  return sharpModule;
}

function pipelineFor(sharp: SharpModule, kind: ImageKind, input: Buffer): Sharp {
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  const sized = kind === 'avatar' || kind === 'remote-avatar'
    ? image.resize(400, 400, { fit: 'cover', position: 'attention' })
    : image.resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true });
  return sized.grayscale().toColourspace('b-w').jpeg({ quality: 80, mozjpeg: true });
}

/** Decodes, re-encodes and stores an upload; returns its name (served at /uploads/<name>). */
export async function storeImage(store: ImageStore, kind: ImageKind, input: Buffer): Promise<string> {
  const sharp = await loadSharp();
  let encoded: Buffer;
  try {
    const { format } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(INVALID_IMAGE_MESSAGE);
    encoded = await pipelineFor(sharp, kind, input).toBuffer();
  } catch {
    // Whatever sharp cannot decode (or we do not accept) is not a valid image to the user.
    throw badRequest(INVALID_IMAGE_MESSAGE);
  }
  const name = `${kind}-${randomBytes(16).toString('hex')}.jpg`;
  await store.put(name, encoded);
  return name;
}

/** Removes a stored image; one already gone is fine, and a name no store could hold is ignored. */
export async function removeImage(store: ImageStore, name: string | null | undefined): Promise<void> {
  if (!name || !isImageName(name)) return;
  await store.remove(name);
}
