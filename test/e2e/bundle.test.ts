// `npm start` runs the production bundle (dist/server/main.js, made by `npm run build`, which
// test:e2e runs first): it must start, migrate, render the public pages and serve the client,
// run its ranking refresh in the child process bundled beside it, and stop cleanly.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SERVER_BUNDLE, spawnServer, stopProcess } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';

test('the production bundle serves the API and the client, and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-bundle-'));
  let child: ChildProcess | undefined;
  try {
    const spawned = await spawnServer([SERVER_BUNDLE], { DATA_DIR: dataDir });
    child = spawned.child;
    const { url } = spawned;
    await waitFor(() => /"msg":"rankings refresh/.test(spawned.stdout()), { what: 'the start-up ranking refresh' });
    assert.match(spawned.stdout(), /"msg":"rankings refreshed"/);
    assert.deepEqual(await (await fetch(`${url}/api/health`)).json(), { status: 'ok' });
    // The public pages rendered by the bundle's React, with the built client's scripts: Home,
    // and an article that does not exist.
    const home = await fetch(url);
    assert.equal(home.status, 200);
    const homeHtml = await home.text();
    assert.match(homeHtml, /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
    assert.match(homeHtml, /The presses are waiting/);
    const missing = await fetch(`${url}/post/1`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /<h1 class="page-heading__title">Article not found<\/h1>/);
    assert.equal(await stopProcess(child), 0);
  } finally {
    // A failed check must not leave the server running (the test would wait for it).
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
