// Row locks the PostgreSQL dialect needs where SQLite needs none: SQLite runs one write
// transaction at a time, PostgreSQL runs them side by side at READ COMMITTED, where two
// transactions that each count the admins before changing one could both see two.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * Until the transaction ends: every admin's row, so the admins counted stay the admins (the last
 * one may neither be demoted nor delete their account), and the account's own, so none of its own
 * writes lands beside its removal. In id order, as every taker takes them: no deadlock.
 */
export async function lockAdminsAndAccount(trx: DB, userId = 0): Promise<void> {
  await sql`SELECT id FROM users WHERE level = 'admin' OR id = ${userId} ORDER BY id FOR UPDATE`.execute(trx);
}

/**
 * Until the transaction ends: the account's own row, so that two of its writes at once take their
 * turns (a new account's brakes count its articles and comments: server/new-accounts/).
 */
export async function lockAccount(trx: DB, userId: number): Promise<void> {
  await sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.execute(trx);
}
