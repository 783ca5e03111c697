// The counters several instances share (server/postgres/postgres.counters.ts): login and request
// throttles, in rate-limiter-flexible's layout. Made here rather than by the library at start, so
// no instance runs DDL while serving. The columns' order is the library's: it inserts
// `VALUES (key, points, expire)`.
// - key: the limiter's name and the client's key (`login_ip:203.0.113.7`); text, as a long key is
//   hashed to a short one before it gets here;
// - expire: when the window ends, in ms since the epoch; the leader deletes what has expired, by
//   the index.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE rate_limits (
    key text COLLATE "C" PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  )`.execute(db);
  await sql`CREATE INDEX rate_limits_expire ON rate_limits (expire)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS rate_limits`.execute(db);
}
