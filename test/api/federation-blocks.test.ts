// Blocks of fediverse servers and accounts (DESIGN.md, The fediverse: Moderation): the admin's
// routes (404 with federation off), what a block takes away (followers, comments, likes and
// boosts, each counter with them), the moderation log, the inbox refusing a blocked sender's
// signed activities before anything is stored (the Fedify peer of test/federation-peer.ts), and
// deliveries to a blocked server dropped. The Fediverse tab's lists are at the end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BLOCK_OWN_SERVER_MESSAGE, BLOCK_REASON_LENGTH_MESSAGE, BLOCK_TARGET_MESSAGE } from '../../shared/federation-blocks.ts';
import { queueActivity } from '../../server/federation-outgoing/federation-outgoing.service.ts';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { adjustAuthorStats } from '../../server/users/author-stats.service.ts';
import { startFediversePeer, type FediversePeer } from '../federation-peer.ts';
import { startFederatedServer } from '../federation-servers.ts';
import { createAdmin, createSeasonedUser, createUser, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let peer: FediversePeer;
let admin: TestUser;
let author: TestUser;

before(async () => {
  [server, peer] = await Promise.all([startFederatedServer(), startFediversePeer({ actors: ['alice', 'mallory', 'carol'] })]);
  [admin, author] = await Promise.all([createAdmin(server), createSeasonedUser(server)]);
});
after(async () => { await Promise.all([server?.stop(), peer?.close()]); });

const blocks = (target: string) => `/api/admin/federation/blocks/${encodeURIComponent(target)}`;
const block = (target: string, json?: unknown) => server.api('PUT', blocks(target), { token: admin.token, json });
const unblock = (target: string) => server.api('DELETE', blocks(target), { token: admin.token });
const count = (table: string, where = '1 = 1', ...params: unknown[]) => sqlNumber(server.ctx.db, `SELECT count(*) FROM ${table} WHERE ${where}`, ...params);
const plain = ({ id: _id, created_at: _at, ...rest }: any) => rest;

describe('the routes', () => {
  test('answer 404 with federation off, as every federation address does', async () => {
    const off = await startTestServer();
    try {
      const offAdmin = await createAdmin(off);
      for (const [method, url] of [['GET', '/api/admin/federation'], ['GET', '/api/admin/federation/blocks'],
        ['PUT', '/api/admin/federation/blocks/example.org'], ['DELETE', '/api/admin/federation/blocks/example.org']]) {
        const res = await off.api(method!, url!, { token: offAdmin.token });
        assert.equal(res.status, 404, `${method} ${url}`);
        assert.deepEqual(res.body, { detail: `No API route for ${method} ${url}` });
      }
    } finally {
      await off.stop();
    }
  });

  test('are the admins\': 401 without a session, 403 for a member, and nothing changes', async () => {
    const member = await createUser(server);
    for (const [method, url] of [['GET', '/api/admin/federation'], ['GET', '/api/admin/federation/blocks'],
      ['PUT', blocks('example.org')], ['DELETE', blocks('example.org')]] as const) {
      assert.equal((await server.api(method, url)).status, 401, url);
      const res = await server.api(method, url, { token: member.token });
      assert.equal(res.status, 403, url);
      assert.deepEqual(res.body, { detail: 'Admin privileges required' });
    }
    assert.equal(await count('federation_blocks', 'target = ?', 'example.org'), 0);
  });

  test('a target that names neither a server nor an account is a 400, and so is this site itself', async () => {
    const logged = await count('moderation_log');
    const bad = ['not a host', '@', '@nobody', 'a@b@c.example', 'exa_mple.org', '-x.example', 'x..example', 'x.example:port',
      'https:', 'ex%61mple.org', '@bad name@example.org', `${'a'.repeat(64)}.example`, `${'a.'.repeat(160)}example`, ' '];
    for (const target of bad) {
      const res = await block(target);
      assert.equal(res.status, 400, target);
      assert.deepEqual(res.body, { detail: BLOCK_TARGET_MESSAGE }, target);
      assert.equal((await unblock(target)).status, 400, target);
    }
    const own = new URL(server.url).host;
    for (const target of [own, `@${author.username}@${own}`]) {
      assert.deepEqual((await block(target)).body, { detail: BLOCK_OWN_SERVER_MESSAGE }, target);
    }
    const long = await block('spam.example', { reason: 'x'.repeat(501) });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { detail: BLOCK_REASON_LENGTH_MESSAGE });
    assert.equal(await count('federation_blocks'), (await server.api('GET', '/api/admin/federation/blocks', { token: admin.token })).body.total);
    assert.equal(await count('federation_blocks', 'target = ?', 'spam.example'), 0);
    assert.equal(await count('moderation_log'), logged);
  });

  test('a target is written one way: lower-cased, an international name in ASCII, an account with its @', async () => {
    for (const [given, stored] of [['Example.ORG', 'example.org'], ['Alice@Social.Example', '@alice@social.example'],
      ['bücher.example', 'xn--bcher-kva.example'], ['example.net:443', 'example.net'], ['127.0.0.1:8443', '127.0.0.1:8443']]) {
      const res = await block(given!);
      assert.equal(res.status, 200, `${given}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.block.target, stored);
      assert.equal(res.body.block.created_by, admin.username);
      assert.equal((await unblock(given!)).status, 200);
    }
  });
});

/** A fediverse account as the inbox keeps one, with what it left here (as the inbox stores it, counters with it). */
async function remoteActor(handle: string, uri: string): Promise<number> {
  const row = await server.ctx.db.insertInto('remote_actors').values({
    uri, handle, domain: handle.split('@')[1]!, name: handle.split('@')[0]!, url: `${uri}/profile`, avatar_url: null,
    inbox: `${uri}/inbox`, shared_inbox: null, updated_at: new Date().toISOString(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

async function remoteFollow(actorId: number, userId: number): Promise<void> {
  await server.ctx.db.insertInto('remote_followers').values({ user_id: userId, actor_id: actorId, follow_uri: null, created_at: new Date().toISOString() }).execute();
  await sqlRows(server.ctx.db, 'UPDATE users SET remote_followers_count = remote_followers_count + 1 WHERE id = ?', userId);
}

let notes = 0;
async function remoteComment(actorId: number, post: { id: number; author_id: number }): Promise<void> {
  const at = new Date().toISOString();
  await sqlRows(server.ctx.db, `INSERT INTO comments (post_id, author_id, remote_actor_id, remote_uri, content, content_html, created_at, updated_at)
    VALUES (?, NULL, ?, ?, 'From afar', '<p>From afar</p>', ?, ?)`, post.id, actorId, `https://notes.example/${++notes}`, at, at);
  await sqlRows(server.ctx.db, 'UPDATE posts SET comments_count = comments_count + 1 WHERE id = ?', post.id);
  await adjustAuthorStats(server.ctx.db, post.author_id, { comments: 1 }, { cause: 'comment_new', at, postId: post.id, actorId: null });
}

async function reaction(actorId: number, postId: number, kind: 'like' | 'boost'): Promise<void> {
  await server.ctx.db.insertInto('post_reactions').values({ post_id: postId, actor_id: actorId, kind, activity_uri: null, created_at: new Date().toISOString() }).execute();
  await sqlRows(server.ctx.db, `UPDATE posts SET ${kind === 'like' ? 'likes_count = likes_count' : 'boosts_count = boosts_count'} + 1 WHERE id = ?`, postId);
}

async function postCounts(id: number) {
  const [row] = await sqlRows<{ comments_count: number; likes_count: number; boosts_count: number }>(server.ctx.db,
    'SELECT comments_count, likes_count, boosts_count FROM posts WHERE id = ?', id);
  return { comments: Number(row!.comments_count), likes: Number(row!.likes_count), boosts: Number(row!.boosts_count), rows: await count('comments', 'post_id = ?', id) };
}

async function userCounts(id: number) {
  const [row] = await sqlRows<{ remote_followers_count: number; received_comments_count: number }>(server.ctx.db,
    'SELECT remote_followers_count, received_comments_count FROM users WHERE id = ?', id);
  return { remoteFollowers: Number(row!.remote_followers_count), receivedComments: Number(row!.received_comments_count) };
}

describe('a block', () => {
  test("takes away the blocked server's followers, comments, likes and boosts, counters with them, and the log records it", async () => {
    const writer = await createSeasonedUser(server);
    const reader = await createSeasonedUser(server);
    const first = await createPost(server, writer);
    const second = await createPost(server, writer);
    assert.equal((await server.api('POST', `/api/posts/${first.id}/comments`, { token: reader.token, json: { content: 'Local words' } })).status, 201);
    // Covered: the server, a subdomain of it, and an actor whose id is on it whatever its handle says.
    const spam1 = await remoteActor('spam1@spam.example', 'https://spam.example/users/spam1');
    const spam2 = await remoteActor('spam2@social.spam.example', 'https://social.spam.example/users/spam2');
    const hosted = await remoteActor('odd@elsewhere.example', 'https://cdn.spam.example/actors/odd');
    // Not covered: another server, and one whose name only ends the same way.
    const good = await remoteActor('good@good.example', 'https://good.example/users/good');
    const lookalike = await remoteActor('x@notspam.example', 'https://notspam.example/users/x');
    for (const actor of [spam1, spam2, hosted, good, lookalike]) await remoteFollow(actor, writer.id);
    await remoteComment(spam1, first);
    await remoteComment(spam1, first);
    await remoteComment(spam2, second);
    await remoteComment(good, first);
    await remoteComment(lookalike, first);
    await reaction(spam1, first.id, 'like');
    await reaction(spam1, first.id, 'boost');
    await reaction(spam2, second.id, 'like');
    await reaction(hosted, second.id, 'boost');
    await reaction(good, first.id, 'like');
    await reaction(lookalike, first.id, 'like');
    const received = (await userCounts(writer.id)).receivedComments;
    const mojo = await server.api('GET', `/api/users/${writer.id}`);

    const res = await block('spam.example', { reason: 'A spam wave' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.message, 'spam.example is blocked: 3 followers, 3 comments and 4 likes or boosts removed');
    assert.deepEqual(res.body.removed, { followers: 3, comments: 3, likes: 2, boosts: 2 });
    assert.deepEqual(plain(res.body.block), { target: 'spam.example', created_by: admin.username });

    assert.deepEqual(await userCounts(writer.id), { remoteFollowers: 2, receivedComments: received - 3 });
    assert.deepEqual(await postCounts(first.id), { comments: 3, rows: 3, likes: 2, boosts: 0 });
    assert.deepEqual(await postCounts(second.id), { comments: 0, rows: 0, likes: 0, boosts: 0 });
    assert.deepEqual((await sqlRows<{ actor_id: number }>(server.ctx.db, 'SELECT actor_id FROM remote_followers WHERE user_id = ? ORDER BY actor_id', writer.id))
      .map((row) => Number(row.actor_id)), [good, lookalike]);
    // The mojo the comments gave went with them, each step in the ledger.
    assert.ok((await server.api('GET', `/api/users/${writer.id}`)).body.mojo < mojo.body.mojo);
    assert.deepEqual((await findCounterDrift(server.ctx.db)).filter((line) => line.includes('ledger') || line.startsWith('post ')), []);
    // The actors stay known: what they send next is refused by their handle.
    assert.equal(await count('remote_actors', 'id = ?', spam1), 1);

    const log = await server.api('GET', '/api/moderation');
    assert.deepEqual(plain(log.body.entries[0]), {
      action: 'block', admin: admin.username, user: null, post_title: null, post_id: null, reason: 'A spam wave', ban_until: null, target: 'spam.example',
    });
    const listed = await server.api('GET', '/api/admin/federation/blocks', { token: admin.token });
    assert.ok(listed.body.blocks.some((b: any) => b.target === 'spam.example' && b.created_by === admin.username));

    // Blocked already: said so, nothing more done or logged.
    const again = await block('spam.example');
    assert.equal(again.status, 200);
    assert.equal(again.body.message, 'spam.example is already blocked');
    assert.equal((await server.api('GET', '/api/moderation')).body.total, log.body.total);

    const lifted = await unblock('spam.example');
    assert.deepEqual(lifted.body, { message: 'spam.example is no longer blocked' });
    assert.deepEqual(plain((await server.api('GET', '/api/moderation')).body.entries[0]), {
      action: 'unblock', admin: admin.username, user: null, post_title: null, post_id: null, reason: null, ban_until: null, target: 'spam.example',
    });
    const twice = await unblock('spam.example');
    assert.equal(twice.status, 404);
    assert.deepEqual(twice.body, { detail: 'spam.example is not blocked' });
    // Lifting restores nothing: a follower follows again.
    assert.equal((await userCounts(writer.id)).remoteFollowers, 2);
  });

  test("of one account takes away only that account's", async () => {
    const writer = await createSeasonedUser(server);
    const post = await createPost(server, writer);
    const troll = await remoteActor('troll@mixed.example', 'https://mixed.example/users/troll');
    const neighbour = await remoteActor('kind@mixed.example', 'https://mixed.example/users/kind');
    for (const actor of [troll, neighbour]) {
      await remoteFollow(actor, writer.id);
      await remoteComment(actor, post);
      await reaction(actor, post.id, 'like');
    }
    const res = await block('@Troll@Mixed.Example');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.block.target, '@troll@mixed.example');
    assert.deepEqual(res.body.removed, { followers: 1, comments: 1, likes: 1, boosts: 0 });
    assert.deepEqual(await postCounts(post.id), { comments: 1, rows: 1, likes: 1, boosts: 0 });
    assert.equal((await userCounts(writer.id)).remoteFollowers, 1);
    assert.equal(await count('comments', 'post_id = ? AND remote_actor_id = ?', post.id, neighbour), 1);
    assert.equal((await server.api('GET', '/api/moderation')).body.entries[0].target, '@troll@mixed.example');
    assert.equal((await unblock('@troll@mixed.example')).status, 200);
  });
});

/** What a refused activity must not have left: anything of the peer's. */
async function storedOfPeer(): Promise<Record<string, number>> {
  const like = `%${peer.host}%`;
  return {
    actors: await count('remote_actors', 'uri LIKE ?', like),
    followers: await count('remote_followers', 'actor_id IN (SELECT id FROM remote_actors WHERE uri LIKE ?)', like),
    comments: await count('comments', 'remote_actor_id IN (SELECT id FROM remote_actors WHERE uri LIKE ?)', like),
    reactions: await count('post_reactions', 'actor_id IN (SELECT id FROM remote_actors WHERE uri LIKE ?)', like),
    kv: await count('federation_kv', 'key LIKE ?', like),
  };
}

let activities = 0;
/** An activity as JSON-LD, as another server would post it. */
const activity = (type: string, actor: string, object: string) =>
  ({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${actor}/activities/${++activities}`, type, actor, object });

/** The peer's Follow of the author, signed by the peer's actor `as`: its inbox's status (2xx, or the refusal's). */
async function follows(as: string): Promise<number> {
  try {
    await peer.follow(as, `${server.url}/ap/users/${author.id}`);
    return 202;
  } catch (err) {
    return (err as { statusCode?: number }).statusCode ?? 0;
  }
}

describe('the inbox', () => {
  test("refuses a blocked account's signed activity with 403, storing nothing, and takes its neighbour's", async () => {
    const mallory = `@mallory@${peer.host}`;
    assert.equal((await block(mallory)).status, 200);
    try {
      const before = await storedOfPeer();
      // Never met before: its handle is what its server says, looked up once its host has a block.
      assert.equal(await follows('mallory'), 403);
      assert.deepEqual(await storedOfPeer(), before);
      const answer = await peer.postUnsigned(`${server.url}/ap/inbox`, activity('Like', peer.actors.mallory!.id, `${server.url}/ap/posts/1`));
      assert.equal(answer.status, 403);
      assert.deepEqual(JSON.parse(answer.body), { detail: `${mallory} is blocked on this server` });
      assert.notEqual(await follows('alice'), 403);
    } finally {
      await unblock(mallory);
    }
  });

  test("refuses a blocked server's activities, by their actor or by the key that signed them, before their signature is checked", async () => {
    assert.equal((await block(peer.host)).status, 200);
    try {
      const before = await storedOfPeer();
      assert.equal(await follows('alice'), 403);
      // Unsigned: 401 anywhere else, refused here for where it comes from.
      const unsigned = await peer.postUnsigned(`${server.url}/ap/users/${author.id}/inbox`, activity('Follow', peer.actors.alice!.id, `${server.url}/ap/users/${author.id}`));
      assert.deepEqual([unsigned.status, JSON.parse(unsigned.body)], [403, { detail: `${peer.host} is blocked on this server` }]);
      // Naming an actor elsewhere, signed with a key of the blocked server.
      const borrowed = await peer.postBadlySigned('alice', `${server.url}/ap/inbox`, activity('Like', 'https://elsewhere.example/users/x', `${server.url}/ap/posts/1`));
      assert.equal(borrowed.status, 403);
      assert.deepEqual(await storedOfPeer(), before);
    } finally {
      await unblock(peer.host);
    }
    // Lifted: taken again, and an unsigned post is Fedify's 401 once more.
    assert.notEqual(await follows('alice'), 403);
    assert.equal((await peer.postUnsigned(`${server.url}/ap/inbox`, activity('Like', peer.actors.alice!.id, `${server.url}/ap/posts/1`))).status, 401);
    assert.equal((await peer.postBadlySigned('alice', `${server.url}/ap/inbox`, activity('Like', 'https://elsewhere.example/users/x', `${server.url}/ap/posts/1`))).status, 401);
  });
});

/** The peer's actor as the inbox would keep it, so that an Accept can be addressed to it. */
async function metAtPeer(username: string): Promise<string> {
  const actor = peer.actors[username]!;
  const known = await count('remote_actors', 'uri = ?', actor.id);
  if (!known) {
    await server.ctx.db.insertInto('remote_actors').values({
      uri: actor.id, handle: `${username}@${peer.host}`, domain: peer.host, name: actor.name, url: actor.url, avatar_url: actor.icon,
      inbox: actor.inbox, shared_inbox: `${peer.url}/inbox`, updated_at: new Date().toISOString(),
    }).execute();
  }
  return actor.id;
}

async function queueAccept(actorUri: string): Promise<void> {
  await server.ctx.db.transaction().execute((trx) => queueActivity(trx, { type: 'accept', userId: author.id, actorUri, followUri: `${actorUri}/follows/${Date.now()}` }));
}

describe('sending', () => {
  test('a delivery to a blocked server is dropped, recorded as blocked, and not tried again', async () => {
    const alice = await metAtPeer('alice');
    const carol = await metAtPeer('carol');
    await queueAccept(alice);
    await peer.waitForActivity({ type: 'Accept', inbox: 'alice' }, { timeout: 20_000 });
    await waitFor(async () => await count('federation_deliveries', 'inbox = ? AND ok = 1', peer.actors.alice!.inbox) === 1, { what: "alice's Accept recorded" });

    assert.equal((await block(peer.host)).status, 200);
    try {
      await queueAccept(carol);
      await waitFor(async () => await count('federation_deliveries', 'inbox = ? AND ok = 0 AND error = ?', peer.actors.carol!.inbox, 'blocked') === 1,
        { what: "carol's Accept dropped", timeout: 20_000 });
      await waitFor(async () => await count('jobs', "kind IN ('federation.send', 'federation.fedify')") === 0, { what: 'no delivery left to retry' });
      assert.deepEqual(peer.activities({ type: 'Accept', inbox: 'carol' }), []);
      assert.deepEqual(peer.errors, []);
    } finally {
      await unblock(peer.host);
    }
  });
});

describe('the Fediverse tab', () => {
  test('lists the remote followers, the latest deliveries and the deliveries failing, never a payload', async () => {
    const writer = await createSeasonedUser(server);
    const fan = await remoteActor('fan@far.example', 'https://far.example/users/fan');
    await remoteFollow(fan, writer.id);
    await server.ctx.db.insertInto('federation_deliveries').values({
      at: new Date().toISOString(), inbox: 'https://down.example/inbox', domain: 'down.example', activity_type: 'Create', activity_id: null, ok: 0, error: 'connect ECONNREFUSED',
    }).execute();
    const now = Date.now();
    const later = new Date(now + 3_600_000).toISOString();
    const earlier = new Date(now - 3_600_000).toISOString();
    const secret = { kty: 'RSA', d: 'SECRET-PRIVATE-KEY' };
    await server.ctx.db.insertInto('jobs').values([
      { kind: 'federation.fedify', queue: 'federation', payload: JSON.stringify({ type: 'outbox', inbox: 'https://down.example/inbox', activityType: 'https://www.w3.org/ns/activitystreams#Create', keys: [{ privateKey: secret }] }),
        state: 'failed', run_at: earlier, attempts: 9, last_error: 'connect ECONNREFUSED', created_at: earlier },
      { kind: 'federation.send', queue: 'federation', payload: JSON.stringify({ type: 'article', event: 'update', postId: 7, authorId: writer.id, at: earlier }),
        state: 'pending', run_at: later, attempts: 2, last_error: 'the federation queue is not listening on this instance', created_at: earlier },
      // Queued and never tried: not a failure.
      { kind: 'federation.send', queue: 'federation', payload: JSON.stringify({ type: 'profile', userId: writer.id, at: earlier }), state: 'pending', run_at: later, attempts: 0, last_error: null, created_at: earlier },
    ]).execute();
    try {
      const res = await server.api('GET', '/api/admin/federation', { token: admin.token });
      assert.equal(res.status, 200);
      assert.doesNotMatch(JSON.stringify(res.body), /SECRET|privateKey/);
      assert.deepEqual(res.body.remote_followers[0], {
        handle: '@fan@far.example', name: 'fan', url: 'https://far.example/users/fan/profile', avatar: null, follows: writer.username,
        created_at: res.body.remote_followers[0].created_at,
      });
      assert.equal(res.body.remote_followers_total, await count('remote_followers'));
      assert.deepEqual(plain(res.body.deliveries[0]), {
        inbox: 'https://down.example/inbox', domain: 'down.example', activity_type: 'Create', ok: false, error: 'connect ECONNREFUSED', at: res.body.deliveries[0].at,
      });
      assert.equal(res.body.deliveries_total, await count('federation_deliveries'));
      assert.deepEqual(res.body.failures.map(plain), [
        { kind: 'federation.send', state: 'pending', activity_type: 'Update', target: `${writer.username}'s followers (article 7)`,
          last_error: 'the federation queue is not listening on this instance', attempts: 2, run_at: later },
        { kind: 'federation.fedify', state: 'failed', activity_type: 'Create', target: 'https://down.example/inbox',
          last_error: 'connect ECONNREFUSED', attempts: 9, run_at: earlier },
      ]);
      assert.equal(res.body.failures_total, 2);

      // Each list pages on its own.
      const paged = await server.api('GET', '/api/admin/federation?failures_skip=1&limit=1', { token: admin.token });
      assert.deepEqual(paged.body.failures.map((f: any) => f.kind), ['federation.fedify']);
      assert.equal(paged.body.remote_followers.length, 1);
      assert.equal(paged.body.deliveries.length, 1);
      const bad = await server.api('GET', '/api/admin/federation?deliveries_skip=-1', { token: admin.token });
      assert.deepEqual([bad.status, bad.body], [400, { detail: 'deliveries_skip must be a non-negative integer' }]);
    } finally {
      await sqlRows(server.ctx.db, "DELETE FROM jobs WHERE kind IN ('federation.send', 'federation.fedify') AND run_at IN (?, ?)", later, earlier);
    }
  });
});
