// The real entry point, as `npm start` runs it: configuration errors, start-up, and signals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

function runMain(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

test('a bad setting stops start-up with one line naming the variable', async () => {
  const child = runMain({ PORT: 'abc' });
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
    const child = runMain({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /"url":"([^"]+)"/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const health = await fetch(`${url}/api/health`);
    assert.equal(health.status, 200);
    assert.ok(existsSync(path.join(dataDir, 'beatnik.db')));
    assert.ok(existsSync(path.join(dataDir, 'jwt-secret')));
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
