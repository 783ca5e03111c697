// A write the database refuses because it lost a race (errors.ts, lostRace) is a 409 saying to try
// again, never a 500: on SQLite with a real constraint, and for PostgreSQL's SQLSTATEs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request, Response } from 'express';
import { errorHandler, RACE_MESSAGE } from '../../server/errors.ts';
import { openKeptSqlite } from '../kept-sqlite.ts';
import type { Logger } from '../../server/log.ts';

function answer(err: unknown): { status: number; body: unknown; warned: number } {
  let warned = 0;
  const log = { warn: () => { warned += 1; }, error: () => {} } as unknown as Logger;
  const res = {
    headersSent: false, statusCode: 200, body: undefined as unknown,
    status(code: number) { this.statusCode = code; return this; },
    set() { return this; },
    json(body: unknown) { this.body = body; return this; },
  };
  errorHandler(log)(err, { id: 'r1', method: 'POST', path: '/api/x' } as Request, res as unknown as Response, () => {});
  return { status: res.statusCode, body: res.body, warned };
}

test('a foreign key or a unique index refusing a write on SQLite is a 409', () => {
  const db = openKeptSqlite(':memory:');
  db.exec('PRAGMA foreign_keys = ON; CREATE TABLE a (id INTEGER PRIMARY KEY, k TEXT UNIQUE); CREATE TABLE b (a_id INTEGER REFERENCES a(id))');
  db.exec("INSERT INTO a (id, k) VALUES (1, 'x')");
  for (const statement of ['INSERT INTO b (a_id) VALUES (2)', "INSERT INTO a (k) VALUES ('x')", "INSERT INTO a (id, k) VALUES (1, 'y')"]) {
    let error: unknown;
    try { db.exec(statement); } catch (err) { error = err; }
    assert.ok(error, statement);
    assert.deepEqual(answer(error), { status: 409, body: { detail: RACE_MESSAGE }, warned: 1 }, statement);
  }
  db.close();
});

test("PostgreSQL's foreign_key_violation and unique_violation are a 409; other errors stay a 500", () => {
  for (const code of ['23503', '23505']) assert.equal(answer(Object.assign(new Error('x'), { code })).status, 409);
  for (const code of ['23514', 'SQLITE_CONSTRAINT_CHECK', undefined]) assert.equal(answer(Object.assign(new Error('x'), { code })).status, 500);
});
