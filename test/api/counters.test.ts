// Counters never drift: a random mix of operations through the API, then every counter is
// recounted from the base tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { seededRandom } from '../../scripts/seed/corpus.ts';
import { createUser, letVisitsCountAgain, promoteToAdmin, startTestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

for (const seed of [1, 2, 3]) {
  test(`no counter drifts after 250 random operations (seed ${seed})`, async () => {
    const server = await startTestServer();
    try {
      const rnd = seededRandom(seed);
      const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
      const users: TestUser[] = [];
      for (let i = 0; i < 6; i += 1) users.push(await createUser(server));
      const admin = users[5]!;
      await promoteToAdmin(server, admin.id);
      const tags = ['jazz', 'night', 'city', 'ink', 'blues'];
      let postIds: number[] = [];
      let commentIds: Array<{ id: number; by: TestUser }> = [];
      const log: string[] = [];

      const operations: Array<() => Promise<void>> = [
        async () => {
          const author = pick(users);
          const post = await createPost(server, author, { hashtags: [pick(tags), pick(tags)] });
          postIds.push(post.id);
          log.push(`create ${post.id}`);
        },
        async () => {
          if (!postIds.length) return;
          const res = await server.api('POST', `/api/posts/${pick(postIds)}/rate`, { token: pick(users).token, json: { rating: 1 + Math.floor(rnd() * 5) } });
          log.push(`rate ${res.status}`);
        },
        async () => {
          if (!postIds.length) return;
          const by = pick(users);
          const res = await server.api('POST', `/api/posts/${pick(postIds)}/comments`, { token: by.token, json: { content: 'a comment' } });
          if (res.status === 201) commentIds.push({ id: res.body.id, by });
          log.push(`comment ${res.status}`);
        },
        async () => {
          if (!commentIds.length) return;
          const comment = pick(commentIds);
          const as = rnd() < 0.2 ? admin : comment.by;
          const res = await server.api('DELETE', `/api/comments/${comment.id}?reason=spam`, { token: as.token });
          if (res.status === 200) commentIds = commentIds.filter((c) => c.id !== comment.id);
          log.push(`uncomment ${res.status}`);
        },
        async () => {
          if (!postIds.length) return;
          const id = pick(postIds);
          const owner = (await server.ctx.db.selectFrom('posts').select('author_id').where('id', '=', id).executeTakeFirst())?.author_id;
          const res = await server.api('PUT', `/api/posts/${id}/archive`, { token: users.find((u) => u.id === owner)!.token });
          log.push(`archive ${id} ${res.status}`);
        },
        async () => {
          if (!postIds.length) return;
          const id = pick(postIds);
          const res = await server.api('GET', `/api/posts/${id}`, rnd() < 0.5 ? { token: pick(users).token } : { headers: { 'user-agent': `ua${Math.floor(rnd() * 4)}` } });
          if (res.status === 200) {
            // Let the same reader count again next time.
            await letVisitsCountAgain(server);
          }
          log.push(`visit ${res.status}`);
        },
        async () => {
          if (!postIds.length) return;
          const id = pick(postIds);
          const owner = (await server.ctx.db.selectFrom('posts').select('author_id').where('id', '=', id).executeTakeFirst())!.author_id;
          const res = rnd() < 0.5
            ? await server.api('DELETE', `/api/posts/${id}`, { token: users.find((u) => u.id === owner)!.token })
            : await server.api('DELETE', `/api/admin/delete-post/${id}?reason=test`, { token: admin.token });
          if (res.status === 200) {
            postIds = postIds.filter((p) => p !== id);
            commentIds = (await server.ctx.db.selectFrom('comments').select('id').execute())
              .map((c) => commentIds.find((k) => k.id === c.id)!).filter(Boolean);
          }
          log.push(`delete ${id} ${res.status}`);
        },
        async () => {
          if (!postIds.length) return;
          const id = pick(postIds);
          const owner = (await server.ctx.db.selectFrom('posts').select('author_id').where('id', '=', id).executeTakeFirst())!.author_id;
          const token = users.find((u) => u.id === owner)!.token;
          const form = new FormData();
          form.append('title', 'An edited headline for the test');
          form.append('content', 'e'.repeat(200));
          form.append('hashtags', JSON.stringify([pick(tags), pick(tags), pick(tags)]));
          const res = await server.api('PUT', `/api/posts/${id}`, { token, body: form });
          log.push(`edit ${id} ${res.status}`);
        },
        async () => {
          const [a, b] = [pick(users), pick(users)];
          const res = await server.api(rnd() < 0.6 ? 'POST' : 'DELETE', `/api/follow/${b.id}`, { token: a.token });
          log.push(`follow ${res.status}`);
        },
      ];
      // Weighted towards creating posts early so the other operations have something to act on.
      for (let i = 0; i < 250; i += 1) {
        const op = i < 15 ? operations[0]! : pick(operations);
        await op();
      }
      const drift = await findCounterDrift(server.ctx.db);
      assert.deepEqual(drift, [], `seed ${seed}; last operations: ${log.slice(-15).join(', ')}`);
      assert.ok(log.some((l) => l.startsWith('rate 200')) && log.some((l) => l.startsWith('archive')), 'the mix exercised the counters');
    } finally {
      await server.stop();
    }
  });
}

test('findCounterDrift notices a wrong counter', async () => {
  const server = await startTestServer();
  try {
    const user = await createUser(server);
    await createPost(server, user);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
    await server.ctx.db.updateTable('users').set({ posts_count: 7 }).where('id', '=', user.id).execute();
    assert.deepEqual(await findCounterDrift(server.ctx.db), [`user ${user.id} posts_count: stored 7, counted 1`]);
  } finally {
    await server.stop();
  }
});

test('findCounterDrift recounts what the fediverse moved: remote followers, likes, boosts', async () => {
  const server = await startTestServer();
  try {
    const user = await createUser(server);
    const post = await createPost(server, user);
    const at = new Date().toISOString();
    const actor = await server.ctx.db.insertInto('remote_actors').values({
      uri: 'https://elsewhere.example/users/bob', handle: 'bob@elsewhere.example', domain: 'elsewhere.example', inbox: 'https://elsewhere.example/inbox',
      url: null, avatar_url: null, shared_inbox: null, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    await server.ctx.db.insertInto('remote_followers').values({ user_id: user.id, actor_id: actor.id, follow_uri: null, created_at: at }).execute();
    await server.ctx.db.insertInto('post_reactions').values({ post_id: post.id, actor_id: actor.id, kind: 'boost', activity_uri: null, created_at: at }).execute();
    await server.ctx.db.updateTable('posts').set({ likes_count: 2 }).where('id', '=', post.id).execute();
    assert.deepEqual(await findCounterDrift(server.ctx.db), [
      `user ${user.id} remote_followers_count: stored 0, counted 1`,
      `post ${post.id} likes_count: stored 2, counted 0`,
      `post ${post.id} boosts_count: stored 0, counted 1`,
    ]);
  } finally {
    await server.stop();
  }
});
