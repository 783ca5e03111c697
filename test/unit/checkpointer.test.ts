import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { startCheckpointer } from '../../server/sqlite/sqlite.checkpointer.ts';
import { waitFor } from '../wait-for.ts';

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

test('a worker starts on writes and moves committed pages from the WAL into the database file', async (t) => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  // The checkpointer's look at the WAL runs on a mocked interval, so the test says when it runs;
  // the worker thread keeps real timers.
  t.mock.timers.enable({ apis: ['setInterval'] });
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20 });
  try {
    t.mock.timers.tick(100);
    assert.equal(checkpointer.active, false, 'five looks at an unwritten WAL start no worker');
    const sizeBefore = statSync(file).size;
    write(2000);
    t.mock.timers.tick(20);
    assert.equal(checkpointer.active, true, 'the next look after a write starts one');
    await waitFor(() => statSync(file).size > sizeBefore + 100_000, { what: 'pages to reach the database file' });
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
    await waitFor(() => checkpointer.active, { what: 'a worker to start' });
    await waitFor(() => !checkpointer.active, { what: 'the idle worker to exit' });
    const sizeBefore = statSync(file).size;
    write(2000);
    await waitFor(() => checkpointer.active, { what: 'a worker to start again' });
    await waitFor(() => statSync(file).size > sizeBefore + 100_000, { what: 'the new pages to reach the database file' });
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});
