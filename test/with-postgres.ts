// Runs a command (a test suite) against a throwaway PostgreSQL: `node --import tsx
// test/with-postgres.ts npm run test:suites`. It starts the cluster, migrates a template database
// that every test server copies (CREATE DATABASE … TEMPLATE, tens of milliseconds), sets
// BEATNIK_TEST_POSTGRES for test/helpers.ts, and removes the cluster when the command ends.
import { spawn } from 'node:child_process';
import pg from 'pg';
import { migrateToLatest } from '../server/db.ts';
import { openPostgres } from '../server/postgres/postgres.database.ts';
import { startPostgresCluster } from '../scripts/postgres-cluster.ts';
import { TEMPLATE_DATABASE } from './postgres-databases.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-postgres.ts COMMAND [ARGS…]');
  process.exit(2);
}

const cluster = await startPostgresCluster();
process.on('exit', () => cluster.stop());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const admin = new pg.Client({ connectionString: `${cluster.baseUrl}/postgres` });
await admin.connect();
await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
await admin.end();
const template = openPostgres(`${cluster.baseUrl}/${TEMPLATE_DATABASE}`);
await migrateToLatest(template);
await template.destroy();
console.log(`with-postgres: PostgreSQL 15 on port ${cluster.port}`);

const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, BEATNIK_TEST_POSTGRES: cluster.baseUrl },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
