// The real entry point, as `npm start` runs it: configuration errors, start-up, and signals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { spawnServer, stopProcess } from '../helpers.ts';

test('a bad setting stops start-up with one line naming the variable', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: 'abc' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.equal(stderr.trim().split('\n').length, 1);
  assert.match(stderr, /PORT must be a whole number/);
});

test('starts, migrates, serves, and exits 0 on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  try {
    const { child, url } = await spawnServer(['--import', 'tsx', 'server/main.ts'], { DATA_DIR: dataDir });
    const health = await fetch(`${url}/api/health`);
    assert.equal(health.status, 200);
    assert.ok(existsSync(path.join(dataDir, 'beatnik.db')));
    assert.ok(existsSync(path.join(dataDir, 'jwt-secret')));
    assert.ok(existsSync(path.join(dataDir, 'beatnik.pid')), 'a running server announces itself');
    assert.equal(await stopProcess(child), 0);
    assert.ok(!existsSync(path.join(dataDir, 'beatnik.pid')), 'and removes the pid file when it stops');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
