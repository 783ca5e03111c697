// Test support: the real app on 127.0.0.1, port 0, with its own temporary data directory;
// factories that make data through the API as users would.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { CompiledQuery } from 'kysely';
import { loadConfig, type Config } from '../server/config.ts';
import type { DB } from '../server/db.ts';
import { startServer, type RunningServer } from '../server/server.ts';

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
    config?: Partial<Config>; env?: Record<string, string>; clientDir?: string; logTo?: Writable;
    /** Return as soon as the server listens, while its start-up ranking refresh may still run
     * (by default the test waits for it, so it never changes the data under a test). */
    duringStartupRefresh?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = options.config?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'beatnik-test-'));
  const config = loadConfig(
    { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', ...options.env },
    { port: 0, host: '127.0.0.1', dataDir, passwordHashing: CHEAP_HASHING, ...options.config },
  );
  const running = await startServer(config, { clientDir: options.clientDir, logTo: options.logTo });
  if (!options.duringStartupRefresh) await running.startupRefresh;
  return {
    ...running,
    dataDir,
    async stop() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    api: (method, urlPath, requestOptions) => apiCall(running.url, method, urlPath, requestOptions),
  };
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

let counter = 0;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Registers and logs in a fresh user through the API. */
export async function createUser(
  server: TestServer, fields: { username?: string; email?: string; password?: string; bio?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const suffix = `${process.pid}${counter}`;
  const username = fields.username ?? `user${suffix}`;
  const email = fields.email ?? `${username.toLowerCase()}@example.com`;
  const password = fields.password ?? 'password123';
  const registered = await server.api('POST', '/api/auth/register', {
    json: { username, email, password, bio: fields.bio },
  });
  if (registered.status !== 201) {
    throw new Error(`register ${username}: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
  const token = await loginAs(server, email, password);
  return { id: registered.body.id, username, email, password, token };
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

/** Beatnik as its own process (`node <args>`), on port 0; resolves once it logs its URL. */
export async function spawnServer(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /"url":"([^"]+)"/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before serving: ${out}`)));
  });
  return { child, url };
}

/** Sends SIGTERM and resolves with the exit code. */
export function stopProcess(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** A fresh user made an admin, signed in. */
export async function createAdmin(server: TestServer, fields: Parameters<typeof createUser>[1] = {}): Promise<TestUser> {
  const admin = await createUser(server, fields);
  await promoteToAdmin(server, admin.id);
  return admin;
}

/** Rows of raw SQL run on a database, for tests that arrange or inspect it directly. */
export async function sqlRows<Row = Record<string, unknown>>(db: DB, text: string, ...params: unknown[]): Promise<Row[]> {
  return (await db.executeQuery<Row>(CompiledQuery.raw(text, params))).rows;
}

/** The single number a raw `SELECT count(*) …` (or any one-value query) answers. */
export async function sqlNumber(db: DB, text: string, ...params: unknown[]): Promise<number> {
  const [row] = await sqlRows(db, text, ...params);
  return Number(Object.values(row ?? {})[0]);
}

/** SQLite's plan for a query, one step a line: tests assert on indexes used and scans avoided. */
export async function queryPlan(db: DB, query: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const steps = await sqlRows<{ detail: string }>(db, `EXPLAIN QUERY PLAN ${query.sql}`, ...query.parameters);
  return steps.map((step) => step.detail).join('\n');
}
