// Generated black-and-white pictures for demo articles: a small pool drawn once with sharp,
// then hard-linked under a fresh random name per article, so deleting one article's image
// never touches another's (a copy is made where hard links are not possible).
import { randomBytes } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
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

/** Draws `count` images into uploads/.seed-pool and returns their paths. */
export async function makeImagePool(uploadsDir: string, rnd: Random, count: number): Promise<string[]> {
  const poolDir = path.join(uploadsDir, '.seed-pool');
  mkdirSync(poolDir, { recursive: true });
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

/** Places a pool image under a fresh name in uploads/; returns that name. */
export function placeImage(uploadsDir: string, poolFile: string): string {
  const name = `article-${randomBytes(16).toString('hex')}.jpg`;
  const target = path.join(uploadsDir, name);
  try {
    linkSync(poolFile, target);
  } catch {
    copyFileSync(poolFile, target);
  }
  return name;
}
