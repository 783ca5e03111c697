// The WAL checkpoints run in a child process while there are pages to copy: it starts on writes,
// copies them, ends when idle, at the server's stop, and with the server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startCheckpointer } from '../../server/sqlite/sqlite.checkpointer.ts';
import { childProcesses, running } from '../child-processes.ts';
import { openKeptSqlite } from '../kept-sqlite.ts';
import { waitFor } from '../wait-for.ts';

/** The checkpointing processes `parent` runs (their command line is their source). */
const checkpointers = (parent = process.pid) => childProcesses('wal_checkpoint(PASSIVE)', parent);

/** A database in WAL mode with one table; its driver objects kept, so that Node 24 runs it too. */
function scratch() {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-ckpt-'));
  const file = path.join(dir, 'test.db');
  const db = openKeptSqlite(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA wal_autocheckpoint = 0'); // only the checkpointing process may checkpoint
  db.exec('CREATE TABLE t (x TEXT)');
  const insert = db.prepare('INSERT INTO t VALUES (?)');
  const write = (rows: number) => {
    db.exec('BEGIN');
    for (let i = 0; i < rows; i += 1) insert.run('x'.repeat(200));
    db.exec('COMMIT');
  };
  return { file, write, cleanup: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

test('a process starts on writes and moves committed pages from the WAL into the database file; stop ends it', async (t) => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  // The checkpointer's look at the WAL runs on a mocked interval, so the test says when it runs;
  // the child process keeps real timers.
  t.mock.timers.enable({ apis: ['setInterval'] });
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20 });
  try {
    t.mock.timers.tick(100);
    assert.equal(checkpointer.active, false, 'five looks at an unwritten WAL start no process');
    const sizeBefore = statSync(file).size;
    write(2000);
    t.mock.timers.tick(20);
    assert.equal(checkpointer.active, true, 'the next look after a write starts one');
    await waitFor(() => statSync(file).size > sizeBefore + 100_000, { what: 'pages to reach the database file' });
    assert.equal(checkpointers().length, 1);
    await checkpointer.stop();
    assert.equal(checkpointer.active, false);
    assert.deepEqual(checkpointers(), [], 'stopped, the process has ended');
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});

test('the process exits when idle and comes back for the next writes', async () => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20, idleExitMs: 100 });
  try {
    write(10);
    await waitFor(() => checkpointer.active, { what: 'a process to start' });
    await waitFor(() => !checkpointer.active, { what: 'the idle process to exit' });
    assert.deepEqual(checkpointers(), []);
    const sizeBefore = statSync(file).size;
    write(2000);
    await waitFor(() => checkpointer.active, { what: 'a process to start again' });
    await waitFor(() => statSync(file).size > sizeBefore + 100_000, { what: 'the new pages to reach the database file' });
    assert.deepEqual(errors, []);
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});

test('a SIGTERM or SIGINT to the process group (systemd\'s stop, Ctrl-C) ends the process cleanly, no failure logged', async () => {
  const { file, write, cleanup } = scratch();
  const errors: string[] = [];
  const checkpointer = startCheckpointer(file, (message) => errors.push(message), { intervalMs: 20 });
  try {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      write(10);
      await waitFor(() => checkpointers().length === 1, { what: 'a checkpointing process' });
      process.kill(checkpointers()[0]!, signal);
      await waitFor(() => !checkpointer.active, { what: `the process to end on ${signal}` });
      assert.deepEqual(errors, [], `nothing logged for ${signal}`);
    }
  } finally {
    await checkpointer.stop();
    cleanup();
  }
});

test('the process ends when the server dies', async () => {
  const { file, write, cleanup } = scratch();
  const checkpointerModule = JSON.stringify(new URL('../../server/sqlite/sqlite.checkpointer.ts', import.meta.url).href);
  // A server reduced to its checkpointer, killed with no chance to stop it.
  const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
    import { startCheckpointer } from ${checkpointerModule};
    startCheckpointer(${JSON.stringify(file)}, () => {}, { intervalMs: 20 });
    console.log('watching');
    setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await once(server.stdout!, 'data'); // it has read the WAL's date: a write from now on is new
    write(10);
    await waitFor(() => checkpointers(server.pid).length === 1, { what: 'the server to start a checkpointing process' });
    const [child] = checkpointers(server.pid);
    server.kill('SIGKILL');
    await waitFor(() => !running(child!), { what: 'the orphaned process to end' });
  } finally {
    server.kill('SIGKILL');
    cleanup();
  }
});
