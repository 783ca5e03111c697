// A really full disk under SQLite (issue 27): DATA_DIR on a small tmpfs, filled by a file until
// the kernel says ENOSPC. SQLite then fails writing its WAL at a commit and rolls the
// transaction back itself, the path where a ROLLBACK after it used to hide the cause behind
// 'cannot rollback - no transaction is active'. Needs root (mount); skipped otherwise, and
// faults-disk.test.ts covers the same answers through PRAGMA max_page_count.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DISK_FULL } from '../../server/errors.ts';
import { createUser, multipart, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { logSink } from '../log-sink.ts';
import { onPostgres } from '../postgres-databases.ts';
import { apiFrom } from './from-address.ts';
import { articleFields, createPost } from './factories.ts';

const MAX_READERS = 1500;

const mountPoint = mkdtempSync(path.join(tmpdir(), 'beatnik-tmpfs-'));
/** Whether a tmpfs could be mounted here (root, and a kernel that lets this container mount). */
const mounted = !onPostgres && (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let server: TestServer;
let author: TestUser;
const sink = logSink();

before(async () => {
  if (!mounted) return;
  server = await startTestServer({ config: { dataDir: path.join(mountPoint, 'data') }, env: { LOG_LEVEL: 'info' }, logTo: sink.stream });
  author = await createUser(server);
});
after(async () => {
  if (mounted) {
    await server.stop();
    execFileSync('umount', [mountPoint]);
  }
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes a file until the file system has no room left; returns its path. */
function fillFileSystem(): string {
  const file = path.join(mountPoint, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (const size of [64 * 1024, 4096, 512]) {
      for (;;) {
        try {
          writeSync(fd, chunk, 0, size);
        } catch (err) {
          assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

test('a full file system: readers get the article, a write answers 503 with the cause, none says cannot rollback', {
  skip: onPostgres ? 'SQLite only' : !mounted && 'cannot mount a tmpfs here (needs root)',
}, async (t) => {
  const post = await createPost(server, author);
  const filler = fillFileSystem();
  const statuses: number[] = [];
  let counted = 0;
  for (let i = 0; i < MAX_READERS; i += 1) {
    const res = await apiFrom(`127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}`, server.url, 'GET', `/api/posts/${post.id}`);
    statuses.push(res.status);
    if (res.status !== 200 || res.body.visits === counted) break;
    counted = res.body.visits;
  }
  t.diagnostic(`answers ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}; ${counted} visits counted before the disk was full`);
  const logged = new Set(sink.lines.filter((l) => l.err).map((l) => `${l.msg}: ${(l.err as { message?: string }).message}`));
  t.diagnostic(`logged: ${[...logged].join(' | ')}`);
  assert.deepEqual(statuses.filter((s) => s !== 200), []);
  assert.ok(statuses.length < MAX_READERS, 'the disk filled up');
  const lost = sink.lines.filter((l) => l.msg === 'visits cannot be counted: the database cannot be written');
  assert.equal(lost.length, 1);
  assert.match(String((lost[0]!.err as { message?: string }).message), /database or disk is full/);
  const words = 'Words that take room on the page, and more of them. '.repeat(180);
  const write = await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields({ content: words })) });
  assert.deepEqual([write.status, write.body], [503, { detail: DISK_FULL }]);
  assert.deepEqual(sink.lines.filter((l) => JSON.stringify(l).includes('cannot rollback')), []);
  // Room again: writes go through.
  rmSync(filler);
  await createPost(server, author);
});
