// Followers elsewhere, written straight into the database as an accepted Follow leaves them
// (remote_actors, remote_followers, users.remote_followers_count): for the tests of what is sent
// to them, apart from the inbox that takes the Follow.
import { sqlRows, type TestServer } from '../helpers.ts';

export interface RemoteFollower {
  /** The actor's id. */
  uri: string;
  inbox: string;
  sharedInbox: string | null;
}

export async function addRemoteFollower(server: TestServer, userId: number, follower: RemoteFollower): Promise<void> {
  const url = new URL(follower.uri);
  const at = new Date().toISOString();
  const name = url.pathname.split('/').pop() || 'someone';
  // One row per actor, however many it follows here.
  const [actor] = await sqlRows<{ id: number }>(server.ctx.db, 'SELECT id FROM remote_actors WHERE uri = ?', follower.uri).then(async (found) => found.length > 0
    ? found
    : sqlRows<{ id: number }>(server.ctx.db,
      'INSERT INTO remote_actors (uri, handle, domain, name, url, inbox, shared_inbox, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
      follower.uri, `${name}@${url.host}`, url.hostname.toLowerCase(), name, follower.uri, follower.inbox, follower.sharedInbox, at));
  await sqlRows(server.ctx.db, 'INSERT INTO remote_followers (user_id, actor_id, follow_uri, created_at) VALUES (?, ?, ?, ?)',
    userId, actor!.id, `${follower.uri}#follow`, at);
  await sqlRows(server.ctx.db, 'UPDATE users SET remote_followers_count = remote_followers_count + 1 WHERE id = ?', userId);
}
