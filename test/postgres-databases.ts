// One PostgreSQL database per test server, copied from the migrated template that
// test/with-postgres.ts made; dropped when the server stops. Tests stay isolated and run in any
// order, as they do with a temporary SQLite file each.
import pg from 'pg';

export const TEMPLATE_DATABASE = 'beatnik_template';

/** The throwaway cluster's base URL when the suite runs on PostgreSQL (npm run test:pg). */
export function testPostgresBase(): string | undefined {
  return process.env.BEATNIK_TEST_POSTGRES || undefined;
}

/** Whether this run's test servers use PostgreSQL. */
export const onPostgres = testPostgresBase() !== undefined;

let created = 0;

/** A connection for one statement: a kept one would hold the test process open at its end. */
export async function onAdminDatabase(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, migrated, empty database; returns its URL. */
export async function createTestDatabase(base: string): Promise<string> {
  created += 1;
  const name = `beatnik_${process.pid}_${created}`;
  await onAdminDatabase(base, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  return `${base}/${name}`;
}

export async function dropTestDatabase(url: string): Promise<void> {
  const cut = url.lastIndexOf('/');
  await onAdminDatabase(url.slice(0, cut), `DROP DATABASE IF EXISTS ${url.slice(cut + 1)} WITH (FORCE)`);
}
