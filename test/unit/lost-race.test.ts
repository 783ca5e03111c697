// A write the database refuses because it lost a race (errors.ts, lostRace) is a 409 saying to try
// again, never a 500: on SQLite with a real constraint, and for PostgreSQL's SQLSTATEs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request, Response } from 'express';
import { DATABASE_UNAVAILABLE, DISK_FULL, errorHandler, RACE_MESSAGE } from '../../server/errors.ts';
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

test("PostgreSQL's foreign_key_violation, unique_violation and deadlock_detected are a 409; other errors stay a 500", () => {
  for (const code of ['23503', '23505', '40P01']) assert.equal(answer(Object.assign(new Error('x'), { code })).status, 409);
  for (const code of ['23514', 'SQLITE_CONSTRAINT_CHECK', undefined]) assert.equal(answer(Object.assign(new Error('x'), { code })).status, 500);
});

test('a database that is down, restarting or ending our sessions is a 503 saying so; a full disk a 503 saying that', () => {
  const unavailable = { status: 503, body: { detail: DATABASE_UNAVAILABLE }, warned: 1 };
  for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET']) {
    assert.deepEqual(answer(Object.assign(new Error('x'), { code })), unavailable, code);
  }
  // pg's own errors for a lost connection carry no code.
  assert.deepEqual(answer(new Error('Connection terminated unexpectedly')), unavailable);
  for (const code of ['SQLITE_FULL', '53100']) {
    assert.deepEqual(answer(Object.assign(new Error('database or disk is full'), { code })), { status: 503, body: { detail: DISK_FULL }, warned: 1 }, code);
  }
  for (const code of ['57014', '0800', 'SQLITE_ERROR']) assert.equal(answer(Object.assign(new Error('x'), { code })).status, 500, code);
});
