// Mutes (DESIGN.md, Mutes): a signed-in reader mutes authors and hashtags; their posts leave that
// reader's front page, Recent, rankings and search, full pages still; their comments come marked;
// they leave that reader no notices. Everyone else's lists, and the cache that serves them, stay
// as they were. Bad input gets a clear detail and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MUTES_MAX } from '../../shared/mutes.ts';
import { createUser, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let muter: TestUser;
let other: TestUser;

before(async () => {
  server = await startTestServer();
  muter = await createUser(server);
  other = await createUser(server);
});
after(async () => { await server.stop(); });

const mutes = async (as: TestUser) => {
  const res = await server.api('GET', '/api/users/me/mutes', { token: as.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { users: Array<{ id: number; username: string }>; hashtags: string[] };
};
const muteRows = async () => `${await sqlNumber(server.ctx.db, 'SELECT count(*) FROM user_mutes')}/${await sqlNumber(server.ctx.db, 'SELECT count(*) FROM hashtag_mutes')}`;
const mute = (as: TestUser | undefined, what: string, method: 'PUT' | 'DELETE' = 'PUT') =>
  server.api(method, `/api/users/me/mutes/${what}`, { token: as?.token });
async function muted(as: TestUser, what: string, method: 'PUT' | 'DELETE' = 'PUT') {
  const res = await mute(as, what, method);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The ids a list shows to this reader (a visitor without one). */
async function idsIn(url: string, as?: TestUser): Promise<number[]> {
  const res = await server.api('GET', url, { token: as?.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (Array.isArray(res.body) ? res.body : res.body.posts).map((p: { id: number }) => p.id);
}

describe('the endpoints', () => {
  test('muting and unmuting an author is idempotent, and the list names them as small user objects', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    assert.deepEqual(await mutes(reader), { users: [], hashtags: [], remote: [] });
    assert.deepEqual(await muted(reader, `users/${author.id}`), { message: `Muted ${author.username}`, muted: true });
    assert.deepEqual(await muted(reader, `users/${author.id}`), { message: `You have already muted ${author.username}`, muted: true });
    const list = await mutes(reader);
    assert.deepEqual(list.users.map((u) => [u.id, u.username]), [[author.id, author.username]]);
    assert.equal('email' in list.users[0]!, false, 'never a private field');
    assert.deepEqual(list.hashtags, []);
    assert.deepEqual(await muted(reader, `users/${author.id}`, 'DELETE'), { message: `Unmuted ${author.username}`, muted: false });
    assert.deepEqual(await muted(reader, `users/${author.id}`, 'DELETE'), { message: `You have not muted ${author.username}`, muted: false });
    assert.deepEqual(await mutes(reader), { users: [], hashtags: [], remote: [] });
  });

  test('a hashtag is muted as posts store it: #s, spaces and case aside', async () => {
    const reader = await createUser(server);
    assert.deepEqual(await muted(reader, `hashtags/${encodeURIComponent(' #Bebop ')}`), { message: 'Muted #bebop', muted: true, hashtag: 'bebop' });
    assert.deepEqual(await muted(reader, 'hashtags/BEBOP'), { message: 'You have already muted #bebop', muted: true, hashtag: 'bebop' });
    await muted(reader, 'hashtags/cool-jazz');
    assert.deepEqual((await mutes(reader)).hashtags, ['bebop', 'cool-jazz']);
    assert.deepEqual(await muted(reader, `hashtags/${encodeURIComponent('#bebop')}`, 'DELETE'), { message: 'Unmuted #bebop', muted: false, hashtag: 'bebop' });
    assert.deepEqual(await muted(reader, 'hashtags/bebop', 'DELETE'), { message: 'You have not muted #bebop', muted: false, hashtag: 'bebop' });
    assert.deepEqual((await mutes(reader)).hashtags, ['cool-jazz']);
  });

  test('bad input gets a clear detail and changes nothing', async () => {
    const author = await createUser(server);
    const before = await muteRows();
    const cases: Array<[string, 'PUT' | 'DELETE', TestUser | undefined, number, string]> = [
      [`users/${author.id}`, 'PUT', undefined, 401, 'You must sign in to mute'],
      [`users/${author.id}`, 'DELETE', undefined, 401, 'You must sign in to mute'],
      ['hashtags/jazz', 'PUT', undefined, 401, 'You must sign in to mute'],
      ['hashtags/jazz', 'DELETE', undefined, 401, 'You must sign in to mute'],
      [`users/${muter.id}`, 'PUT', muter, 400, 'You cannot mute yourself'],
      ['users/99999999', 'PUT', muter, 404, 'User not found'],
      ['users/99999999', 'DELETE', muter, 404, 'User not found'],
      ['users/abc', 'PUT', muter, 404, 'User not found'],
      ['users/0', 'PUT', muter, 404, 'User not found'],
      [`hashtags/${encodeURIComponent('two words')}`, 'PUT', muter, 400, 'Hashtags can only contain letters, numbers, hyphens and underscores'],
      [`hashtags/${'x'.repeat(21)}`, 'PUT', muter, 400, 'Each hashtag can have at most 20 characters'],
      [`hashtags/${encodeURIComponent('##')}`, 'PUT', muter, 400, 'Please enter a hashtag'],
      [`hashtags/${encodeURIComponent(' ')}`, 'DELETE', muter, 400, 'Please enter a hashtag'],
      ['hashtags/%FF', 'PUT', muter, 400, 'The URL path has an invalid percent-encoding'],
    ];
    for (const [what, method, as, status, detail] of cases) {
      const res = await mute(as, what, method);
      assert.equal(res.status, status, `${method} ${what}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, { detail }, `${method} ${what}`);
    }
    assert.equal((await server.api('GET', '/api/users/me/mutes')).status, 401);
    assert.equal(await muteRows(), before);
  });

  test(`at most ${MUTES_MAX} authors and ${MUTES_MAX} hashtags each; one already muted is still fine`, async () => {
    const reader = await createUser(server);
    const author = await createUser(server);
    const now = new Date().toISOString();
    // A thousand rows made directly: a thousand accounts through the API would be the test's whole time.
    await server.ctx.db.insertInto('hashtag_mutes')
      .values(Array.from({ length: MUTES_MAX }, (_, i) => ({ user_id: reader.id, tag: `tag${i}`, created_at: now }))).execute();
    const users = await server.ctx.db.insertInto('users').values(Array.from({ length: MUTES_MAX }, (_, i) => ({
      username: `filler${process.pid}x${i}`, username_key: `filler${process.pid}x${i}`, email: `filler${process.pid}x${i}@example.com`,
      password_hash: 'x', created_at: now,
    } as any))).returning('id').execute();
    await server.ctx.db.insertInto('user_mutes')
      .values(users.map((u) => ({ user_id: reader.id, muted_user_id: u.id, created_at: now }))).execute();
    const before = await muteRows();
    const full = await mute(reader, `users/${author.id}`);
    assert.equal(full.status, 409);
    assert.deepEqual(full.body, { detail: `You can mute at most ${MUTES_MAX} authors: unmute one first` });
    const fullTags = await mute(reader, 'hashtags/onemore');
    assert.equal(fullTags.status, 409);
    assert.deepEqual(fullTags.body, { detail: `You can mute at most ${MUTES_MAX} hashtags: unmute one first` });
    assert.equal(await muteRows(), before);
    assert.equal((await muted(reader, 'hashtags/tag7')).muted, true, 'muting one already muted changes nothing and is no error');
    assert.equal((await muted(reader, `users/${users[0]!.id}`)).muted, true);
    await muted(reader, 'hashtags/tag7', 'DELETE');
    assert.equal((await muted(reader, 'hashtags/onemore')).message, 'Muted #onemore', 'room again after an unmute');
    const list = await mutes(reader);
    assert.equal(list.users.length, MUTES_MAX);
    assert.equal(list.hashtags.length, MUTES_MAX);
  });
});

describe('what a muter reads', () => {
  let loud: TestUser;
  let quiet: TestUser;
  let loudPost: any;
  let taggedPost: any;
  let quietPost: any;

  before(async () => {
    loud = await createUser(server);
    quiet = await createUser(server);
    loudPost = await createPost(server, loud, { title: 'Zanzibar drums by the loud one', hashtags: ['jazz'] });
    taggedPost = await createPost(server, quiet, { title: 'Zanzibar horns under a muted tag', hashtags: ['jazz', 'Noise'] });
    quietPost = await createPost(server, quiet, { title: 'Zanzibar strings by the quiet one', hashtags: ['jazz'] });
    await muted(muter, `users/${loud.id}`);
    await muted(muter, 'hashtags/noise');
  });

  const LISTS = ['/api/frontpage', '/api/posts', '/api/posts?hashtag=jazz', '/api/ranks', '/api/ranks?criteria=visits',
    '/api/ranks?time_period=24h', '/api/ranks?hashtag=jaz', '/api/search?q=zanzibar', '/api/search?q=drums'];

  test('muted authors and hashtags leave the front page, Recent, every ranking and search', async () => {
    for (const url of LISTS) {
      const ids = await idsIn(url, muter);
      assert.ok(!ids.includes(loudPost.id), `${url}: the muted author's post`);
      assert.ok(!ids.includes(taggedPost.id), `${url}: the post carrying a muted tag`);
      if (url !== '/api/search?q=drums') assert.ok(ids.includes(quietPost.id), `${url}: the rest stays`);
    }
  });

  test('other readers and visitors see every post, and the muter again once they unmute', async () => {
    for (const url of LISTS.filter((u) => u !== '/api/search?q=drums')) {
      for (const as of [undefined, other]) {
        const ids = await idsIn(url, as);
        for (const post of [loudPost, taggedPost, quietPost]) assert.ok(ids.includes(post.id), `${url} as ${as ? 'another reader' : 'a visitor'}: ${post.id}`);
      }
    }
    const reader = await createUser(server);
    await muted(reader, `users/${loud.id}`);
    assert.ok(!(await idsIn('/api/posts', reader)).includes(loudPost.id));
    await muted(reader, `users/${loud.id}`, 'DELETE');
    assert.ok((await idsIn('/api/posts', reader)).includes(loudPost.id));
  });

  test('the totals count what the muter is shown', async () => {
    const all = (await server.api('GET', '/api/search?q=zanzibar')).body;
    const mine = (await server.api('GET', '/api/search?q=zanzibar', { token: muter.token })).body;
    assert.equal(all.total, 3);
    assert.equal(mine.total, 1);
    const everyone = (await server.api('GET', '/api/posts?hashtag=jazz&limit=1')).body.total;
    const theirs = (await server.api('GET', '/api/posts?hashtag=jazz&limit=1', { token: muter.token })).body.total;
    assert.equal(everyone - theirs, 2);
  });

  test('comments by a muted author stay in the thread, marked for the muter alone', async () => {
    const reply = await server.api('POST', `/api/posts/${quietPost.id}/comments`, { token: loud.token, json: { content: 'Loud words' } });
    assert.equal(reply.status, 201);
    const calm = await server.api('POST', `/api/posts/${quietPost.id}/comments`, { token: other.token, json: { content: 'Calm words' } });
    const marks = async (as?: TestUser) => (await server.api('GET', `/api/posts/${quietPost.id}/comments`, { token: as?.token })).body
      .map((c: any) => [c.id, c.author_muted]);
    assert.deepEqual(await marks(muter), [[reply.body.id, true], [calm.body.id, false]]);
    assert.deepEqual(await marks(other), [[reply.body.id, false], [calm.body.id, false]]);
    assert.deepEqual(await marks(), [[reply.body.id, undefined], [calm.body.id, undefined]]);
  });

  test('a muted author leaves the muter no notice of a comment or a follow; others still do', async () => {
    const own = await createPost(server, muter, { title: 'The muter writes too', hashtags: ['essay'] });
    const notices = () => sqlNumber(server.ctx.db, `SELECT count(*) FROM notifications WHERE user_id = ${muter.id}`);
    const before = await notices();
    assert.equal((await server.api('POST', `/api/posts/${own.id}/comments`, { token: loud.token, json: { content: 'Hear me' } })).status, 201);
    assert.equal((await server.api('POST', `/api/follow/${muter.id}`, { token: loud.token })).status, 200);
    assert.equal(await notices(), before, 'nothing from the muted author');
    assert.equal((await server.api('POST', `/api/posts/${own.id}/comments`, { token: quiet.token, json: { content: 'Hello' } })).status, 201);
    assert.equal(await notices(), before + 1);
    const post = await server.api('GET', `/api/posts/${own.id}`);
    assert.equal(post.body.comments_count, 2, 'the muted author\'s comment still counts');
  });
});

describe('full pages when much is muted', () => {
  test('Recent, rankings and search fill their page past the muted posts, with totals to match', async () => {
    const flood = await createUser(server);
    const kept = await createUser(server);
    const reader = await createUser(server);
    const keptIds: number[] = [];
    for (let i = 0; i < 22; i += 1) keptIds.push((await createPost(server, kept, { title: `Quokka kept number ${i}`, hashtags: ['fill'] })).id);
    const floodIds: number[] = [];
    for (let i = 0; i < 25; i += 1) floodIds.push((await createPost(server, flood, { title: `Quokka flood number ${i}`, hashtags: ['fill'] })).id);
    await muted(reader, `users/${flood.id}`);
    const newestKept = [...keptIds].reverse();

    const first = (await server.api('GET', '/api/posts?hashtag=fill&limit=10', { token: reader.token })).body;
    assert.deepEqual(first.posts.map((p: any) => p.id), newestKept.slice(0, 10));
    assert.equal(first.total, 22);
    const third = (await server.api('GET', '/api/posts?hashtag=fill&limit=10&skip=20', { token: reader.token })).body;
    assert.deepEqual(third.posts.map((p: any) => p.id), newestKept.slice(20));

    // Everything older than the kept posts came before them: Recent's ten are the newest kept.
    assert.deepEqual(await idsIn('/api/posts?limit=10', reader), newestKept.slice(0, 10));

    const ranked = await idsIn('/api/ranks?limit=10&hashtag=fill', reader);
    assert.equal(ranked.length, 10);
    assert.ok(ranked.every((id) => keptIds.includes(id)));
    const unfiltered = await idsIn('/api/ranks?limit=20', reader);
    assert.equal(unfiltered.length, 20);
    assert.ok(unfiltered.every((id) => !floodIds.includes(id)));

    const found = (await server.api('GET', '/api/search?q=quokka&limit=10', { token: reader.token })).body;
    assert.deepEqual(found.posts.map((p: any) => p.id), newestKept.slice(0, 10));
    assert.equal(found.total, 22);
    const front = await idsIn('/api/frontpage', reader);
    assert.equal(front.length, 20);
    assert.ok(front.every((id) => !floodIds.includes(id)));
  });
});

describe('the read cache', () => {
  /** A change behind the server's back (as another process would): only a cache miss shows it. */
  const retitle = (id: number, title: string) => server.ctx.db.updateTable('posts').set({ title }).where('id', '=', id).execute();
  const titleIn = async (url: string, id: number, as?: TestUser) =>
    (await server.api('GET', url, { token: as?.token })).body.posts.find((p: any) => p.id === id)?.title;

  test('a signed-in reader who muted nothing is answered from the cache, as a visitor is', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author, { title: 'Cached for everyone alike' });
    assert.equal(await titleIn('/api/posts', post.id), 'Cached for everyone alike');
    await retitle(post.id, 'Changed behind the cache');
    assert.equal(await titleIn('/api/posts', post.id, other), 'Cached for everyone alike', 'served from the cache');
    assert.equal(await titleIn('/api/posts', post.id), 'Cached for everyone alike');
  });

  test('a muter\'s list is read fresh and never stored for others', async () => {
    const author = await createUser(server);
    const loud = await createUser(server);
    const reader = await createUser(server);
    await muted(reader, `users/${loud.id}`);
    const post = await createPost(server, author, { title: 'Read fresh for the muter' });
    const loudPost = await createPost(server, loud, { title: 'Stays in the shared copy' });
    // The muter first: what they read must not become the visitors' copy.
    assert.equal(await titleIn('/api/posts', loudPost.id, reader), undefined);
    assert.equal(await titleIn('/api/posts', loudPost.id), 'Stays in the shared copy');
    await retitle(post.id, 'Retitled, seen by the muter at once');
    assert.equal(await titleIn('/api/posts', post.id, reader), 'Retitled, seen by the muter at once');
    assert.equal(await titleIn('/api/posts', post.id), 'Read fresh for the muter', 'visitors keep the cached copy');
  });
});

describe('accounts', () => {
  test('the export lists what the account muted', async () => {
    const reader = await createUser(server);
    const author = await createUser(server);
    await muted(reader, `users/${author.id}`);
    await muted(reader, 'hashtags/Bop');
    const res = await server.api('GET', '/api/users/me/export', { token: reader.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.mutes.users.map((u: any) => [u.id, u.username]), [[author.id, author.username]]);
    assert.deepEqual(res.body.mutes.hashtags.map((h: any) => h.hashtag), ['bop']);
    assert.match(res.body.mutes.users[0].muted_at, /^\d{4}-\d\d-\d\dT/);
  });

  test('deleting an account removes its mutes and the mutes of it', async () => {
    const leaving = await createUser(server);
    const staying = await createUser(server);
    const author = await createUser(server);
    await muted(leaving, `users/${author.id}`);
    await muted(leaving, 'hashtags/gone');
    await muted(staying, `users/${leaving.id}`);
    await muted(staying, `users/${author.id}`);
    const res = await server.api('DELETE', '/api/users/me', { token: leaving.token, json: { password: leaving.password } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await sqlNumber(server.ctx.db, `SELECT count(*) FROM user_mutes WHERE user_id = ${leaving.id} OR muted_user_id = ${leaving.id}`), 0);
    assert.equal(await sqlNumber(server.ctx.db, `SELECT count(*) FROM hashtag_mutes WHERE user_id = ${leaving.id}`), 0);
    assert.deepEqual((await mutes(staying)).users.map((u) => u.id), [author.id], 'the others\' other mutes stay');
  });
});
