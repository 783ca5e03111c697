// `npm start` runs the production bundle (dist/server/main.js, made by `npm run build`, which
// test:e2e runs first): it must start, migrate, serve the client and stop cleanly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

test('the production bundle serves the API and the client, and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-bundle-'));
  try {
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /"url":"([^"]+)"/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    assert.deepEqual(await (await fetch(`${url}/api/health`)).json(), { status: 'ok' });
    const page = await fetch(`${url}/post/1`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script type="module" src="\/assets\/main-[A-Z0-9]+\.js"><\/script>/);
    child.kill('SIGTERM');
    assert.equal(await new Promise((resolve) => child.on('exit', resolve)), 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
