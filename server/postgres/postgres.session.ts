// A connection of its own, outside the pool, for what lives in a PostgreSQL session: the leader's
// advisory lock, the cache channel's LISTEN. A pooled connection goes back to the pool after each
// statement, and whatever its session held goes with it.
import pg from 'pg';
import { postgresTypes } from './postgres.database.ts';

/** Connecting, and any statement on the session, gives up after this long: a dead network is a loss. */
export const SESSION_TIMEOUT_MS = 5_000;

/**
 * Connects as `name` (what pg_stat_activity shows in application_name); `lost` is called once,
 * when the connection breaks or the server ends it. Closing it with `closeSession` is no loss.
 */
export async function openSession(url: string, name: string, lost: (reason: string) => void): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url, application_name: name, types: postgresTypes, keepAlive: true,
    connectionTimeoutMillis: SESSION_TIMEOUT_MS, query_timeout: SESSION_TIMEOUT_MS,
  });
  let told = false;
  const tell = (reason: string) => {
    if (told) return;
    told = true;
    lost(reason);
  };
  client.on('error', (err) => tell(err.message));
  client.on('end', () => tell('connection closed'));
  try {
    await client.connect();
  } catch (err) {
    closeSession(client);
    throw err;
  }
  return client;
}

/** Ends the session (releasing what it held), waiting at most SESSION_TIMEOUT_MS for the server. */
export async function closeSession(client: pg.Client): Promise<void> {
  client.removeAllListeners('end');
  client.removeAllListeners('error');
  client.on('error', () => {}); // a late socket error on a session being dropped is no news
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.end().catch(() => {}),
    new Promise((resolve) => { timer = setTimeout(resolve, SESSION_TIMEOUT_MS); }),
  ]);
  clearTimeout(timer);
}
