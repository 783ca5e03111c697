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

/** Advisory locks of one account's turn, in the two-key space beside the leader's ('brk!', id). */
const ACCOUNT_TURN = 0x62726b21;

/**
 * Until the transaction ends: the account's turn, so that two of its writes at once take their
 * turns (a new account's brakes count its articles and comments: server/new-accounts/). An
 * advisory lock, not the account's row: the write goes on to update other accounts' rows (an
 * author's counters, a mention's mail), and a row lock taken first would meet those in the
 * opposite order in another new account's write, a deadlock.
 */
export async function lockAccount(trx: DB, userId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${ACCOUNT_TURN}, ${userId})`.execute(trx);
}
