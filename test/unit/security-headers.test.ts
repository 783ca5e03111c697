// Helmet runs once at start and each response gets the headers it recorded: they must be the
// very headers helmet itself sets on a response, with HSTS only when PUBLIC_URL is https.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { loadConfig } from '../../server/config.ts';
import { recordHeaders, securityHeaders } from '../../server/security-headers.ts';

async function headersSentBy(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware, (_req, res) => { res.send('ok'); });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers = Object.fromEntries(res.headers);
    for (const name of ['date', 'etag', 'content-length', 'content-type', 'connection', 'keep-alive']) delete headers[name];
    return headers;
  } finally {
    server.close();
  }
}

test('the recorded headers are the ones helmet sets itself', async () => {
  const config = loadConfig({ DATA_DIR: '/tmp/unused', PUBLIC_URL: 'https://paper.example' }, {});
  const recorded = await headersSentBy(securityHeaders(config));
  assert.equal(recorded['strict-transport-security'], 'max-age=31536000; includeSubDomains');
  assert.match(recorded['content-security-policy'] ?? '', /default-src 'self'/);
  assert.ok(Object.keys(recorded).length >= 10, Object.keys(recorded).join(', '));
  const plain = await headersSentBy(helmet() as unknown as RequestHandler);
  for (const name of Object.keys(plain)) {
    if (name !== 'content-security-policy') assert.equal(recorded[name], plain[name], name);
  }
});

test('no HSTS over plain HTTP; recording fails loudly on a middleware that does not finish at once', () => {
  const config = loadConfig({ DATA_DIR: '/tmp/unused', PUBLIC_URL: 'http://localhost:8000' }, {});
  const names = recordHeaders(securityHeaders(config)).set.map(([name]) => name.toLowerCase());
  assert.ok(!names.includes('strict-transport-security'));
  assert.ok(names.includes('x-content-type-options'));
  assert.throws(() => recordHeaders((_req, _res, next) => { setImmediate(next); }), /did not finish synchronously/);
});
