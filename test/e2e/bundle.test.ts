// `npm start` runs the production bundle (dist/server/main.js, made by `npm run build`, which
// test:e2e runs first): it must start, migrate, serve the client, run its ranking refresh in the
// worker thread bundled beside it, and stop cleanly.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { spawnServer, stopProcess } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';

test('the production bundle serves the API and the client, and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-bundle-'));
  try {
    const { child, url } = await spawnServer(['dist/server/main.js'], { DATA_DIR: dataDir });
    let logged = '';
    child.stdout!.on('data', (chunk) => { logged += chunk; });
    await waitFor(() => /"msg":"rankings refresh/.test(logged), { what: 'the start-up ranking refresh' });
    assert.match(logged, /"msg":"rankings refreshed"/);
    assert.deepEqual(await (await fetch(`${url}/api/health`)).json(), { status: 'ok' });
    const page = await fetch(`${url}/post/1`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
    assert.equal(await stopProcess(child), 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
