import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../server/sqlite/sqlite.checkpointer.ts';

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function scratch() {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-ckpt-'));
  const file = path.join(dir, 'test.db');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0'); // only the worker may checkpoint
  db.exec('CREATE TABLE t (x TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  const write = (rows: number) => db.transaction(() => { for (let i = 0; i < rows; i += 1) insert.run('x'.repeat(200)); })();
  return { file, db, write, cleanup: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

test('a worker starts on writes and moves committed pages from the WAL into the database file', async () => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(checkpointer.active, false, 'no worker before anything is written');
    const sizeBefore = statSync(file).size;
    write(2000);
    await until(() => statSync(file).size > sizeBefore + 100_000, 'pages reached the database file');
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});

test('the worker exits when idle and comes back for the next writes', async () => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20, idleExitMs: 100 });
  try {
    write(10);
    await until(() => checkpointer.active, 'a worker started');
    await until(() => !checkpointer.active, 'the idle worker exited');
    const sizeBefore = statSync(file).size;
    write(2000);
    await until(() => checkpointer.active, 'a worker started again');
    await until(() => statSync(file).size > sizeBefore + 100_000, 'the new pages reached the database file');
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});
