// What an author's acts queue for their followers elsewhere (DESIGN.md, The fediverse: Sending):
// one `federation.send` job per act, written in the act's own transaction (a failed act queues
// nothing, a failed queueing undoes the act), none when nobody elsewhere follows or federation is
// off. The runner never looks here: the jobs stay to be read. What an archived or deleted article
// is at its ActivityPub address: a Tombstone, 410.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createAdmin, createUser, failInserts, failUpdates, multipart, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { addRemoteFollower } from './federation-fixtures.ts';

const PUBLIC_URL = 'https://paper.test';
/** A server whose runner never looks: what the acts queue stays to be seen. */
const quiet = { pollMs: 3_600_000, wakeOnQueue: false };

interface SendJob { id: number; payload: Record<string, any> }

async function sendJobs(server: TestServer): Promise<SendJob[]> {
  const rows = await sqlRows<{ id: number; payload: string }>(server.ctx.db, "SELECT id, payload FROM jobs WHERE kind = 'federation.send' ORDER BY id");
  return rows.map((row) => ({ id: Number(row.id), payload: JSON.parse(row.payload) }));
}

/** The jobs queued by `act`, what they say (without the time). */
async function queuedBy(server: TestServer, act: () => Promise<unknown>): Promise<Record<string, any>[]> {
  const before = (await sendJobs(server)).map((job) => job.id);
  await act();
  return (await sendJobs(server)).filter((job) => !before.includes(job.id)).map(({ payload: { at, ...rest } }) => {
    assert.ok(!Number.isNaN(Date.parse(at)), `at: ${at}`);
    return rest;
  });
}

const article = (event: string, postId: number, authorId: number) => ({ type: 'article', event, postId, authorId });

let server: TestServer;
let author: TestUser;
let loner: TestUser;

before(async () => {
  server = await startTestServer({ env: { FEDERATION: 'on', PUBLIC_URL, FEDERATION_ALLOW_PRIVATE: 'true' }, jobs: quiet });
  author = await createUser(server);
  loner = await createUser(server);
  await addRemoteFollower(server, author.id, { uri: 'https://elsewhere.test/users/reader', inbox: 'https://elsewhere.test/users/reader/inbox', sharedInbox: 'https://elsewhere.test/inbox' });
});
after(() => server.stop());

describe('publishing', () => {
  test('with a follower elsewhere queues exactly one Create, in the publication\'s transaction', async () => {
    let post: any;
    const queued = await queuedBy(server, async () => { post = await createPost(server, author); });
    assert.deepEqual(queued, [article('create', post.id, author.id)]);
  });

  test('with nobody following from elsewhere queues nothing', async () => {
    assert.deepEqual(await queuedBy(server, () => createPost(server, loner)), []);
  });

  test('a publication that fails queues nothing; a queueing that fails publishes nothing', async () => {
    const postsBefore = await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', author.id);
    // The author's counters move after the job is written: their failure takes it back.
    const restoreUsers = await failUpdates(server.ctx.db, 'users', 'posts_count', author.id);
    try {
      const queued = await queuedBy(server, async () => {
        const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
        assert.equal(res.status, 500);
      });
      assert.deepEqual(queued, []);
    } finally {
      await restoreUsers();
    }
    const restoreJobs = await failInserts(server.ctx.db, 'jobs');
    try {
      const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields()) });
      assert.equal(res.status, 500);
    } finally {
      await restoreJobs();
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE author_id = ?', author.id), postsBefore);
  });

  test('a draft queues nothing until it is published, then a Create', async () => {
    let draft: any;
    assert.deepEqual(await queuedBy(server, async () => {
      const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), draft: 'true' }) });
      assert.equal(res.status, 201);
      draft = res.body;
      const edit = await server.api('PUT', `/api/posts/${draft.id}`, { token: author.token, body: multipart(articleFields()) });
      assert.equal(edit.status, 200);
    }), []);
    assert.deepEqual(await queuedBy(server, async () => {
      const res = await server.api('POST', `/api/posts/${draft.id}/publish`, { token: author.token, body: multipart({}) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }), [article('create', draft.id, author.id)]);
  });

  test('nothing is queued with federation off, followers or not', async () => {
    const off = await startTestServer({ env: { PUBLIC_URL, FEDERATION: 'off' }, jobs: quiet });
    try {
      const writer = await createUser(off);
      await addRemoteFollower(off, writer.id, { uri: 'https://elsewhere.test/users/r2', inbox: 'https://elsewhere.test/users/r2/inbox', sharedInbox: null });
      const post = await createPost(off, writer);
      assert.equal((await off.api('PUT', `/api/posts/${post.id}/archive`, { token: writer.token })).status, 200);
      assert.deepEqual(await sendJobs(off), []);
    } finally {
      await off.stop();
    }
  });
});

describe('an article\'s life after', () => {
  test('an edit queues an Update; archiving a Delete; unarchiving a Create; an archived article\'s edit nothing', async () => {
    const post = await createPost(server, author);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', `/api/posts/${post.id}`, { token: author.token, body: multipart(articleFields()) })).status, 200);
    }), [article('update', post.id, author.id)]);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 200);
    }), [article('delete', post.id, author.id)]);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', `/api/posts/${post.id}`, { token: author.token, body: multipart(articleFields()) })).status, 200);
    }), []);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 200);
    }), [article('create', post.id, author.id)]);
  });

  test('deleting queues a Delete, by its author or an admin; a draft\'s or an archived article\'s deletion nothing', async () => {
    const admin = await createAdmin(server);
    const own = await createPost(server, author);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('DELETE', `/api/posts/${own.id}`, { token: author.token })).status, 200);
    }), [article('delete', own.id, author.id)]);
    const moderated = await createPost(server, author);
    assert.deepEqual(await queuedBy(server, async () => {
      const res = await server.api('DELETE', `/api/admin/delete-post/${moderated.id}?reason=${encodeURIComponent('Off topic')}`, { token: admin.token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }), [article('delete', moderated.id, author.id)]);
    const archived = await createPost(server, author);
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token });
    const draft = (await server.api('POST', '/api/posts', { token: author.token, body: multipart({ ...articleFields(), draft: 'true' }) })).body;
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('DELETE', `/api/posts/${archived.id}`, { token: author.token })).status, 200);
      assert.equal((await server.api('DELETE', `/api/posts/${draft.id}`, { token: author.token })).status, 200);
    }), []);
  });

  test('an archived or deleted article is a Tombstone at its address, 410', async () => {
    const archived = await createPost(server, author);
    const deleted = await createPost(server, author);
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token });
    await server.api('DELETE', `/api/posts/${deleted.id}`, { token: author.token });
    for (const id of [archived.id, deleted.id]) {
      for (const path of [`/ap/posts/${id}`, `/post/${id}`]) {
        const res = await server.api('GET', path, { headers: { accept: 'application/activity+json' } });
        assert.equal(res.status, 410, path);
        assert.match(res.headers.get('content-type') ?? '', /^application\/activity\+json/);
        assert.equal(res.body.type, 'Tombstone');
        assert.equal(res.body.id, `${PUBLIC_URL}/ap/posts/${id}`);
      }
    }
  });
});

describe('the author', () => {
  test('a profile edit (name, bio, avatar) queues Update(Person); with nobody elsewhere, nothing', async () => {
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', '/api/users/me', { token: author.token, json: { bio: 'Writes about the harbor.' } })).status, 200);
    }), [{ type: 'profile', userId: author.id }]);
    assert.deepEqual(await queuedBy(server, async () => {
      assert.equal((await server.api('PUT', '/api/users/me', { token: loner.token, json: { bio: 'Nobody reads me elsewhere.' } })).status, 200);
    }), []);
  });

  test('an account deleted with its articles queues their Deletes and its own, with its keys and followers', async () => {
    const leaving = await createUser(server);
    await addRemoteFollower(server, leaving.id, { uri: 'https://elsewhere.test/users/fan', inbox: 'https://elsewhere.test/users/fan/inbox', sharedInbox: 'https://elsewhere.test/inbox' });
    // Its keys are made on first need: the actor's first read.
    assert.equal((await server.api('GET', `/ap/users/${leaving.id}`, { headers: { accept: 'application/activity+json' } })).status, 200);
    const kept = await createPost(server, leaving);
    const archived = await createPost(server, leaving);
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: leaving.token });
    const queued = await queuedBy(server, async () => {
      const res = await server.api('DELETE', '/api/users/me', { token: leaving.token, json: { password: leaving.password } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.equal(queued.length, 1);
    const { keys, ...rest } = queued[0]!;
    assert.deepEqual(rest, {
      type: 'account', userId: leaving.id, postIds: [kept.id],
      followers: [{ uri: 'https://elsewhere.test/users/fan', inbox: 'https://elsewhere.test/users/fan/inbox', shared_inbox: 'https://elsewhere.test/inbox' }],
    });
    assert.equal(JSON.parse(keys.rsa).kty, 'RSA');
    assert.equal(JSON.parse(keys.ed25519).crv, 'Ed25519');
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM federation_keys WHERE user_id = ?', leaving.id), 0);
  });
});

describe('the followers collection Fedify delivers to', () => {
  test('pages through every follower, also when many followed in the same millisecond', async () => {
    const popular = await createUser(server);
    const at = new Date().toISOString();
    const uris: string[] = [];
    for (let i = 0; i < 120; i++) {
      const uri = `https://crowd.test/users/r${i}`;
      uris.push(uri);
      const [actor] = await sqlRows<{ id: number }>(server.ctx.db,
        'INSERT INTO remote_actors (uri, handle, domain, name, url, inbox, shared_inbox, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
        uri, `r${i}@crowd.test`, 'crowd.test', `r${i}`, uri, `${uri}/inbox`, null, at);
      await sqlRows(server.ctx.db, 'INSERT INTO remote_followers (user_id, actor_id, follow_uri, created_at) VALUES (?, ?, ?, ?)', popular.id, actor!.id, null, at);
    }
    const get = async (url: string) => {
      const local = new URL(url);
      const res = await fetch(`${server.url}${local.pathname}${local.search}`, { headers: { accept: 'application/activity+json' } });
      assert.equal(res.status, 200, url);
      return res.json() as Promise<Record<string, any>>;
    };
    const collection = await get(`${PUBLIC_URL}/ap/users/${popular.id}/followers`);
    const seen: string[] = [];
    let next: string | undefined = typeof collection.first === 'string' ? collection.first : collection.first?.id;
    for (let pages = 0; next && pages < 10; pages++) {
      const page = await get(next);
      seen.push(...[page.orderedItems ?? []].flat().map((item: unknown) => (typeof item === 'string' ? item : (item as { id: string }).id)));
      next = typeof page.next === 'string' ? page.next : page.next?.id;
    }
    assert.deepEqual([...seen].sort(), [...uris].sort());
  });
});
