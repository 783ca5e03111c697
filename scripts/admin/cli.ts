// What every admin CLI command is made of, and the shared plumbing: the data directory opened
// like the server opens it, usage errors, retries when the running server holds the write lock.
import type { ParseArgsConfig } from 'node:util';
import { pino } from 'pino';
import { findUserByName } from '../../server/admin/admin.service.ts';
import { loadConfig, prepareDataDir, type Config } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { migrateConfiguredDatabase, openConfiguredDatabase } from '../../server/db.ts';
import { HttpError } from '../../server/errors.ts';
import { createImageStore } from '../../server/images/open-store.ts';
import type { Logger } from '../../server/log.ts';
import type { UserRow } from '../../server/schema.ts';

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandInput {
  values: OptionValues;
  positionals: string[];
}

export interface Output {
  /** One line of results on stdout. */
  line(text?: string): void;
}

export interface Command<Args = unknown> {
  name: string;
  /** 'ban USERNAME --reason R (--days N | --permanent)' */
  usage: string;
  summary: string;
  /** Further help lines for `help <command>`. */
  details?: string[];
  example: string;
  options?: NonNullable<ParseArgsConfig['options']>;
  /** Names of the positional arguments, all required. */
  positionals?: string[];
  /** Checks the arguments before the database is opened; throws UsageError. */
  parse(input: CommandInput): Args;
  /** Runs with the database open and migrated. */
  run?(ctx: AppContext, args: Args, out: Output): Promise<void>;
  /** Runs with the database closed (restore replaces the file itself). */
  runOffline?(config: Config, args: Args, out: Output): Promise<void>;
}

/** Wrong arguments: exit code 2. */
export class UsageError extends Error {}

/** A command's result that is a failure but not a bug (exit code 1). */
export class CommandFailure extends Error {}

/** DATA_DIR's configuration, with the directory created. */
export function adminConfig(): Config {
  return prepareDataDir(loadConfig());
}

/** All of standard input as text, without its final newline (for --password-stdin). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Warnings and errors only, on stderr: stdout carries only the command's results. */
export function adminLog(config: Config): Logger {
  return pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, base: undefined }, pino.destination(2));
}

/** Opens DATA_DIR (default ./data) as the server does and brings the schema up to date. */
export async function openAdminContext(): Promise<AppContext> {
  const config = adminConfig();
  const log = adminLog(config);
  const db = await openConfiguredDatabase(config);
  try {
    const applied = await migrateConfiguredDatabase(db, config);
    if (applied.length > 0) process.stderr.write(`Database migrated: ${applied.join(', ')}\n`);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // Not checked here: most commands never touch an image, and none should fail for the bucket.
  return { config, db, log, images: await createImageStore(config, log) };
}

/**
 * SQLite allows one writer. busy_timeout waits for the server's write lock, but a transaction
 * that read first and then finds the database changed underneath fails at once with
 * SQLITE_BUSY(_SNAPSHOT): running it again from the start is then safe.
 */
export async function withBusyRetry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= attempts || typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

export function requiredText(values: OptionValues, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** Left-aligned columns, two spaces apart, with a header row and a rule under it. */
export function formatTable(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [format(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(format)];
}

/** The user with that username (case-insensitive), or a failure naming it. */
export async function userNamed(ctx: AppContext, username: string): Promise<UserRow> {
  try {
    return await findUserByName(ctx, username);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw new CommandFailure(`User not found: ${username}`);
    throw err;
  }
}
