// The real entry point, as `npm start` runs it: configuration errors, start-up, and signals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import { SERVER_BUNDLE, spawnServer, stopProcess } from '../helpers.ts';
import { createTestDatabase, dropTestDatabase, onAdminDatabase, onPostgres, testPostgresBase } from '../postgres-databases.ts';
import { describeServer } from '../../server/postgres/postgres.database.ts';

/** Runs the entry point until it exits; resolves with its exit code and stderr. */
async function startAndFail(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    env: { ...process.env, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
}

test('a bad setting stops start-up with one line naming the variable', async () => {
  const { code, stderr } = await startAndFail({ PORT: 'abc' });
  assert.equal(code, 1);
  assert.equal(stderr.trim().split('\n').length, 1);
  assert.match(stderr, /PORT must be a whole number/);
});

test('a port already in use: one line naming it, no stack, exit 1', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = squatter.address() as AddressInfo;
    const { code, stderr } = await startAndFail({ PORT: String(port), DATA_DIR: dataDir });
    assert.equal(stderr, `Port ${port} is already in use (set PORT)\n`);
    assert.equal(code, 1);
    assert.ok(!existsSync(path.join(dataDir, 'beatnik.pid')), 'no pid file is left behind');
  } finally {
    squatter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a data directory that cannot be written: one line naming it, no stack, exit 1', async () => {
  // Below a regular file: unwritable even for root, where permission bits do not stop writes.
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  try {
    writeFileSync(path.join(dir, 'a-file'), '');
    const dataDir = path.join(dir, 'a-file', 'data');
    const { code, stderr } = await startAndFail({ PORT: '0', DATA_DIR: dataDir });
    assert.equal(stderr, `Data directory ${dataDir} is not writable (set DATA_DIR)\n`);
    assert.equal(code, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreachable DATABASE_URL: one line naming host, port and database, never the password, exit 1', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  try {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const { code, stderr } = await startAndFail({
      PORT: '0', DATA_DIR: dataDir, DATABASE_URL: 'postgres://beatnik:hunter2@127.0.0.1:1/paper',
    });
    assert.equal(stderr, 'Cannot connect to PostgreSQL at 127.0.0.1:1/paper (DATABASE_URL): connection refused\n');
    assert.equal(code, 1);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a DATABASE_URL whose port is not PostgreSQL\'s: one line saying the server hung up, exit 1', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  // What a wrong port often is: something listens there, accepts, and closes on PostgreSQL's hello.
  const other = createServer((socket) => { socket.once('data', () => socket.end()); });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = other.address() as AddressInfo;
    const { code, stderr } = await startAndFail({
      PORT: '0', DATA_DIR: dataDir, DATABASE_URL: `postgres://beatnik:hunter2@127.0.0.1:${port}/paper`,
    });
    assert.equal(stderr, `Cannot connect to PostgreSQL at 127.0.0.1:${port}/paper (DATABASE_URL): `
      + 'the server closed the connection (is that PostgreSQL\'s port?)\n');
    assert.equal(code, 1);
  } finally {
    other.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a DATABASE_URL user that does not own the tables: one line naming user, server and what to change, exit 1',
  { skip: !onPostgres && 'PostgreSQL only' }, async () => {
    const base = testPostgresBase()!;
    const database = await createTestDatabase(base);
    const role = `beatnik_guest_${process.pid}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
    // The test cluster trusts every local user: a role of its own is enough to connect.
    await onAdminDatabase(base, `CREATE ROLE ${role} LOGIN`);
    try {
      const url = database.replace('postgres@', `${role}@`);
      const { code, stderr } = await startAndFail({ PORT: '0', DATA_DIR: dataDir, DATABASE_URL: url });
      assert.equal(stderr, `PostgreSQL user "${role}" lacks a privilege Beatnik needs at ${describeServer(url)} (DATABASE_URL): `
        + 'permission denied for table kysely_migration_lock; that user must own the database and every table in it '
        + '(docs/scaling.md, Running on PostgreSQL)\n');
      assert.equal(code, 1);
    } finally {
      await dropTestDatabase(database);
      await onAdminDatabase(base, `DROP ROLE ${role}`);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

test('starts, migrates, serves, and exits 0 on SIGTERM', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
  try {
    const { child, url } = await spawnServer([SERVER_BUNDLE], { DATA_DIR: dataDir });
    const health = await fetch(`${url}/api/health`);
    assert.equal(health.status, 200);
    assert.equal(existsSync(path.join(dataDir, 'beatnik.db')), !onPostgres);
    assert.ok(existsSync(path.join(dataDir, 'jwt-secret')));
    assert.ok(existsSync(path.join(dataDir, 'beatnik.pid')), 'a running server announces itself');
    assert.equal(await stopProcess(child), 0);
    assert.ok(!existsSync(path.join(dataDir, 'beatnik.pid')), 'and removes the pid file when it stops');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('images on S3', () => {
  let s3: FakeS3;
  before(async () => { s3 = await startFakeS3(); });
  after(async () => { await s3.stop(); });
  // On Node 20 the AWS SDK warns once that its 2027 releases will need Node 22: true, but not
  // about the configuration, and not part of the line these tests read.
  const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

  test('a bucket that does not exist: one line naming it and the endpoint, exit 1, nothing written', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
    try {
      const { code, stderr } = await startAndFail({ ...s3.env, ...quietSdk, S3_BUCKET: 'no-such-bucket', PORT: '0', DATA_DIR: dataDir });
      assert.equal(stderr, `S3 bucket "no-such-bucket" at ${s3.endpoint} does not exist (set S3_BUCKET, or create the bucket)\n`);
      assert.equal(code, 1);
      assert.ok(!existsSync(path.join(dataDir, 'beatnik.db')), 'checked before the database is made');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('wrong credentials, or an endpoint nobody answers at: one line each, exit 1', async () => {
    const nobody = createServer();
    await new Promise<void>((resolve) => nobody.listen(0, '127.0.0.1', resolve));
    const { port } = nobody.address() as AddressInfo;
    await new Promise((resolve) => nobody.close(resolve));
    const cases: Array<[Record<string, string>, string]> = [
      // s3rver checks the key id, not the signature.
      [{ S3_ACCESS_KEY_ID: 'nobody' }, `S3 bucket "${s3.bucket}" at ${s3.endpoint} refused these credentials (set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)\n`],
      [{ S3_ENDPOINT: `http://127.0.0.1:${port}` }, `S3 endpoint http://127.0.0.1:${port} cannot be reached: ECONNREFUSED (set S3_ENDPOINT)\n`],
    ];
    for (const [change, line] of cases) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
      try {
        const { code, stderr } = await startAndFail({ ...s3.env, ...quietSdk, ...change, PORT: '0', DATA_DIR: dataDir });
        assert.equal(stderr, line);
        assert.equal(code, 1);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });

  test('half of the S3 variables: one line naming the missing ones, exit 1', async () => {
    const { code, stderr } = await startAndFail({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket, PORT: '0' });
    assert.equal(stderr, 'S3 storage is half configured: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY too '
      + '(or unset every S3_ variable to keep images in DATA_DIR/uploads)\n');
    assert.equal(code, 1);
  });

  test('with the bucket there, the entry point starts and serves', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-main-'));
    try {
      const { child, url } = await spawnServer([SERVER_BUNDLE], { ...s3.env, ...quietSdk, DATA_DIR: dataDir });
      assert.equal((await fetch(`${url}/api/health`)).status, 200);
      assert.ok(!existsSync(path.join(dataDir, 'uploads')));
      assert.equal(await stopProcess(child), 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
