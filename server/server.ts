// Starts Beatnik from a configuration: data directory, database, migrations, HTTP server.
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { createApp } from './app.ts';
import { createReadCache } from './cache/read-cache.ts';
import { ConfigError, prepareDataDir, type Config } from './config.ts';
import { siteName } from './site/site.service.ts';
import type { AppContext } from './context.ts';
import { databasePath, migrateConfiguredDatabase, openConfiguredDatabase } from './db.ts';
import { openImageStore } from './images/open-store.ts';
import { createLogger } from './log.ts';
import { removePidFile, writePidFile } from './maintenance/pidfile.ts';
import { refreshRanksInDatabase, scheduleRankRefresh } from './ranks/ranks.scheduler.ts';
import { CACHED_LISTS, CACHED_PER_ADDRESS } from './routes.ts';
import { trackConnections } from './shutdown.ts';
import type { JobRunnerOptions } from './jobs/jobs.runner.ts';
import { JOB_QUEUES, startJobs } from './background.ts';
import { countQueuedJobs } from './jobs/jobs.service.ts';
import { createMetrics } from './metrics/metrics.registry.ts';
import { lastBackupAt } from './backups/backups.service.ts';
import type { Mailer } from './mail/mail.transport.ts';
import { startCheckpointer } from './sqlite/sqlite.checkpointer.ts';
import { refreshRanksInChild } from './sqlite/sqlite.ranks-refresh.ts';

export interface RunningServer {
  ctx: AppContext;
  server: Server;
  url: string;
  /**
   * Stops accepting connections, answers what is in flight with `Connection: close`, closes idle
   * keep-alive sockets once they have been quiet for `idleGraceMs` (default 0: at once), then
   * closes the database.
   */
  close(options?: { idleGraceMs?: number }): Promise<void>;
  /** Settles when the ranking refresh run at start has ended (it runs off the request path). */
  startupRefresh: Promise<void>;
}

export interface StartOptions {
  clientDir?: string;
  /** Where log lines go instead of stdout. */
  logTo?: DestinationStream;
  /** The background jobs' pace (tests shorten the retries). */
  jobs?: JobRunnerOptions;
  /**
   * Serve https with this key and certificate instead of http. Only tests use it: the fediverse
   * looks `acct:` handles up over https alone (test/federation-servers.ts); in production a
   * reverse proxy terminates TLS in front of plain http.
   */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export async function openContext(baseConfig: Config, logTo?: DestinationStream): Promise<AppContext> {
  const config = prepareDataDir(baseConfig);
  const log = createLogger(config.logLevel, logTo);
  // Checked before the database opens: a wrong bucket stops start-up with nothing to undo.
  const images = await openImageStore(config, log);
  const db = await openConfiguredDatabase(config);
  let applied: string[];
  try {
    applied = await migrateConfiguredDatabase(db, config);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
  return { config, db, log, images };
}

export async function startServer(baseConfig: Config, options: StartOptions = {}): Promise<RunningServer> {
  const base = await openContext(baseConfig, options.logTo);
  const readCache = createReadCache({ ttlMs: 5_000, maxEntries: 1_000, maxBytes: 32 * 2 ** 20, lists: CACHED_LISTS, perAddress: CACHED_PER_ADDRESS });
  // On PostgreSQL other instances may share the database: caches stay coherent between them, and
  // one at a time runs the timers (instances.ts).
  const peers = base.config.databaseUrl ? await (await import('./instances.ts')).joinPeers(base, readCache) : undefined;
  // A registry of this server's own (several may run in one process): only with METRICS_TOKEN.
  const metrics = base.config.metricsToken === null ? undefined
    : createMetrics({ cacheCounts: readCache.counts, countJobs: () => countQueuedJobs(base.db), queues: JOB_QUEUES, log: base.log });
  const withCaches: AppContext = { ...base, readCache: peers?.readCache ?? readCache, metrics };
  // Fedify is loaded only when federation is on: a server off the fediverse never pays for it. The
  // inbox first refuses blocked senders (federation/federation.gate.ts).
  const federation = base.config.federation.enabled
    ? (await import('./federation/federation.service.ts')).createFederationService(withCaches, (await import('./federation/federation.gate.ts')).refuseBlockedSenders) : undefined;
  const ctx: AppContext = { ...withCaches, federation };
  // The last backup's time, read from the backups table at each scrape.
  metrics?.reportLastBackup(() => lastBackupAt(ctx));
  const app = createApp(ctx, options.clientDir);
  const server: Server = options.tls ? createHttpsServer(options.tls, app) : createServer(app);
  // An idle keep-alive socket closes after 5 s; a client must send its headers within 10 s.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  const drain = trackConnections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
      server.listen(ctx.config.port, ctx.config.host);
    });
  } catch (err) {
    await peers?.close();
    await ctx.db.destroy();
    throw listenError(err as NodeJS.ErrnoException, ctx.config);
  }
  writePidFile(ctx.config.dataDir);
  // PostgreSQL checkpoints by itself; the SQLite file's WAL is folded in by a worker.
  const checkpointer = ctx.config.databaseUrl ? undefined : startCheckpointer(databasePath(ctx.config.dataDir),
    (message) => ctx.log.warn({ message }, 'WAL checkpoint failed'));
  // The refresh runs off the request path: on SQLite in a child process with its own connection;
  // on PostgreSQL as the database's own statements, on the one instance that leads the periodic jobs.
  const refresh = ctx.config.databaseUrl ? refreshRanksInDatabase(ctx.db)
    : refreshRanksInChild(databasePath(ctx.config.dataDir), ctx.db);
  let startupRefresh: Promise<void> = Promise.resolve();
  const startRefreshing = () => {
    const schedule = scheduleRankRefresh(ctx, refresh);
    startupRefresh = schedule.first;
    return schedule.stop;
  };
  const mailer = await openConfiguredMailer(ctx);
  // The ranking refresh and the background jobs (mail) run on one instance: the one that leads.
  const startPeriodic = () => {
    const stopRefreshing = startRefreshing();
    const jobs = startJobs(ctx, mailer, options.jobs);
    return async () => { await Promise.all([stopRefreshing(), jobs.stop()]); };
  };
  const stopPeriodic = peers ? await peers.leadPeriodicJobs(startPeriodic) : startPeriodic();
  const { port } = server.address() as AddressInfo;
  const host = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? '127.0.0.1' : ctx.config.host;

  let closing: Promise<void> | undefined;
  const close = (closeOptions: { idleGraceMs?: number } = {}) => closing ??= (async () => {
    await Promise.all([drain(closeOptions.idleGraceMs ?? 0), checkpointer?.stop(), stopPeriodic()]);
    mailer?.close();
    await peers?.close();
    await ctx.db.destroy();
    removePidFile(ctx.config.dataDir);
  })();

  // An instance that does not lead never refreshes at start: nothing to wait for there.
  return { ctx, server, url: `${options.tls ? 'https' : 'http'}://${host}:${port}`, close, startupRefresh };
}

/**
 * The SMTP transport when mail is on, its server checked at start: when it cannot be used, one
 * warning line says why, and the server starts all the same (the outbox waits for it).
 */
async function openConfiguredMailer(ctx: AppContext): Promise<Mailer | undefined> {
  const mail = ctx.config.mail;
  if (!mail) return undefined;
  const { openMailer } = await import('./mail/mail.transport.ts');
  const mailer = openMailer(mail, ctx.config.publicUrl, () => siteName(ctx));
  const server = new URL(mail.smtpUrl).host;
  mailer.verify().catch((err: unknown) => {
    ctx.log.warn({ smtp: server }, `mail server ${server} cannot be used (mail waits in the outbox): ${err instanceof Error ? err.message : String(err)}`);
  });
  return mailer;
}

/** The usual reasons a server cannot listen, as one line naming the setting to change. */
function listenError(err: NodeJS.ErrnoException, config: Config): Error {
  switch (err.code) {
    case 'EADDRINUSE': return new ConfigError(`Port ${config.port} is already in use (set PORT)`);
    case 'EACCES': return new ConfigError(`Port ${config.port} needs privileges this user lacks (set PORT)`);
    case 'EADDRNOTAVAIL': return new ConfigError(`Address ${config.host} is not one of this machine's (set HOST)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN': return new ConfigError(`Host name ${config.host} cannot be resolved (set HOST)`);
    default: return err;
  }
}
