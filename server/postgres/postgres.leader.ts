// One instance at a time runs the periodic jobs (the ranking refresh, pruning) when several share
// a PostgreSQL database: the one holding a session-level advisory lock, on a session of its own.
// The lock goes with the session, so when the leader stops, dies or loses its connection the lock
// is free, and the others, asking for it every few seconds, take over within a poll. The leader
// checks its session as often and stops its jobs when it is lost, then asks again like the others.
// If the server ends a leader's session while the leader is still running (an administrator's
// pg_terminate_backend), two may both run for up to one poll: the jobs are safe to run twice.
import type pg from 'pg';
import type { Logger } from '../log.ts';
import { closeSession, openSession } from './postgres.session.ts';

/** How often a follower asks for the lock, and a leader checks its session. */
export const LEADER_POLL_MS = 3_000;

/** The lock's two keys: 'beat' in ASCII, and 1 for the periodic jobs. */
const LOCK_KEYS = [0x62656174, 1];

/** What pg_stat_activity shows for the leader's session. */
export const LEADER_SESSION = 'beatnik leader';

/** Starts the jobs; returns the function that stops them and waits for one under way. */
export type PeriodicJobs = () => () => Promise<void>;

export interface Leadership {
  readonly leading: boolean;
  /** Stops the jobs (waiting for one under way), then ends the session: another may lead. */
  stop(): Promise<void>;
}

/** Resolves after the first ask: the first instance up leads from its start. */
export async function leadWhenFree(url: string, log: Logger, start: PeriodicJobs, pollMs = LEADER_POLL_MS): Promise<Leadership> {
  let session: pg.Client | undefined;
  /** Which session is current: a loss told by an older one is old news. */
  let generation = 0;
  let stopJobs: (() => Promise<void>) | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Every step runs after the one before: a poll, a loss, the stop.
  let steps = Promise.resolve();
  const serially = (step: () => Promise<void>) => (steps = steps.then(step)
    .catch((err: unknown) => log.error({ err }, 'stopping the periodic jobs failed')));

  /** Stops the jobs first (a refresh under way ends while the lock is still ours), then the session. */
  const resign = async (reason: string | undefined) => {
    if (stopJobs) {
      const stop = stopJobs;
      stopJobs = undefined;
      if (reason) log.warn({ reason }, 'no longer leading the periodic jobs');
      await stop();
    }
    const ending = session;
    session = undefined;
    generation += 1;
    if (ending) await closeSession(ending);
  };

  const poll = async () => {
    if (stopped) return;
    try {
      if (!session) {
        const mine = generation;
        session = await openSession(url, LEADER_SESSION,
          (reason) => void serially(async () => { if (mine === generation) await resign(reason); }));
      }
      if (stopJobs) {
        await session.query('SELECT 1');
        return;
      }
      const { rows } = await session.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', LOCK_KEYS);
      // Stopping meanwhile: the lock goes with the session, the jobs never start.
      if (rows[0]?.locked && !stopped) {
        stopJobs = start();
        log.info('leading the periodic jobs');
      }
    } catch (err) {
      await resign((err as Error).message);
    }
  };

  const loop = async () => {
    await serially(poll);
    if (stopped) return;
    timer = setTimeout(loop, pollMs);
    timer.unref();
  };
  await loop();
  if (!stopJobs) log.info('another instance leads the periodic jobs; this one takes over if it stops');

  return {
    get leading() {
      return stopJobs !== undefined;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      return serially(() => resign(undefined));
    },
  };
}
