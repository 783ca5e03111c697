// Configuration is read once from the environment, validated, and frozen (DESIGN.md, Configuration).
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { MailSettingError, parseMailConfig, type MailConfig } from './mail/mail.config.ts';
import { REGISTRATION_MODES, type RegistrationMode } from '../shared/site-settings.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** Express's `trust proxy`: none, a hop count, or names (loopback…), addresses and CIDR ranges. */
export type TrustProxy = false | number | readonly string[];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file when set (`postgres://user:pass@host:5432/db`). */
  readonly databaseUrl: string | null;
  readonly jwtSecret: string;
  /** Access-token lifetime in seconds. */
  readonly tokenTtlSeconds: number;
  readonly rankRefreshHours: number;
  readonly signinClientId: string;
  readonly logLevel: LogLevel;
  readonly rateLimits: boolean;
  /** Which peers may tell the client's address in X-Forwarded-For; false: none, the peer is the client. */
  readonly trustProxy: TrustProxy;
  /** The origin readers use (`https://paper.example.org`), without a trailing slash. */
  readonly publicUrl: string;
  /** argon2 cost; tests lower it, production keeps argon2's defaults. */
  readonly passwordHashing: { memoryCost: number; timeCost: number; parallelism: number };
  /** Where images go instead of DATA_DIR/uploads; absent: the data directory. */
  readonly s3?: S3Config;
  /** Outgoing mail (SMTP_URL…); null: mail is off and every mail feature hides. */
  readonly mail: MailConfig | null;
  /** Who may join until an admin chooses in the Settings tab (REGISTRATION). */
  readonly registration: RegistrationMode;
  /** The bearer token `GET /metrics` asks for (METRICS_TOKEN); null: no metrics, /metrics is a 404. */
  readonly metricsToken: string | null;
  /** ADMIN_2FA: 'required' keeps admins without two-factor sign-in out of the admin tools. */
  readonly admin2fa: Admin2fa;
  /** Archives on a schedule (BACKUP_*; server/backups/). */
  readonly backup: BackupConfig;
  /** ActivityPub (FEDERATION, FEDERATION_ALLOW_PRIVATE; server/federation/). */
  readonly federation: FederationConfig;
}

/**
 * Whether Beatnik speaks ActivityPub (on by default when PUBLIC_URL is https, as the fediverse
 * requires), and whether it may reach and be reached on loopback and private addresses (tests only).
 */
export interface FederationConfig {
  readonly enabled: boolean;
  readonly allowPrivateAddress: boolean;
  /** How long one delivery may take, its requests and answers in all, before it counts as failed (tests shorten it). */
  readonly deliveryTimeoutMs: number;
}

/** A server that has not answered a delivery in 30 s is as good as down: it is tried again later. */
const DELIVERY_TIMEOUT_MS = 30_000;

/** Scheduled backups: every `hours` (0: off), into `dir`, the newest `keep` kept. */
export interface BackupConfig {
  readonly hours: number;
  readonly dir: string;
  readonly keep: number;
}

export type Admin2fa = 'optional' | 'required';

/** An S3-compatible bucket for images (DESIGN.md, More than one box). */
export interface S3Config {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly region: string;
  /** bucket in the path (`host/bucket/key`), as MinIO and most self-hosted stores need. */
  readonly forcePathStyle: boolean;
}

/** A bad setting: start-up stops with this one-line message. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const PRODUCTION_HASHING = { memoryCost: 65536, timeCost: 3, parallelism: 4 };
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(overrides.dataDir ?? nonEmpty(env.DATA_DIR) ?? './data');
  const port = parsePort(env.PORT);
  const publicUrl = parsePublicUrl(env.PUBLIC_URL, port);
  const config: Config = {
    port,
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    dataDir,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    jwtSecret: nonEmpty(env.JWT_SECRET) ?? '',
    tokenTtlSeconds: parseDuration('TOKEN_TTL', env.TOKEN_TTL ?? '7d'),
    rankRefreshHours: parseRankRefreshHours(env.RANK_REFRESH_HOURS ?? '24'),
    signinClientId: env.SIGNIN_CLIENT_ID?.trim() ?? '',
    logLevel: parseLogLevel(env.LOG_LEVEL),
    rateLimits: parseOnOff('RATE_LIMITS', env.RATE_LIMITS ?? 'on'),
    trustProxy: parseTrustProxy(env.TRUSTED_PROXY),
    publicUrl,
    passwordHashing: PRODUCTION_HASHING,
    s3: parseS3(env),
    registration: parseRegistration(env.REGISTRATION),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    admin2fa: parseAdmin2fa(env.ADMIN_2FA),
    backup: parseBackup(env, dataDir, (overrides.databaseUrl !== undefined ? overrides.databaseUrl : parseDatabaseUrl(env.DATABASE_URL)) === null),
    federation: parseFederation(env, overrides.publicUrl ?? publicUrl),
    ...overrides,
    // After the overrides: a test's own PUBLIC_URL names the default sender.
    mail: overrides.mail !== undefined ? overrides.mail : mailConfig(env, overrides.publicUrl ?? publicUrl),
  };
  if (config.jwtSecret.length > 0 && config.jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  }
  return Object.freeze(config);
}

/** As long as JWT_SECRET's least: /metrics answers anyone who has it, and nothing throttles guesses. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

function parseMetricsToken(value: string | undefined): string | null {
  const token = nonEmpty(value);
  if (token === undefined) return null;
  // The value is a secret: never echoed.
  if (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token)) {
    throw new ConfigError(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long, without spaces`);
  }
  return token;
}

/** Creates the data directory and fills in the generated JWT secret when none was configured. */
export function prepareDataDir(config: Config): Config {
  // With S3 configured, images never touch the data directory: no uploads/ is made.
  const dirs = config.s3 ? [config.dataDir] : [config.dataDir, path.join(config.dataDir, 'uploads')];
  try {
    for (const dir of dirs) {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
    }
  } catch {
    // A file in the way, a read-only volume, another user's folder: the fix is the same.
    throw new ConfigError(`Data directory ${config.dataDir} is not writable (set DATA_DIR)`);
  }
  if (config.jwtSecret) return config;
  return Object.freeze({ ...config, jwtSecret: readOrCreateSecret(config.dataDir) });
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function mailConfig(env: Env, publicUrl: string): MailConfig | null {
  try {
    return parseMailConfig(env, publicUrl);
  } catch (err) {
    if (err instanceof MailSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** Refreshing more often than every 72 s would keep a core busy on a large site; rankings age
 * over days, so a week is the longest useful period (and stays within a timer's range). */
export const RANK_REFRESH_HOURS_RANGE = { min: 0.02, max: 168 } as const;

function parseRankRefreshHours(value: string): number {
  const n = Number(value);
  const { min, max } = RANK_REFRESH_HOURS_RANGE;
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new ConfigError(`RANK_REFRESH_HOURS must be a number of hours from ${min} (72 seconds) to ${max} (a week), got "${value}"`);
  }
  return n;
}

/** Every 36 s at the most often (a test's schedule), a year at the least. */
export const BACKUP_HOURS_RANGE = { min: 0.01, max: 8760 } as const;

/**
 * BACKUP_HOURS, BACKUP_DIR, BACKUP_KEEP. On by default on SQLite, whose file is the whole site;
 * off on PostgreSQL, whose operators usually back it up with pg_dump already.
 */
function parseBackup(env: Env, dataDir: string, sqlite: boolean): BackupConfig {
  const hoursText = nonEmpty(env.BACKUP_HOURS) ?? (sqlite ? '24' : '0');
  const hours = Number(hoursText);
  const { min, max } = BACKUP_HOURS_RANGE;
  if (!Number.isFinite(hours) || (hours !== 0 && (hours < min || hours > max))) {
    throw new ConfigError(`BACKUP_HOURS must be 0 (off) or a number of hours from ${min} to ${max}, got "${env.BACKUP_HOURS}"`);
  }
  const keepText = nonEmpty(env.BACKUP_KEEP) ?? '7';
  if (!/^\d+$/.test(keepText) || Number(keepText) < 1 || Number(keepText) > 10_000) {
    throw new ConfigError(`BACKUP_KEEP must be a whole number of archives from 1 to 10000, got "${env.BACKUP_KEEP}"`);
  }
  return Object.freeze({
    hours,
    dir: path.resolve(nonEmpty(env.BACKUP_DIR) ?? path.join(dataDir, 'backups')),
    keep: Number(keepText),
  });
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "3600", "90s", "15m", "12h" or "7d" → seconds. */
export function parseDuration(name: string, value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * DURATION_UNITS[match[2] || 's']! : 0;
  if (!match || seconds <= 0) {
    throw new ConfigError(`${name} must be a duration such as 3600, 15m, 12h or 7d, got "${value}"`);
  }
  return seconds;
}

function parseLogLevel(value: string | undefined): LogLevel {
  const level = (value?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(level as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return level as LogLevel;
}

function parseRegistration(value: string | undefined): RegistrationMode {
  const mode = (value?.trim() || 'open').toLowerCase();
  if (!REGISTRATION_MODES.includes(mode as RegistrationMode)) {
    throw new ConfigError(`REGISTRATION must be one of ${REGISTRATION_MODES.join(', ')}, got "${value}"`);
  }
  return mode as RegistrationMode;
}

function parseAdmin2fa(value: string | undefined): Admin2fa {
  const v = (value?.trim() || 'optional').toLowerCase();
  if (v !== 'optional' && v !== 'required') {
    throw new ConfigError(`ADMIN_2FA must be "optional" or "required", got "${value}"`);
  }
  return v;
}

function parseOnOff(name: string, value: string, words: readonly [string, string] = ['on', 'off']): boolean {
  const v = value.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  throw new ConfigError(`${name} must be "${words[0]}" or "${words[1]}", got "${value}"`);
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUSTED_PROXY, in Express's `trust proxy` syntax less `true` (which would believe any client
 * about its own address): empty for none, a hop count, or names, addresses and CIDR ranges.
 */
function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyEntry)) {
    throw new ConfigError('TRUSTED_PROXY must be a hop count, or loopback, linklocal, uniquelocal, '
      + `IP addresses and CIDR ranges separated by commas, got "${value}"`);
  }
  return Object.freeze(entries);
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/** DATABASE_URL: empty for the embedded SQLite file, or a PostgreSQL connection URL. */
export function parseDatabaseUrl(value: string | undefined): string | null {
  const raw = nonEmpty(value);
  if (!raw) return null;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  // A Unix socket is named by ?host=/run/postgresql instead of a host name.
  const host = url?.hostname || url?.searchParams.get('host');
  // The value may hold a password: never echo it.
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol) || !host || url.pathname.length < 2) {
    const reserved = /^postgres(?:ql)?:\/\/([^@]*)@[^@]*$/.exec(raw)?.[1]?.match(/[/#?]/)?.[0];
    if (reserved) throw new ConfigError(credentialsMessage(`a "${reserved}"`, encodeURIComponent(reserved)));
    throw new ConfigError('DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/beatnik');
  }
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new ConfigError(credentialsMessage('a "%" that is not percent-encoding', '%25'));
  }
  return raw;
}

/** A user or password written into the URL as is, with a character a URL reserves. */
function credentialsMessage(what: string, encoded: string): string {
  return `DATABASE_URL has ${what} in its user or password: write it percent-encoded, as ${encoded}`;
}

function parseFederation(env: Env, publicUrl: string): FederationConfig {
  const https = publicUrl.startsWith('https:');
  const enabled = parseOnOff('FEDERATION', env.FEDERATION ?? (https ? 'on' : 'off'));
  // Other servers fetch our actors and check our signatures at PUBLIC_URL: never over plain http.
  if (enabled && !https) throw new ConfigError(`FEDERATION=on needs an https PUBLIC_URL (the fediverse fetches actors over https), got "${publicUrl}"`);
  const allowPrivateAddress = parseOnOff('FEDERATION_ALLOW_PRIVATE', env.FEDERATION_ALLOW_PRIVATE ?? 'false', ['true', 'false']);
  return { enabled, allowPrivateAddress, deliveryTimeoutMs: DELIVERY_TIMEOUT_MS };
}

/** PUBLIC_URL: an http(s) origin; absolute links never come from the request's Host header. */
function parsePublicUrl(value: string | undefined, port: number): string {
  const raw = nonEmpty(value);
  if (!raw) return `http://localhost:${port}`;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password
      || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL without a path, such as https://paper.example.org, got "${value}"`);
  }
  return url.origin;
}

/**
 * S3_*: images go to a bucket when the four required variables are set, to DATA_DIR/uploads
 * when none is. Anything in between is a mistake that would silently keep images on one box,
 * so it stops start-up naming what is missing.
 */
function parseS3(env: Env): S3Config | undefined {
  const required = {
    S3_ENDPOINT: nonEmpty(env.S3_ENDPOINT),
    S3_BUCKET: nonEmpty(env.S3_BUCKET),
    S3_ACCESS_KEY_ID: nonEmpty(env.S3_ACCESS_KEY_ID),
    S3_SECRET_ACCESS_KEY: nonEmpty(env.S3_SECRET_ACCESS_KEY),
  };
  const optional = { S3_REGION: nonEmpty(env.S3_REGION), S3_FORCE_PATH_STYLE: nonEmpty(env.S3_FORCE_PATH_STYLE) };
  const given = Object.values({ ...required, ...optional }).some((value) => value !== undefined);
  if (!given) return undefined;
  const missing = Object.entries(required).filter(([, value]) => value === undefined).map(([name]) => name);
  if (missing.length > 0) {
    throw new ConfigError(`S3 storage is half configured: set ${listed(missing)} too `
      + '(or unset every S3_ variable to keep images in DATA_DIR/uploads)');
  }
  return Object.freeze({
    endpoint: parseEndpoint(required.S3_ENDPOINT!),
    bucket: required.S3_BUCKET!,
    accessKeyId: required.S3_ACCESS_KEY_ID!,
    secretAccessKey: required.S3_SECRET_ACCESS_KEY!,
    region: optional.S3_REGION ?? 'us-east-1',
    forcePathStyle: parseOnOff('S3_FORCE_PATH_STYLE', optional.S3_FORCE_PATH_STYLE ?? 'true', ['true', 'false']),
  });
}

/** "A", "A and B", "A, B and C". */
function listed(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** S3_ENDPOINT: an http(s) URL such as http://minio:9000 or https://s3.eu-west-1.amazonaws.com. */
function parseEndpoint(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`S3_ENDPOINT must be an http(s) URL such as http://minio:9000, got "${value}"`);
  }
  return url.href.replace(/\/$/, '');
}
