// What the queued activities become (DESIGN.md, The fediverse: Sending and Articles): the leader's
// runner signs and delivers them, over https, to a real Fedify peer standing in for Mastodon,
// which checks every signature; the Create(Article) carries DESIGN's fields. An inbox that fails
// is tried again a minute later, then two; one at a private address is never contacted unless
// FEDERATION_ALLOW_PRIVATE says so, its refusal recorded and not retried.
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startFediversePeer, type FediversePeer } from '../federation-peer.ts';
import { startFederatedServer } from '../federation-servers.ts';
import { createSeasonedUser, multipart, samplePng, sqlRows, type TestServer, type TestUser } from '../helpers.ts';
import { testCertificate } from '../test-certificate.ts';
import { waitFor } from '../wait-for.ts';
import { articleFields } from './factories.ts';
import { addRemoteFollower } from './federation-fixtures.ts';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** The peer's users: one reads through its server's shared inbox, the crowd each at its own. */
const CROWD = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'];
let peer: FediversePeer;
before(async () => { peer = await startFediversePeer({ actors: ['reader', ...CROWD] }); });
after(async () => {
  await peer.close();
  assert.deepEqual(peer.errors, []);
});

/** The peer's reader as a follower of `author` on `server`, delivered to at the peer's shared inbox. */
function followFromPeer(server: TestServer, author: TestUser) {
  const reader = peer.actors.reader!;
  return addRemoteFollower(server, author.id, { uri: reader.id, inbox: reader.inbox, sharedInbox: `${peer.url}/inbox` });
}

/** Every job of the federation's two kinds, as the table holds them. */
function federationJobs(server: TestServer) {
  return sqlRows<{ id: number; kind: string; state: string; attempts: number; run_at: string; last_error: string | null; payload: string }>(server.ctx.db,
    "SELECT id, kind, state, attempts, run_at, last_error, payload FROM jobs WHERE kind IN ('federation.send', 'federation.fedify') ORDER BY id");
}

const asList = (value: unknown) => (Array.isArray(value) ? value : [value]);

describe('delivered to a Fedify peer', () => {
  let server: TestServer;
  let author: TestUser;
  before(async () => {
    server = await startFederatedServer();
    author = await createSeasonedUser(server);
    await followFromPeer(server, author);
  });
  after(() => server.stop());

  test('a publication reaches the follower\'s server as a signed Create(Article) with DESIGN\'s fields', async () => {
    const body = multipart(
      { ...articleFields({ title: 'Rain on the harbor at night', content: 'The ferry left *late*, and the bookshop closed. '.repeat(4), hashtags: ['harbor', 'rain'] }), image_alt: 'A ferry in the rain' },
      { field: 'image', data: await samplePng() },
    );
    const res = await server.api('POST', '/api/posts', { token: author.token, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const post = res.body;

    const create = await peer.waitForActivity({ type: 'Create', objectType: 'Article' }, { timeout: 20_000 });
    const actor = `${server.url}/ap/users/${author.id}`;
    assert.equal(create.actor, actor);
    assert.equal(create.inbox, null, 'to the shared inbox, once for the server');
    const article = create.raw.object;
    assert.equal(article.id, `${server.url}/ap/posts/${post.id}`);
    assert.equal(article.name, 'Rain on the harbor at night');
    assert.equal(article.content, post.content_html);
    assert.match(article.content, /<em>late<\/em>/);
    // The excerpt: the text without its markup, a card's length.
    assert.ok(article.summary.startsWith('The ferry left late, and the bookshop closed. The ferry'), article.summary);
    assert.ok(article.summary.length <= 151, `${article.summary.length} characters`);
    assert.equal(article.url, `${server.url}/post/${post.id}`);
    assert.equal(Date.parse(article.published), Date.parse(post.created_at));
    assert.ok(!Number.isNaN(Date.parse(article.updated)), `updated: ${article.updated}`);
    assert.equal(article.attributedTo, actor);
    assert.equal(article.image.type, 'Image');
    assert.equal(article.image.name, 'A ferry in the rain');
    assert.equal(article.image.url, new URL(post.image, server.url).href);
    assert.deepEqual(asList(article.tag).map((tag: any) => [tag.type, tag.name, tag.href]), [
      ['Hashtag', '#harbor', `${server.url}/ranks?hashtag=harbor`],
      ['Hashtag', '#rain', `${server.url}/ranks?hashtag=rain`],
    ]);
    assert.ok([PUBLIC, 'as:Public', 'Public'].includes(asList(article.to)[0]), `to: ${JSON.stringify(article.to)}`);
    assert.deepEqual(asList(article.cc), [`${actor}/followers`]);
    assert.equal(article.replies.type, 'Collection');
    assert.equal(article.replies.totalItems, 0);
    // The image the article names is there to fetch.
    assert.equal((await fetch(article.image.url)).status, 200);

    // Done: the jobs are gone, the delivery recorded for the Fediverse tab.
    await waitFor(async () => (await federationJobs(server)).length === 0, { what: 'the federation jobs done' });
    const [delivery] = await sqlRows<any>(server.ctx.db, "SELECT inbox, domain, activity_type, ok, error FROM federation_deliveries WHERE activity_type = 'Create'");
    assert.deepEqual({ ...delivery }, { inbox: `${peer.url}/inbox`, domain: '127.0.0.1', activity_type: 'Create', ok: 1, error: null });
  });

  test('an edit, an archiving, an unarchiving, a profile edit and a deletion arrive as Update, Delete, Create, Update(Person), Delete', async () => {
    const post = (await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields({ title: 'First draft of a walk by the sea' })) })).body;
    const articleId = `${server.url}/ap/posts/${post.id}`;
    const about = (type: string, objectType: string) => (activity: { type: string; objectType: string | null; object: string | null; raw: any }) =>
      activity.type === type && activity.objectType === objectType && (activity.object === articleId || activity.raw.object?.id === articleId);
    await peer.waitForActivity(about('Create', 'Article'), { timeout: 20_000 });

    await server.api('PUT', `/api/posts/${post.id}`, { token: author.token, body: multipart(articleFields({ title: 'A walk by the sea, edited' })) });
    const update = await peer.waitForActivity(about('Update', 'Article'), { timeout: 20_000 });
    assert.equal(update.raw.object.name, 'A walk by the sea, edited');

    await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    const archived = await peer.waitForActivity(about('Delete', 'Tombstone'), { timeout: 20_000 });
    assert.equal(archived.raw.object.id, articleId);
    await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    await waitFor(() => peer.activities(about('Create', 'Article')).length === 2, { what: 'the Create again', timeout: 20_000 });

    await server.api('PUT', '/api/users/me', { token: author.token, json: { bio: 'Walks by the harbor.' } });
    const person = await peer.waitForActivity({ type: 'Update', objectType: 'Person' }, { timeout: 20_000 });
    assert.equal(person.raw.object.id, `${server.url}/ap/users/${author.id}`);
    assert.equal(person.raw.object.summary, 'Walks by the harbor.');

    await server.api('DELETE', `/api/posts/${post.id}`, { token: author.token });
    await waitFor(() => peer.activities(about('Delete', 'Tombstone')).length === 2, { what: 'the deletion\'s Delete', timeout: 20_000 });
  });
  test('to many inboxes: fanned out, one delivery to each', async () => {
    const popular = await createSeasonedUser(server);
    for (const name of CROWD) {
      const actor = peer.actors[name]!;
      await addRemoteFollower(server, popular.id, { uri: actor.id, inbox: actor.inbox, sharedInbox: null });
    }
    const post = (await server.api('POST', '/api/posts', { token: popular.token, body: multipart(articleFields()) })).body;
    const articleId = `${server.url}/ap/posts/${post.id}`;
    const got = () => peer.activities((activity) => activity.type === 'Create' && activity.raw.object?.id === articleId);
    await waitFor(() => got().length === CROWD.length, { what: 'a Create at each inbox', timeout: 20_000 });
    assert.deepEqual(got().map((activity) => activity.inbox).sort(), [...CROWD].sort());
    // Each recorded once its inbox has answered.
    const recorded = async () => Number((await sqlRows<any>(server.ctx.db, 'SELECT count(*) AS n FROM federation_deliveries WHERE activity_id LIKE ? AND ok = 1', `${articleId}#create-%`))[0].n);
    await waitFor(async () => await recorded() === CROWD.length, { what: 'each delivery recorded' });
  });

  test('an account deleted with its articles sends their Deletes and its own, signed with the keys that went with it', async () => {
    const leaving = await createSeasonedUser(server);
    await followFromPeer(server, leaving);
    const actor = `${server.url}/ap/users/${leaving.id}`;
    const post = (await server.api('POST', '/api/posts', { token: leaving.token, body: multipart(articleFields()) })).body;
    // The peer has checked this author's signature once, and keeps the key, as Mastodon does.
    await peer.waitForActivity({ type: 'Create', actor }, { timeout: 20_000 });

    const res = await server.api('DELETE', '/api/users/me', { token: leaving.token, json: { password: leaving.password } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const article = await peer.waitForActivity({ type: 'Delete', actor, objectType: 'Tombstone' }, { timeout: 20_000 });
    assert.equal(article.raw.object.id, `${server.url}/ap/posts/${post.id}`);
    const person = await peer.waitForActivity({ type: 'Delete', actor, object: actor }, { timeout: 20_000 });
    assert.equal(person.inbox, null);
  });
});

/**
 * A server over https whose every answer is `status` (a 500 by default), or none at all (`hang`),
 * and how many posts it was sent.
 */
async function startFailingInbox(answer: { status?: number; hang?: boolean } = {}): Promise<{ url: string; posts: () => number; close(): Promise<void> }> {
  const { key, cert } = testCertificate();
  let posts = 0;
  const https = createServer({ key, cert }, (req, res) => {
    posts += 1;
    req.resume();
    if (answer.hang) return;
    res.writeHead(answer.status ?? 500, { 'content-type': 'text/plain' }).end(answer.status === 410 ? 'Gone' : 'Down for maintenance');
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(https.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () => new Promise((resolve) => { https.close(() => resolve()); https.closeAllConnections(); }),
  };
}

describe('an inbox that fails', () => {
  let server: TestServer;
  // Looks every 50 ms, so that a retry made due here is taken at once; a delivery fails after 3 s without an answer.
  before(async () => {
    server = await startFederatedServer({ jobs: { pollMs: 50 }, config: { federation: { enabled: true, allowPrivateAddress: true, deliveryTimeoutMs: 3_000 } } });
  });
  after(() => server.stop());

  /** An author followed from the failing server. */
  async function authorFollowedFrom(failing: { url: string }): Promise<TestUser> {
    const author = await createSeasonedUser(server);
    await addRemoteFollower(server, author.id, { uri: `${failing.url}/users/x`, inbox: `${failing.url}/users/x/inbox`, sharedInbox: null });
    return author;
  }

  const failuresAt = async (inbox: string) => (await sqlRows<any>(server.ctx.db, 'SELECT ok, error FROM federation_deliveries WHERE inbox = ?', inbox));

  test('leaves the delivery waiting a minute, then two: DELIVERY_RETRIES through the jobs runner', async () => {
    const failing = await startFailingInbox();
    try {
      const author = await authorFollowedFrom(failing);
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });

      const inbox = `${failing.url}/users/x/inbox`;
      const failedOnce = async () => (await federationJobs(server))
        .find((job) => job.kind === 'federation.fedify' && job.state === 'pending' && job.attempts === 1 && JSON.parse(job.payload).inbox === inbox);
      await waitFor(async () => Boolean(await failedOnce()), { what: 'the delivery failed once', timeout: 20_000 });
      const first = (await failedOnce())!;
      const wait = Date.parse(first.run_at) - Date.now();
      assert.ok(wait > 55_000 && wait <= 60_000, `next try in ${wait} ms`);
      assert.match(first.last_error ?? '', /500/);
      // Fedify knocks twice on a refusal, signed one way then the other.
      const postsOnce = failing.posts();
      assert.ok(postsOnce >= 1);

      // Its minute is up: tried again, and the next wait is twice as long.
      await sqlRows(server.ctx.db, 'UPDATE jobs SET run_at = ? WHERE id = ?', new Date().toISOString(), first.id);
      await waitFor(async () => (await federationJobs(server)).some((job) => job.id === first.id && job.attempts === 2 && job.state === 'pending'),
        { what: 'the second try failed', timeout: 20_000 });
      const second = (await federationJobs(server)).find((job) => job.id === first.id)!;
      const doubled = Date.parse(second.run_at) - Date.now();
      assert.ok(doubled > 115_000 && doubled <= 120_000, `next try in ${doubled} ms`);
      assert.equal(failing.posts(), 2 * postsOnce);
      const failures = await failuresAt(inbox);
      assert.equal(failures.length, 2);
      assert.ok(failures.every((row) => Number(row.ok) === 0 && /500/.test(row.error)), JSON.stringify(failures));
    } finally {
      await failing.close();
    }
  });

  test('one that takes the request and never answers fails at the delivery\'s deadline, and is tried again a minute later', async () => {
    const silent = await startFailingInbox({ hang: true });
    try {
      const author = await authorFollowedFrom(silent);
      const inbox = `${silent.url}/users/x/inbox`;
      const started = Date.now();
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      await waitFor(async () => (await failuresAt(inbox)).length === 1, { what: 'the delivery failed', timeout: 20_000 });
      assert.ok(Date.now() - started >= 3_000, 'not before its deadline');
      assert.match((await failuresAt(inbox))[0]!.error, /timeout|aborted/i);
      const job = (await federationJobs(server)).find((row) => row.kind === 'federation.fedify' && JSON.parse(row.payload).inbox === inbox)!;
      assert.deepEqual([job.state, job.attempts], ['pending', 1]);
      const wait = Date.parse(job.run_at) - Date.now();
      assert.ok(wait > 50_000 && wait <= 60_000, `next try in ${wait} ms`);
    } finally {
      await silent.close();
    }
  });

  test('one that answers 410 Gone: not tried again, and the followers it was for are no longer followers', async () => {
    const gone = await startFailingInbox({ status: 410 });
    try {
      const author = await authorFollowedFrom(gone);
      const stays = await createSeasonedUser(server);
      await addRemoteFollower(server, stays.id, { uri: 'https://elsewhere.example/users/y', inbox: 'https://elsewhere.example/users/y/inbox', sharedInbox: null });
      const inbox = `${gone.url}/users/x/inbox`;
      const countOf = async (id: number) => Number((await sqlRows<any>(server.ctx.db, 'SELECT remote_followers_count AS n FROM users WHERE id = ?', id))[0].n);
      assert.equal(await countOf(author.id), 1);
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      await waitFor(async () => await countOf(author.id) === 0, { what: 'the follower dropped', timeout: 20_000 });
      assert.deepEqual(await sqlRows(server.ctx.db, 'SELECT actor_id FROM remote_followers WHERE user_id = ?', author.id), []);
      assert.equal(await countOf(stays.id), 1, 'followers elsewhere stay');
      const [failure] = await failuresAt(inbox);
      assert.match(failure.error, /410/);
      const job = (await federationJobs(server)).find((row) => row.kind === 'federation.fedify' && JSON.parse(row.payload).inbox === inbox);
      assert.equal(job?.state, 'failed', 'given up, not retried');
      // The author's next article is sent to nobody there.
      const posts = gone.posts();
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      assert.equal((await server.api('GET', `/api/users/${author.id}`)).body.remote_followers_count, 0);
      assert.equal(gone.posts(), posts);
    } finally {
      await gone.close();
    }
  });

  test('given up three days after its first try, failed; one an operator put back since is tried as new', async () => {
    const failing = await startFailingInbox();
    try {
      const author = await authorFollowedFrom(failing);
      const inbox = `${failing.url}/users/x/inbox`;
      const jobAt = async () => (await federationJobs(server)).find((job) => job.kind === 'federation.fedify' && JSON.parse(job.payload).inbox === inbox);
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      const failedOnce = async () => { const job = await jobAt(); return job?.state === 'pending' && job.attempts === 1; };
      await waitFor(failedOnce, { what: 'the first try failed', timeout: 20_000 });
      const job = (await jobAt())!;
      const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000).toISOString();
      const payload = JSON.stringify({ ...JSON.parse(job.payload), started: fourDaysAgo });

      // Put back by `federation-queue --retry` (created now): tried again, and failing, retried as new.
      await sqlRows(server.ctx.db, 'UPDATE jobs SET payload = ?, created_at = ?, run_at = ? WHERE id = ?', payload, new Date().toISOString(), new Date().toISOString(), job.id);
      await waitFor(async () => { const again = await jobAt(); return again?.state === 'pending' && again.attempts === 2; },
        { what: 'the operator\'s retry tried, and failing, retried', timeout: 20_000 });

      // Still the copy of a first try four days ago: given up without a request.
      const posts = failing.posts();
      await sqlRows(server.ctx.db, 'UPDATE jobs SET payload = ?, created_at = ?, run_at = ? WHERE id = ?', payload, fourDaysAgo, new Date().toISOString(), job.id);
      await waitFor(async () => (await jobAt())?.state === 'failed', { what: 'the delivery given up', timeout: 20_000 });
      assert.equal((await jobAt())!.last_error, 'Given up: not delivered within three days');
      assert.equal(failing.posts(), posts);
    } finally {
      await failing.close();
    }
  });

  test('a server that keeps failing is paused: after five failures, its next delivery waits an hour untried', async () => {
    const failing = await startFailingInbox();
    try {
      const author = await authorFollowedFrom(failing);
      const inbox = `${failing.url}/users/x/inbox`;
      for (let n = 1; n <= 5; n += 1) {
        await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
        await waitFor(async () => (await failuresAt(inbox)).length === n, { what: `failure ${n}`, timeout: 20_000 });
      }
      const jobsBefore = (await federationJobs(server)).map((job) => job.id);
      const postsBefore = failing.posts();
      await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      // Held: its copy waits for the end of the pause, and nothing was sent.
      const held = async () => (await federationJobs(server))
        .find((job) => !jobsBefore.includes(job.id) && job.kind === 'federation.fedify' && JSON.parse(job.payload).circuitHeld === true);
      await waitFor(async () => Boolean(await held()), { what: 'the delivery held', timeout: 20_000 });
      const copy = (await held())!;
      const wait = Date.parse(copy.run_at) - Date.now();
      assert.ok(wait > 3_500_000 && wait <= 3_600_000, `held for ${wait} ms`);
      assert.deepEqual([copy.state, copy.attempts, JSON.parse(copy.payload).inbox], ['pending', 0, inbox]);
      assert.equal(failing.posts(), postsBefore, 'nothing sent to a paused server');
      assert.equal((await failuresAt(inbox)).length, 5, 'a held delivery is no failure');
    } finally {
      await failing.close();
    }
  });
});

describe('an inbox at a private address, FEDERATION_ALLOW_PRIVATE off', () => {
  let server: TestServer;
  before(async () => { server = await startFederatedServer({ env: { FEDERATION_ALLOW_PRIVATE: 'false' } }); });
  after(() => server.stop());

  test('is never contacted: the refusal is recorded as a failed delivery, and not retried', async () => {
    const author = await createSeasonedUser(server);
    const reader = peer.actors.reader!;
    await addRemoteFollower(server, author.id, { uri: reader.id, inbox: reader.inbox, sharedInbox: `${peer.url}/inbox` });
    const received = peer.received.length;
    const post = (await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) })).body;

    await waitFor(async () => (await federationJobs(server)).some((job) => job.state === 'failed'), { what: 'the delivery refused', timeout: 20_000 });
    const jobs = await federationJobs(server);
    assert.deepEqual(jobs.map((job) => [job.kind, job.state, job.attempts]), [['federation.fedify', 'failed', 1]]);
    const refusal = `Refused: 127.0.0.1:${new URL(peer.url).port}: Invalid or private address: 127.0.0.1`;
    assert.equal(jobs[0]!.last_error, refusal);
    const deliveries = await sqlRows<any>(server.ctx.db, 'SELECT inbox, activity_type, activity_id, ok, error FROM federation_deliveries');
    assert.deepEqual(deliveries.map((row) => ({ ...row, ok: Number(row.ok) })), [{
      inbox: `${peer.url}/inbox`, activity_type: 'Create', activity_id: deliveries[0]?.activity_id, ok: 0, error: refusal,
    }]);
    assert.match(deliveries[0]!.activity_id, new RegExp(`/ap/posts/${post.id}#create-`));
    assert.equal(peer.received.length, received, 'the peer heard nothing');
  });
});
