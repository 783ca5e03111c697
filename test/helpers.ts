// Test support: the real app on 127.0.0.1, port 0, with its own temporary data directory;
// factories that make data through the API as users would.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { after, before } from 'node:test';
import { CompiledQuery } from 'kysely';
import { loadConfig, type Config } from '../server/config.ts';
import { databasePath, dialectOf, openDatabase } from '../server/db.ts';
import type { DB } from '../server/schema.ts';
import { openPostgres } from '../server/postgres/postgres.database.ts';
import { recentVisitsOf } from '../server/posts/posts.recent-visits.ts';
import { startServer, type RunningServer, type StartOptions } from '../server/server.ts';
import { LET_IN, register } from '../server/auth/auth.service.ts';
import type { JobRunnerOptions } from '../server/jobs/jobs.runner.ts';
import { createTestDatabase, dropTestDatabase, testPostgresBase } from './postgres-databases.ts';

export const CHEAP_HASHING = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export interface TestServer extends RunningServer {
  dataDir: string;
  /** Closes the server and deletes its data directory. */
  stop(): Promise<void>;
  api<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<ApiResponse<T>>;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export async function startTestServer(
  options: {
    config?: Partial<Config>; env?: Record<string, string>; clientDir?: string; logTo?: Writable; jobs?: JobRunnerOptions;
    /** Return as soon as the server listens, while its start-up ranking refresh may still run
     * (by default the test waits for it, so it never changes the data under a test). */
    duringStartupRefresh?: boolean;
    /** Serve https with this key and certificate (test/federation-servers.ts). */
    tls?: StartOptions['tls'];
  } = {},
): Promise<TestServer> {
  const dataDir = options.config?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'beatnik-test-'));
  const databaseUrl = options.config?.databaseUrl !== undefined ? options.config.databaseUrl : await testDatabaseFor(dataDir);
  const config = loadConfig(
    // No scheduled backups unless a test asks (their job would wait in every test's jobs table).
    { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', BACKUP_HOURS: '0', ...options.env },
    { port: 0, host: '127.0.0.1', dataDir, databaseUrl, passwordHashing: CHEAP_HASHING, ...options.config },
  );
  const running = await startServer(config, { clientDir: options.clientDir, logTo: options.logTo, jobs: options.jobs, tls: options.tls });
  if (!options.duringStartupRefresh) await running.startupRefresh;
  return {
    ...running,
    dataDir,
    async stop() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && testDatabases.get(dataDir) === databaseUrl) {
        testDatabases.delete(dataDir);
        await dropTestDatabase(databaseUrl);
      }
    },
    api: (method, urlPath, requestOptions) => apiCall(running.url, method, urlPath, requestOptions),
  };
}

/**
 * One server for the tests of the file it is called in: started before them, then `setUp` (what
 * they share, such as their users), stopped after them, also when the start failed.
 */
export function withTestServer(setUp: (server: TestServer) => Promise<void>, options?: Parameters<typeof startTestServer>[0]): void {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer(options);
    await setUp(server);
  });
  after(async () => { await server?.stop(); });
}

export async function apiCall<T = any>(
  baseUrl: string, method: string, urlPath: string, options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Under `npm run test:pg`, each data directory has its own database: a restart finds it again. */
const testDatabases = new Map<string, string>();

async function testDatabaseFor(dataDir: string): Promise<string | null> {
  const base = testPostgresBase();
  if (!base) return null;
  let url = testDatabases.get(dataDir);
  if (!url) {
    url = await createTestDatabase(base);
    testDatabases.set(dataDir, url);
  }
  return url;
}

/** The environment a spawned server or CLI needs to reach the same database as `dataDir`'s. */
export async function databaseEnv(dataDir: string): Promise<Record<string, string>> {
  const url = await testDatabaseFor(dataDir);
  return url ? { DATABASE_URL: url } : {};
}

/** The database a data directory's server or CLI uses, opened beside them (close it after). */
export async function openDataDirDatabase(dataDir: string): Promise<DB> {
  const url = await testDatabaseFor(dataDir);
  return url ? openPostgres(url) : openDatabase(databasePath(dataDir));
}

let counter = 0;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

/**
 * As if the 30-minute visit window had passed for these visits (every one by default): their
 * records are moved back, and the server's memory of the visits it counted is emptied.
 */
export async function letVisitsCountAgain(server: TestServer, only?: { postId: number; visitor: string }): Promise<void> {
  let moved = server.ctx.db.updateTable('post_visits').set({ last_counted_at: new Date(Date.now() - 31 * 60_000).toISOString() });
  if (only) moved = moved.where('post_id', '=', only.postId).where('visitor', '=', only.visitor);
  await moved.execute();
  recentVisitsOf(server.ctx.db).forgetAll();
}

/** A fresh account's fields, those given kept. */
function freshAccount(fields: { username?: string; email?: string; password?: string; bio?: string }) {
  counter += 1;
  const suffix = `${process.pid}${counter}`;
  const username = fields.username ?? `user${suffix}`;
  const email = fields.email ?? `${username.toLowerCase()}@example.com`;
  const password = fields.password ?? 'password123';
  return { username, email, password, bio: fields.bio };
}

/** Registers and logs in a fresh user through the API. */
export async function createUser(
  server: TestServer, fields: { username?: string; email?: string; password?: string; bio?: string } = {},
): Promise<TestUser> {
  const { username, email, password, bio } = freshAccount(fields);
  const registered = await server.api('POST', '/api/auth/register', {
    json: { username, email, password, bio },
  });
  if (registered.status !== 201) {
    throw new Error(`register ${username}: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
  const token = await loginAs(server, email, password);
  return { id: registered.body.id, username, email, password, token };
}

/**
 * An account past its first day, so that the brakes on new accounts (server/new-accounts/) stay
 * out of a test that turns RATE_LIMITS on for something else and writes more than they allow.
 */
export async function createSeasonedUser(server: TestServer, fields: Parameters<typeof createUser>[1] = {}): Promise<TestUser> {
  const user = await createUser(server, fields);
  await sqlRows(server.ctx.db, 'UPDATE users SET created_at = ? WHERE id = ?', new Date(Date.now() - 7 * 86_400_000).toISOString(), user.id);
  return user;
}

export async function loginAs(server: TestServer, email: string, password: string): Promise<string> {
  const response = await server.api('POST', '/api/auth/login', { json: { email, password } });
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status}`);
  return response.body.access_token;
}

/** Makes a user an admin directly in the database (the CLI does this in real life). */
export async function promoteToAdmin(server: TestServer, userId: number): Promise<void> {
  await server.ctx.db.updateTable('users').set({ level: 'admin' }).where('id', '=', userId).execute();
}

/** Bans a user directly in the database, as an admin's ban would (without bumping the token). */
export async function banInDatabase(server: TestServer, userId: number, ban: { permanent: boolean; days?: number; reason?: string }): Promise<void> {
  await server.ctx.db.updateTable('users').set({
    banned_at: new Date().toISOString(),
    ban_permanent: ban.permanent ? 1 : 0,
    ban_until: ban.permanent ? null : new Date(Date.now() + (ban.days ?? 1) * 86_400_000).toISOString(),
    ban_reason: ban.reason ?? 'test ban',
  }).where('id', '=', userId).execute();
}

/** A small real image (PNG, in colour) for upload tests, made by sharp. */
export async function samplePng(width = 64, height = 48): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } }).png().toBuffer();
}

/** A multipart body: text fields plus an optional file. */
export function multipart(fields: Record<string, string>, file?: { field: string; data: Buffer; name?: string; type?: string }): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }), file.name ?? 'image.png');
  return form;
}

/** The entry point as `npm start` runs it: the production bundle, which the API, CLI and browser
 * scripts build first when a source is newer (`build.ts --if-stale`). It listens in a third of
 * the time `server/main.ts` takes under tsx. */
export const SERVER_BUNDLE = 'dist/server/main.js';

/** A spawned Beatnik: its process, its URL, and all it has printed on stdout so far. */
export interface SpawnedServer {
  child: ChildProcess;
  url: string;
  stdout: () => string;
}

/**
 * Beatnik as its own process (`node <args>`), on port 0, on DATA_DIR's test database; resolves
 * once it logs its URL. Its output is kept from the first byte: a line printed in the same
 * chunk as the URL (the start-up refresh's, on a busy machine) would be lost to a listener added
 * after this resolves.
 */
export async function spawnServer(args: string[], env: Record<string, string>): Promise<SpawnedServer> {
  const database = env.DATA_DIR ? await databaseEnv(env.DATA_DIR) : {};
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BACKUP_HOURS: '0', ...database, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /"url":"([^"]+)"/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before serving: ${out}`)));
  });
  return { child, url, stdout: () => out };
}

/** Sends SIGTERM and resolves with the exit code. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/**
 * A fresh admin, signed in: made as the CLI's create-admin makes one, in every registration mode
 * (DESIGN.md, Registration), then promoted.
 */
export async function createAdmin(server: TestServer, fields: Parameters<typeof createUser>[1] = {}): Promise<TestUser> {
  const { username, email, password, bio } = freshAccount(fields);
  const { user } = await register(server.ctx, { username, email, password, bio }, LET_IN);
  await promoteToAdmin(server, user.id);
  return { id: user.id, username, email, password, token: await loginAs(server, email, password) };
}

/** Rows of raw SQL run on a database, for tests that arrange or inspect it directly. */
export async function sqlRows<Row = Record<string, unknown>>(db: DB, text: string, ...params: unknown[]): Promise<Row[]> {
  let n = 0;
  const query = dialectOf(db) === 'postgres' ? text.replace(/\?/g, () => `$${++n}`) : text;
  return (await db.executeQuery<Row>(CompiledQuery.raw(query, params))).rows;
}

/** The single number a raw `SELECT count(*) …` (or any one-value query) answers. */
export async function sqlNumber(db: DB, text: string, ...params: unknown[]): Promise<number> {
  const [row] = await sqlRows(db, text, ...params);
  return Number(Object.values(row ?? {})[0]);
}

/**
 * Makes every UPDATE of `column` on the row `id` of `table` fail inside the database, as a full
 * disk or a lost connection would; returns the function that removes the fault.
 */
export async function failUpdates(db: DB, table: string, column: string, id: number): Promise<() => Promise<void>> {
  if (dialectOf(db) === 'postgres') {
    await sqlRows(db, `CREATE FUNCTION fail_update() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$`);
    await sqlRows(db, `CREATE TRIGGER fail_update BEFORE UPDATE OF ${column} ON ${table}
      FOR EACH ROW WHEN (NEW.id = ${id}) EXECUTE FUNCTION fail_update()`);
    return async () => {
      await sqlRows(db, `DROP TRIGGER fail_update ON ${table}`);
      await sqlRows(db, 'DROP FUNCTION fail_update');
    };
  }
  await sqlRows(db, `CREATE TRIGGER fail_update BEFORE UPDATE OF ${column} ON ${table} WHEN NEW.id = ${id}
    BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
  return async () => { await sqlRows(db, 'DROP TRIGGER fail_update'); };
}

/** Makes every INSERT into `table` fail inside the database; returns the function that removes the fault. */
export async function failInserts(db: DB, table: string): Promise<() => Promise<void>> {
  if (dialectOf(db) === 'postgres') {
    await sqlRows(db, `CREATE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$`);
    await sqlRows(db, `CREATE TRIGGER fail_insert BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_insert()`);
    return async () => {
      await sqlRows(db, `DROP TRIGGER fail_insert ON ${table}`);
      await sqlRows(db, 'DROP FUNCTION fail_insert');
    };
  }
  await sqlRows(db, `CREATE TRIGGER fail_insert BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
  return async () => { await sqlRows(db, 'DROP TRIGGER fail_insert'); };
}
