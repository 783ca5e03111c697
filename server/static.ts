// Serves the built client from memory, pre-compressed at build time (brotli, gzip), with the SPA
// fallback: a path that is no file gets index.html so deep links like /profile load the app,
// once `notFound` (the server-rendered not-found page for a path no route takes) has passed it on.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { encodedAlready } from './compress.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Where the build puts its content-hashed files (scripts/build.ts). */
const ASSETS_PREFIX = '/assets/';

interface Asset {
  type: string;
  etag: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** Content-hashed files under /assets/ never change, so browsers may keep them for a year. */
  immutable: boolean;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`)
      : [`${prefix}/${entry.name}`]);
}

export function loadClientAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return assets;
  const files = listFiles(dir);
  const present = new Set(files);
  for (const file of files) {
    // Source maps are large and wanted only by a developer's tools: served from disk instead.
    if (file.endsWith('.br') || file.endsWith('.gz') || file.endsWith('.map')) continue;
    const identity = readFileSync(path.join(dir, file));
    assets.set(file, {
      type: TYPES[path.extname(file)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(identity).digest('base64url')}"`,
      identity,
      br: present.has(`${file}.br`) ? readFileSync(path.join(dir, `${file}.br`)) : undefined,
      gzip: present.has(`${file}.gz`) ? readFileSync(path.join(dir, `${file}.gz`)) : undefined,
      immutable: file.startsWith(ASSETS_PREFIX),
    });
  }
  return assets;
}

function send(req: Request, res: Response, asset: Asset): void {
  // Compressed at build time at brotli's best: never again per request.
  encodedAlready(res);
  res.set({
    'Content-Type': asset.type,
    'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: asset.etag,
    Vary: 'Accept-Encoding',
  });
  if (req.get('if-none-match') === asset.etag) {
    res.status(304).end();
    return;
  }
  const accepted = req.get('accept-encoding') ?? '';
  let body = asset.identity;
  if (asset.br && /\bbr\b/.test(accepted)) {
    body = asset.br;
    res.set('Content-Encoding', 'br');
  } else if (asset.gzip && /\bgzip\b/.test(accepted)) {
    body = asset.gzip;
    res.set('Content-Encoding', 'gzip');
  }
  res.set('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/** `shell` answers a client route's path instead of the bare index.html (server/pages/: with the site's settings in it). */
export function clientHandler(dir: string, notFound?: RequestHandler, shell?: RequestHandler): RequestHandler {
  const assets = loadClientAssets(dir);
  const index = assets.get('/index.html');
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path);
    if (asset) return send(req, res, asset);
    if (req.path.startsWith(ASSETS_PREFIX) && req.path.endsWith('.map')) {
      // Only a developer's tools ask for these: sent as they are, not compressed per request.
      encodedAlready(res);
      return res.sendFile(req.path.slice(1), { root: dir, maxAge: '1y', immutable: true, dotfiles: 'deny' }, (err) => {
        if (err) next();
      });
    }
    // Only the bundle's asset folder holds files, so a missing one there is a plain 404; any other
    // path, dots and all (/beatnik/john.doe), is a client route.
    if (req.path.startsWith(ASSETS_PREFIX) || !index) return next();
    const sendIndex = () => send(req, res, index);
    const sendShell = shell ? () => shell(req, res, sendIndex) : sendIndex;
    if (!notFound) return sendShell();
    notFound(req, res, sendShell);
  };
}
