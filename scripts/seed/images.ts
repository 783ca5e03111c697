// Generated black-and-white pictures for demo articles: a small pool drawn once with sharp,
// then stored through the image store under a fresh random name per article, so deleting one
// article's image never touches another's (on disk a hard link: the space is taken once).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageStore } from '../../server/images/image-store.ts';
import type { Progress } from './batches.ts';
import type { Random } from './corpus.ts';

function svgArt(rnd: Random, width: number, height: number): string {
  const shapes: string[] = [];
  const bands = 3 + Math.floor(rnd() * 5);
  for (let i = 0; i < bands; i += 1) {
    const shade = Math.floor(rnd() * 255);
    const y = Math.floor((i / bands) * height);
    shapes.push(`<rect x="0" y="${y}" width="${width}" height="${Math.ceil(height / bands)}" fill="rgb(${shade},${shade},${shade})"/>`);
  }
  for (let i = 0; i < 6; i += 1) {
    const shade = Math.floor(rnd() * 255);
    const r = 20 + Math.floor(rnd() * 120);
    shapes.push(`<circle cx="${Math.floor(rnd() * width)}" cy="${Math.floor(rnd() * height)}" r="${r}" fill="rgb(${shade},${shade},${shade})" fill-opacity="0.8"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`;
}

/** Draws `count` images into poolDir and returns their paths. */
export async function makeImagePool(poolDir: string, rnd: Random, count: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const jpeg = await sharp(Buffer.from(svgArt(rnd, 960, 600)))
      .grayscale().toColourspace('b-w').jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    const file = path.join(poolDir, `pool-${i}.jpg`);
    writeFileSync(file, jpeg);
    files.push(file);
  }
  return files;
}

export interface ImagePlacements {
  readonly pool: string[];
  /** A fresh name for an article's copy of a pool picture, stored later by storeAll. */
  place(poolFile: string): string;
  /** Stores every placed picture, a few at a time (a bucket answers in parallel). */
  storeAll(store: ImageStore, progress: Progress): Promise<void>;
}

/** Names are handed out while rows are made (synchronously); the files follow the rows. */
export function imagePlacements(pool: string[]): ImagePlacements {
  const placed: Array<{ name: string; file: string }> = [];
  return {
    pool,
    place(poolFile) {
      const name = `article-${randomBytes(16).toString('hex')}.jpg`;
      placed.push({ name, file: poolFile });
      return name;
    },
    async storeAll(store, progress) {
      let next = 0;
      let stored = 0;
      const worker = async () => {
        while (next < placed.length) {
          const { name, file } = placed[next++]!;
          await store.putFile(name, file);
          progress('images', ++stored, placed.length);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    },
  };
}
