// Lists page on past 50, and their totals agree with their rows: Voices (/api/authors) and the
// admin Users, Posts and Banned lists. Paging with skip/limit reads every row exactly once, and
// the admin Posts total is the 'Active Posts' counter when the tab lists active articles.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { banInDatabase, createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let admin: TestUser;
let authors: TestUser[];
const AUTHORS = 56;

before(async () => {
  server = await startTestServer();
  admin = await createAdmin(server);
  authors = [await createUser(server, { username: 'solo_searchable' })];
  while (authors.length < AUTHORS) {
    authors.push(...await Promise.all(Array.from({ length: Math.min(8, AUTHORS - authors.length) }, () => createUser(server))));
  }
  for (let i = 0; i < authors.length; i += 8) {
    await Promise.all(authors.slice(i, i + 8).map((a) => createPost(server, a)));
  }
  // A second article each for a few, three archived, five users banned.
  const extra = await Promise.all(authors.slice(0, 5).map((a) => createPost(server, a)));
  for (const post of extra.slice(0, 3)) {
    const owner = authors.find((a) => a.id === post.author_id)!;
    assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: owner.token })).status, 200);
  }
  for (const user of authors.slice(-5)) await banInDatabase(server, user.id, { permanent: true, reason: 'spam' });
});
after(async () => { await server.stop(); });

/** Every page of a list, 50 at a time, as the client's 'Load more' reads it. */
async function readAll(path: string, key: string, token?: string): Promise<{ rows: Array<{ id: number }>; totals: number[] }> {
  const rows: Array<{ id: number }> = [];
  const totals: number[] = [];
  for (let skip = 0; ; skip += 50) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await server.api('GET', `${path}${sep}skip=${skip}&limit=50`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    rows.push(...res.body[key]);
    totals.push(res.body.total);
    if (res.body[key].length < 50) return { rows, totals };
  }
}

function assertAgree({ rows, totals }: { rows: Array<{ id: number }>; totals: number[] }, expected: number) {
  assert.ok(totals.every((t) => t === expected), `totals ${totals} vs ${expected}`);
  assert.equal(rows.length, expected);
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no row twice');
}

describe('lists past 50 rows: totals agree with rows', () => {
  it('Voices: every author with an active article, over two pages', async () => {
    const all = await readAll('/api/authors', 'authors');
    assertAgree(all, AUTHORS);
    assertAgree(await readAll('/api/authors?sort_by=posts_asc', 'authors'), AUTHORS);
  });

  it('admin Users: every account, and the level filter', async () => {
    const stats = await server.api('GET', '/api/admin/stats', { token: admin.token });
    const all = await readAll('/api/admin/users', 'users', admin.token);
    assertAgree(all, stats.body.total_users);
    assert.ok(stats.body.total_users > 50);
    assertAgree(await readAll('/api/admin/users?level=user', 'users', admin.token), stats.body.total_users - 1);
  });

  it('admin Banned: the Banned Users counter, one page', async () => {
    const stats = await server.api('GET', '/api/admin/stats', { token: admin.token });
    assertAgree(await readAll('/api/admin/banned-users', 'banned_users', admin.token), stats.body.banned_users);
    assert.equal(stats.body.banned_users, 5);
  });

  it('admin Posts: active ones are the Active Posts counter; archived and all add up', async () => {
    const stats = await server.api('GET', '/api/admin/stats', { token: admin.token });
    const active = await readAll('/api/admin/posts?status=active', 'posts', admin.token);
    const archived = await readAll('/api/admin/posts?status=archived', 'posts', admin.token);
    const all = await readAll('/api/admin/posts', 'posts', admin.token);
    assertAgree(active, stats.body.active_posts);
    assertAgree(archived, 3);
    assertAgree(all, stats.body.active_posts + 3);
    assert.ok(active.rows.every((p: any) => p.archived === false));
    assert.ok(archived.rows.every((p: any) => p.archived === true));
    assert.equal(stats.body.active_posts, AUTHORS + 2);
  });

  it('admin Posts: a search narrows rows and total alike; a bad status is a 400', async () => {
    const one = authors[0]!;
    const res = await server.api('GET', `/api/admin/posts?status=all&search=${one.username}`, { token: admin.token });
    assert.deepEqual([res.body.total, res.body.posts.length], [2, 2]);
    const active = await server.api('GET', `/api/admin/posts?status=active&search=${one.username}`, { token: admin.token });
    assert.deepEqual([active.body.total, active.body.posts.length], [1, 1]);
    const bad = await server.api('GET', '/api/admin/posts?status=deleted', { token: admin.token });
    assert.deepEqual([bad.status, bad.body], [400, { detail: 'status must be one of: all, active, archived' }]);
  });
});
