// On Node 24 better-sqlite3 12 aborts the process when the garbage collector frees one of its
// objects (server/sqlite/sqlite.kept-objects.ts). Whether it does in a given run depends on when
// the collector runs, and on Node 20 freeing one is harmless, so this test watches for the
// freeing itself, on both Nodes: a process with an exposed collector uses the driver the ways
// Beatnik and its tests do, lets go of everything, collects, and reports which driver objects
// were freed. None may be.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const module = (file: string) => JSON.stringify(new URL(`../../server/sqlite/${file}`, import.meta.url).href);
const testModule = (file: string) => JSON.stringify(new URL(`../${file}`, import.meta.url).href);

/** Watches every object the driver hands out (connection, statement, iterator) until collected. */
const SCRIPT = (file: string) => `
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openSqlite } from ${module('sqlite.database.ts')};
import { integrityOf, isBeatnikDatabase } from ${module('sqlite.files.ts')};
import { openKeptSqlite } from ${testModule('kept-sqlite.ts')};
import { waitFor } from ${testModule('wait-for.ts')};

const freed = [];
const registry = new FinalizationRegistry((what) => freed.push(what));
const watched = new WeakSet();
const watch = (object, what) => {
  if (!watched.has(object)) registry.register(object, what);
  watched.add(object);
  return object;
};
const { prepare, exec } = SQLite.prototype;
let statementPrototype;
SQLite.prototype.exec = function (...args) { watch(this, 'connection'); return exec.apply(this, args); };
SQLite.prototype.prepare = function (...args) {
  watch(this, 'connection');
  const statement = watch(prepare.apply(this, args), 'statement');
  if (!statementPrototype) {
    statementPrototype = Object.getPrototypeOf(statement);
    const { iterate } = statementPrototype;
    statementPrototype.iterate = function (...params) { return watch(iterate.apply(this, params), 'iterator'); };
    // pragma() and transaction() prepare past Database.prototype.prepare: their statements are
    // seen as they run.
    for (const name of ['all', 'get', 'run']) {
      const method = statementPrototype[name];
      statementPrototype[name] = function (...params) { watch(this, 'statement'); return method.apply(this, params); };
    }
  }
  return statement;
};

async function use() {
  const db = openSqlite(${JSON.stringify(file)});
  await sql\`CREATE TABLE posts (id INTEGER PRIMARY KEY)\`.execute(db);
  for (const table of ['users', 'ratings', 'comments']) await sql.raw(\`CREATE TABLE \${table} (id INTEGER)\`).execute(db);
  await sql\`INSERT INTO posts VALUES (1), (2)\`.execute(db);
  // More texts than any cache would hold, read as a stream too, and a transaction.
  for (let i = 0; i < 700; i += 1) await sql.raw(\`SELECT \${i} AS n\`).execute(db);
  for await (const row of db.selectFrom('posts').selectAll().stream()) void row;
  await db.transaction().execute((trx) => sql\`INSERT INTO posts VALUES (3)\`.execute(trx));
  await db.destroy();
  // What the admin CLI's restore and backup check on a file.
  if (!isBeatnikDatabase(${JSON.stringify(file)}) || integrityOf(${JSON.stringify(file)}) !== 'ok') throw new Error('not a whole database');
  // What tests do on a file directly (test/kept-sqlite.ts), Kysely on it too.
  const raw = watch(openKeptSqlite(${JSON.stringify(file)}), 'connection');
  raw.pragma('foreign_keys = ON');
  if (raw.pragma('foreign_keys', { simple: true }) !== 1) throw new Error('the pragma did not hold');
  raw.prepare('SELECT count(*) FROM posts').pluck().get();
  raw.transaction(() => raw.prepare('INSERT INTO posts VALUES (4)').run())();
  await sql\`SELECT id FROM posts\`.execute(new Kysely({ dialect: new SqliteDialect({ database: raw }) }));
  raw.close();
  watch({}, 'a control object');
}

/** Collects until the object watched as \`what\` is reported freed. */
const collected = (what) => waitFor(() => {
  globalThis.gc();
  return freed.includes(what);
}, { what });

await use();
await collected('a control object');
// One more whole collection, and its reports, after the one that freed the control object.
watch({}, 'a later control object');
await collected('a later control object');
console.log(JSON.stringify([...new Set(freed)].sort()));
`;

test('no object of the driver is ever freed while the process runs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-kept-'));
  try {
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT(path.join(dir, 'test.db'))], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').at(-1)!), ['a control object', 'a later control object'],
      'only the control objects were collected (which shows the collections ran)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
