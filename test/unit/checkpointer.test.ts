import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../server/maintenance/checkpointer.ts';

test('the worker moves committed pages from the WAL into the database file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-ckpt-'));
  const file = path.join(dir, 'test.db');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0'); // only the worker may checkpoint
  db.exec('CREATE TABLE t (x TEXT)');
  const errors: string[] = [];
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), 20);
  try {
    const sizeBefore = statSync(file).size;
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => { for (let i = 0; i < 2000; i += 1) insert.run('x'.repeat(200)); })();
    const deadline = Date.now() + 10_000;
    while (statSync(file).size <= sizeBefore + 100_000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(statSync(file).size > sizeBefore + 100_000, 'pages reached the database file');
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
