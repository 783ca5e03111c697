// client/endpoints.ts: every endpoint the client calls, defined once — the method, address and body
// each definition builds, how parameters are encoded, that api.ts sends them as defined, and that
// no other client file writes an API address.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { transformSync } from 'esbuild';
import { ApiError, api, TOKEN_KEY } from '../../client/api.ts';
import { endpoints, formOf, withQuery, type Call } from '../../client/endpoints.ts';
import type { AdminUserChange, HashtagStat, LoginResponse, TwoFactorChallenge, Post, PostList } from '../../server/api-types.ts';
import type { Comment, RemoteFollowerList } from '../../client/types.ts';

/** What a call is, without the phantom answer type: method, address and JSON body. */
function sent(call: Call<unknown>): { method: string; url: string; json?: unknown } {
  return call.json === undefined ? { method: call.method, url: call.url } : { method: call.method, url: call.url, json: call.json };
}

const file = new File(['png'], 'cat.png', { type: 'image/png' });

// One row per endpoint: its name in `endpoints`, a call, and what that call sends.
const TABLE: Array<[string, () => Call<unknown>, ReturnType<typeof sent>]> = [
  ['auth.login', () => endpoints.auth.login({ email: 'ana@example.com', password: 'pw' }),
    { method: 'POST', url: '/api/auth/login', json: { email: 'ana@example.com', password: 'pw' } }],
  ['auth.loginTwoFactor', () => endpoints.auth.loginTwoFactor({ challenge: 'c', code: '123456' }),
    { method: 'POST', url: '/api/auth/login/2fa', json: { challenge: 'c', code: '123456' } }],
  ['auth.register', () => endpoints.auth.register({ username: 'ana', email: 'a@b.co', password: 'pw' }),
    { method: 'POST', url: '/api/auth/register', json: { username: 'ana', email: 'a@b.co', password: 'pw' } }],
  ['auth.logout', () => endpoints.auth.logout(), { method: 'POST', url: '/api/auth/logout' }],
  ['auth.logoutAll', () => endpoints.auth.logoutAll(), { method: 'POST', url: '/api/auth/logout-all' }],
  ['auth.forgotPassword', () => endpoints.auth.forgotPassword({ email: 'ana@example.com' }),
    { method: 'POST', url: '/api/auth/forgot-password', json: { email: 'ana@example.com' } }],
  ['auth.resetPassword', () => endpoints.auth.resetPassword({ token: 't0k3n', password: 'new pw', confirm_password: 'new pw' }),
    { method: 'POST', url: '/api/auth/reset-password', json: { token: 't0k3n', password: 'new pw', confirm_password: 'new pw' } }],
  ['auth.verifyEmail', () => endpoints.auth.verifyEmail({ token: 't0k3n' }),
    { method: 'POST', url: '/api/auth/verify-email', json: { token: 't0k3n' } }],
  ['auth.resendVerification', () => endpoints.auth.resendVerification(), { method: 'POST', url: '/api/auth/resend-verification' }],
  ['account.changePassword', () => endpoints.account.changePassword({ current_password: 'old pw', new_password: 'new pw', confirm_password: 'new pw' }),
    { method: 'PUT', url: '/api/users/me/password', json: { current_password: 'old pw', new_password: 'new pw', confirm_password: 'new pw' } }],
  ['account.changeEmail', () => endpoints.account.changeEmail({ email: 'new@b.co', password: 'pw' }),
    { method: 'PUT', url: '/api/users/me/email', json: { email: 'new@b.co', password: 'pw' } }],
  ['account.exportData', () => endpoints.account.exportData(), { method: 'GET', url: '/api/users/me/export' }],
  ['account.remove', () => endpoints.account.remove({ password: 'pw' }), { method: 'DELETE', url: '/api/users/me', json: { password: 'pw' } }],
  ['account.emailPreferences', () => endpoints.account.emailPreferences(), { method: 'GET', url: '/api/users/me/email-preferences' }],
  ['account.unsubscribeQuestion', () => endpoints.account.unsubscribeQuestion('1.c.x'), { method: 'GET', url: '/api/unsubscribe?token=1.c.x' }],
  ['account.unsubscribe', () => endpoints.account.unsubscribe('1.c.x'), { method: 'POST', url: '/unsubscribe?token=1.c.x' }],
  ['account.setEmailPreferences', () => endpoints.account.setEmailPreferences({ followers: true, digest: 'weekly' }),
    { method: 'PUT', url: '/api/users/me/email-preferences', json: { followers: true, digest: 'weekly' } }],
  ['account.twoFactorSetup', () => endpoints.account.twoFactorSetup({ password: 'pw' }),
    { method: 'POST', url: '/api/users/me/two-factor/setup', json: { password: 'pw' } }],
  ['account.twoFactorOn', () => endpoints.account.twoFactorOn({ code: '123456' }),
    { method: 'POST', url: '/api/users/me/two-factor', json: { code: '123456' } }],
  ['account.twoFactorOff', () => endpoints.account.twoFactorOff({ password: 'pw', recovery_code: 'abcd-efgh-jkmn-pqrs' }),
    { method: 'DELETE', url: '/api/users/me/two-factor', json: { password: 'pw', recovery_code: 'abcd-efgh-jkmn-pqrs' } }],
  ['users.me', () => endpoints.users.me(), { method: 'GET', url: '/api/users/me' }],
  ['users.myStats', () => endpoints.users.myStats(), { method: 'GET', url: '/api/users/me/stats' }],
  ['users.updateMe', () => endpoints.users.updateMe({ bio: 'Hi' }), { method: 'PUT', url: '/api/users/me' }],
  ['users.byUsername', () => endpoints.users.byUsername('Ana Lú/?#'), { method: 'GET', url: '/api/users/by-username/Ana%20L%C3%BA%2F%3F%23' }],
  ['users.one', () => endpoints.users.one(7), { method: 'GET', url: '/api/users/7' }],
  ['users.mojo', () => endpoints.users.mojo(7, { skip: 50, limit: 50 }), { method: 'GET', url: '/api/users/7/mojo?limit=50&skip=50' }],
  ['follows.follow', () => endpoints.follows.follow(3), { method: 'POST', url: '/api/follow/3' }],
  ['follows.unfollow', () => endpoints.follows.unfollow(3), { method: 'DELETE', url: '/api/follow/3' }],
  ['follows.followers', () => endpoints.follows.followers(3, { skip: 20, limit: 20 }), { method: 'GET', url: '/api/users/3/followers?limit=20&skip=20' }],
  ['follows.following', () => endpoints.follows.following(3, { skip: 0, limit: 20 }), { method: 'GET', url: '/api/users/3/following?limit=20&skip=0' }],
  ['follows.remoteFollowers', () => endpoints.follows.remoteFollowers(3, { skip: 0, limit: 20 }),
    { method: 'GET', url: '/api/users/3/remote-followers?limit=20&skip=0' }],
  ['mutes.list', () => endpoints.mutes.list(), { method: 'GET', url: '/api/users/me/mutes' }],
  ['mutes.muteUser', () => endpoints.mutes.muteUser(3), { method: 'PUT', url: '/api/users/me/mutes/users/3' }],
  ['mutes.unmuteUser', () => endpoints.mutes.unmuteUser(3), { method: 'DELETE', url: '/api/users/me/mutes/users/3' }],
  ['mutes.muteHashtag', () => endpoints.mutes.muteHashtag('#Cool jazz'), { method: 'PUT', url: '/api/users/me/mutes/hashtags/%23Cool%20jazz' }],
  ['mutes.unmuteHashtag', () => endpoints.mutes.unmuteHashtag('bop'), { method: 'DELETE', url: '/api/users/me/mutes/hashtags/bop' }],
  ['mutes.muteRemote', () => endpoints.mutes.muteRemote('@Ana@social.example'), { method: 'PUT', url: '/api/users/me/mutes/remote/Ana%40social.example' }],
  ['mutes.unmuteRemote', () => endpoints.mutes.unmuteRemote('ana@social.example'), { method: 'DELETE', url: '/api/users/me/mutes/remote/ana%40social.example' }],
  ['posts.list', () => endpoints.posts.list({ limit: 10 }), { method: 'GET', url: '/api/posts?limit=10' }],
  ['posts.byAuthor', () => endpoints.posts.byAuthor(5, { sort_by: 'best_rated', search: '', hashtag: 'jazz', time_period: '', archived: true }),
    { method: 'GET', url: '/api/users/5/posts?archived=true&hashtag=jazz&sort_by=best_rated' }],
  ['posts.one', () => endpoints.posts.one(42), { method: 'GET', url: '/api/posts/42' }],
  ['posts.rank', () => endpoints.posts.rank(42), { method: 'GET', url: '/api/posts/42/rank' }],
  ['posts.create', () => endpoints.posts.create({ title: 't', content: 'c', hashtags: ['a'] }), { method: 'POST', url: '/api/posts' }],
  ['posts.update', () => endpoints.posts.update(42, { title: 't', content: 'c', hashtags: ['a'] }), { method: 'PUT', url: '/api/posts/42' }],
  ['posts.publish', () => endpoints.posts.publish(42), { method: 'POST', url: '/api/posts/42/publish' }],
  ['posts.remove', () => endpoints.posts.remove(42), { method: 'DELETE', url: '/api/posts/42' }],
  ['posts.toggleArchive', () => endpoints.posts.toggleArchive(42), { method: 'PUT', url: '/api/posts/42/archive' }],
  ['ratings.rate', () => endpoints.ratings.rate(42, 4), { method: 'POST', url: '/api/posts/42/rate', json: { post_id: 42, rating: 4 } }],
  ['ratings.mine', () => endpoints.ratings.mine(42), { method: 'GET', url: '/api/posts/42/rating' }],
  ['comments.list', () => endpoints.comments.list(42), { method: 'GET', url: '/api/posts/42/comments' }],
  ['comments.add', () => endpoints.comments.add(42, 'Nice'), { method: 'POST', url: '/api/posts/42/comments', json: { content: 'Nice' } }],
  ['comments.edit', () => endpoints.comments.edit(9, 'Nicer'), { method: 'PUT', url: '/api/comments/9', json: { content: 'Nicer' } }],
  ['writing.preview', () => endpoints.writing.preview('**Hi**'), { method: 'POST', url: '/api/preview', json: { content: '**Hi**' } }],
  ['comments.remove', () => endpoints.comments.remove(9), { method: 'DELETE', url: '/api/comments/9' }],
  ['comments.remove', () => endpoints.comments.remove(9, 'Rude & off topic'), { method: 'DELETE', url: '/api/comments/9?reason=Rude+%26+off+topic' }],
  ['reports.create', () => endpoints.reports.create({ target_type: 'comment', target_id: 9, reason: 'off-topic', note: 'Ads' }),
    { method: 'POST', url: '/api/reports', json: { target_type: 'comment', target_id: 9, reason: 'off-topic', note: 'Ads' } }],
  ['moderation.log', () => endpoints.moderation.log({ skip: 50, limit: 50 }), { method: 'GET', url: '/api/moderation?limit=50&skip=50' }],
  ['discovery.frontpage', () => endpoints.discovery.frontpage(), { method: 'GET', url: '/api/frontpage' }],
  ['discovery.ranks', () => endpoints.discovery.ranks({ hashtag: 'jazz & blues', time_period: '7d', criteria: 'visits' }),
    { method: 'GET', url: '/api/ranks?criteria=visits&hashtag=jazz+%26+blues&time_period=7d' }],
  ['discovery.hashtags', () => endpoints.discovery.hashtags({ search: 'ja', limit: 8 }), { method: 'GET', url: '/api/hashtags?limit=8&search=ja' }],
  ['discovery.authors', () => endpoints.discovery.authors({ skip: 0, limit: 50, sort_by: 'mojo_desc', search: '' }),
    { method: 'GET', url: '/api/authors?limit=50&skip=0&sort_by=mojo_desc' }],
  ['search.posts', () => endpoints.search.posts({ q: 'café "jazz" -x', skip: 20, limit: 20 }),
    { method: 'GET', url: '/api/search?limit=20&q=caf%C3%A9+%22jazz%22+-x&skip=20' }],
  ['notifications.list', () => endpoints.notifications.list({ limit: 1, unread_only: true }), { method: 'GET', url: '/api/notifications?limit=1&unread_only=true' }],
  ['notifications.markRead', () => endpoints.notifications.markRead(11), { method: 'POST', url: '/api/notifications/11/mark-read' }],
  ['admin.stats', () => endpoints.admin.stats(), { method: 'GET', url: '/api/admin/stats' }],
  ['admin.users', () => endpoints.admin.users({ skip: 0, limit: 50, level: undefined, search: 'ana' }), { method: 'GET', url: '/api/admin/users?limit=50&search=ana&skip=0' }],
  ['admin.bannedUsers', () => endpoints.admin.bannedUsers({ skip: 50, limit: 50 }), { method: 'GET', url: '/api/admin/banned-users?limit=50&skip=50' }],
  ['admin.posts', () => endpoints.admin.posts({ skip: 0, limit: 50, search: '', status: 'archived' }), { method: 'GET', url: '/api/admin/posts?limit=50&skip=0&status=archived' }],
  ['admin.changeLevel', () => endpoints.admin.changeLevel({ user_id: 3, level: 'admin' }),
    { method: 'POST', url: '/api/admin/update-user-level', json: { user_id: 3, level: 'admin' } }],
  ['admin.ban', () => endpoints.admin.ban({ user_id: 3, ban_type: 'permanent', ban_reason: 'spam' }),
    { method: 'POST', url: '/api/admin/ban-user', json: { user_id: 3, ban_type: 'permanent', ban_reason: 'spam' } }],
  ['admin.unban', () => endpoints.admin.unban(3), { method: 'POST', url: '/api/admin/unban-user/3' }],
  ['admin.notify', () => endpoints.admin.notify({ user_id: 3, subject: 'Hi', message: 'Hello', notification_type: 'general' }),
    { method: 'POST', url: '/api/admin/send-notification', json: { user_id: 3, subject: 'Hi', message: 'Hello', notification_type: 'general' } }],
  ['admin.deletePost', () => endpoints.admin.deletePost(42, 'Off topic: spam?'), { method: 'DELETE', url: '/api/admin/delete-post/42?reason=Off+topic%3A+spam%3F' }],
  ['admin.reports', () => endpoints.admin.reports({ skip: 0, limit: 50, status: 'closed' }), { method: 'GET', url: '/api/admin/reports?limit=50&skip=0&status=closed' }],
  ['admin.dismissReports', () => endpoints.admin.dismissReports('comment', 7), { method: 'POST', url: '/api/admin/reports/comment/7/dismiss' }],
  ['system.config', () => endpoints.system.config(), { method: 'GET', url: '/api/config' }],
  ['site.info', () => endpoints.site.info(), { method: 'GET', url: '/api/site' }],
  ['site.page', () => endpoints.site.page('privacy'), { method: 'GET', url: '/api/site/pages/privacy' }],
  ['site.settings', () => endpoints.site.settings(), { method: 'GET', url: '/api/admin/site' }],
  ['site.save', () => endpoints.site.save({ name: 'The Gazette', pages: { about: '' } }),
    { method: 'PUT', url: '/api/admin/site', json: { name: 'The Gazette', pages: { about: '' } } }],
  ['registration.pending', () => endpoints.registration.pending({ skip: 0, limit: 50 }), { method: 'GET', url: '/api/admin/pending?limit=50&skip=0' }],
  ['registration.approve', () => endpoints.registration.approve(7), { method: 'POST', url: '/api/admin/pending/7/approve' }],
  ['registration.reject', () => endpoints.registration.reject(7, { reason: 'spam' }), { method: 'POST', url: '/api/admin/pending/7/reject', json: { reason: 'spam' } }],
  ['registration.invites', () => endpoints.registration.invites(), { method: 'GET', url: '/api/invites' }],
  ['registration.invite', () => endpoints.registration.invite({ uses: 2, days: 3 }), { method: 'POST', url: '/api/invites', json: { uses: 2, days: 3 } }],
  ['registration.revokeInvite', () => endpoints.registration.revokeInvite('a/b'), { method: 'DELETE', url: '/api/invites/a%2Fb' }],
  ['federation.overview', () => endpoints.federation.overview({ failures_skip: 50, limit: 50 }),
    { method: 'GET', url: '/api/admin/federation?failures_skip=50&limit=50' }],
  ['federation.blocks', () => endpoints.federation.blocks(), { method: 'GET', url: '/api/admin/federation/blocks' }],
  ['federation.block', () => endpoints.federation.block('@troll@spam.example', { reason: 'spam' }),
    { method: 'PUT', url: '/api/admin/federation/blocks/%40troll%40spam.example', json: { reason: 'spam' } }],
  ['federation.unblock', () => endpoints.federation.unblock('spam.example'), { method: 'DELETE', url: '/api/admin/federation/blocks/spam.example' }],
];

/** 'posts.list', … for every function in `endpoints`. */
function definedNames(group: object, prefix = ''): string[] {
  return Object.entries(group).flatMap(([name, entry]) =>
    typeof entry === 'function' ? [prefix + name] : definedNames(entry as object, `${prefix}${name}.`));
}

describe('endpoints: what each definition sends', () => {
  for (const [name, make, expected] of TABLE) {
    it(`${name} → ${expected.method} ${expected.url}`, () => assert.deepEqual(sent(make()), expected));
  }

  it('has a row above for every endpoint', () => {
    assert.deepEqual(definedNames(endpoints).sort(), [...new Set(TABLE.map(([name]) => name))].sort());
  });
});

describe('path segments', () => {
  const cases: Array<[number | string, string]> = [
    [42, '/api/posts/42'], ['42', '/api/posts/42'], ['12abc', '/api/posts/12abc'], ['../admin', '/api/posts/..%2Fadmin'],
    ['a b', '/api/posts/a%20b'], ['%FF', '/api/posts/%25FF'],
  ];
  for (const [id, url] of cases) it(`posts.one(${JSON.stringify(id)}) → ${url}`, () => assert.equal(endpoints.posts.one(id).url, url));
});

describe('withQuery', () => {
  const cases: Array<[string, object, string]> = [
    ['drops undefined, null and empty values', { skip: 0, limit: 20, hashtag: undefined, q: '', x: null }, '/api/posts?limit=20&skip=0'],
    ['keeps zero and false', { skip: 0, archived: false }, '/api/posts?archived=false&skip=0'],
    ['encodes text', { hashtag: 'a b&c=d/é' }, '/api/posts?hashtag=a+b%26c%3Dd%2F%C3%A9'],
    ['sorts the keys', { skip: 0, limit: 10, hashtag: 'jazz' }, '/api/posts?hashtag=jazz&limit=10&skip=0'],
    ['leaves a path without parameters alone', {}, '/api/posts'],
  ];
  for (const [name, query, url] of cases) it(name, () => assert.equal(withQuery('/api/posts', query), url));

  it('makes one address whatever the order of the parameters', () => {
    assert.equal(withQuery('/api/authors', { sort_by: 'mojo_desc', limit: 50, skip: 0 }), withQuery('/api/authors', { skip: 0, limit: 50, sort_by: 'mojo_desc' }));
  });
});

describe('formOf: multipart fields', () => {
  it('sends text as text, lists as JSON text and files with their name, in order', () => {
    const form = formOf({ title: 'T', content: 'C', hashtags: ['jazz', 'beat'], image: file });
    assert.deepEqual([...form.keys()], ['title', 'content', 'hashtags', 'image']);
    assert.equal(form.get('hashtags'), '["jazz","beat"]');
    const image = form.get('image');
    assert.ok(image instanceof File);
    assert.equal(image.name, 'cat.png');
  });

  it('leaves out absent fields, and writes flags as text', () => {
    const form = formOf({ username: undefined, bio: 'Hi', avatar: undefined, remove_avatar: true });
    assert.deepEqual([...form.entries()], [['bio', 'Hi'], ['remove_avatar', 'true']]);
  });

  it('is what the upload endpoints send', () => {
    const call = endpoints.posts.update(4, { title: 'T', content: 'C', hashtags: [], remove_image: true });
    assert.deepEqual([...call.form!.entries()], [['title', 'T'], ['content', 'C'], ['hashtags', '[]'], ['remove_image', 'true']]);
    assert.equal(call.json, undefined);
  });

  it('saves a draft, lists drafts, and publishes one as stored or with the form', () => {
    const draft = endpoints.posts.create({ title: 'T', content: '', hashtags: [], draft: true });
    assert.deepEqual([...draft.form!.entries()], [['title', 'T'], ['content', ''], ['hashtags', '[]'], ['draft', 'true']]);
    assert.equal(endpoints.posts.byAuthor(5, { status: 'draft', sort_by: 'newest' }).url, '/api/users/5/posts?sort_by=newest&status=draft');
    const withForm = endpoints.posts.publish(4, { title: 'T', content: 'C', hashtags: ['jazz'] });
    assert.deepEqual([withForm.method, withForm.url, [...withForm.form!.keys()]], ['POST', '/api/posts/4/publish', ['title', 'content', 'hashtags']]);
    assert.equal(endpoints.posts.publish(4).form, undefined);
  });
});

// Checked by the typecheck, not at run time: each api function takes its definition's parameters
// and resolves to the answer type the definition names.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const typedAnswers: Array<true> = [
  true satisfies Same<ReturnType<typeof api.posts.one>, Promise<Post>>,
  true satisfies Same<ReturnType<typeof api.posts.list>, Promise<PostList>>,
  true satisfies Same<ReturnType<typeof api.comments.list>, Promise<Comment[]>>,
  true satisfies Same<ReturnType<typeof api.follows.remoteFollowers>, Promise<RemoteFollowerList>>,
  true satisfies Same<ReturnType<typeof api.discovery.hashtags>, Promise<HashtagStat[]>>,
  true satisfies Same<ReturnType<typeof api.auth.login>, Promise<LoginResponse | TwoFactorChallenge>>,
  true satisfies Same<ReturnType<typeof api.auth.loginTwoFactor>, Promise<LoginResponse>>,
  true satisfies Same<ReturnType<typeof api.admin.ban>, Promise<AdminUserChange>>,
  true satisfies Same<Parameters<typeof api.ratings.rate>, [postId: number, rating: number]>,
];

describe('api: sends each definition through fetch', () => {
  const realFetch = globalThis.fetch;
  const requests: Array<{ url: string; init: RequestInit }> = [];
  let answer = new Response('{}');
  const stored = new Map<string, string>();

  before(() => {
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return answer;
    }) as typeof fetch;
    Object.assign(globalThis, {
      localStorage: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => stored.set(k, v), removeItem: (k: string) => stored.delete(k) },
    });
  });
  after(() => {
    globalThis.fetch = realFetch;
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  it('sends JSON with the Bearer token and resolves to the answer', async () => {
    stored.set(TOKEN_KEY, 'tok');
    answer = new Response(JSON.stringify({ id: 42, average_rating: 4 }), { status: 200 });
    const rated = await api.ratings.rate(42, 4);
    assert.deepEqual(rated, { id: 42, average_rating: 4 });
    const { url, init } = requests.at(-1)!;
    assert.equal(url, '/api/posts/42/rate');
    assert.equal(init.method, 'POST');
    assert.deepEqual(init.headers, { Accept: 'application/json', Authorization: 'Bearer tok', 'Content-Type': 'application/json' });
    assert.equal(init.body, JSON.stringify({ post_id: 42, rating: 4 }));
  });

  it('sends a form as multipart, leaving the boundary to fetch', async () => {
    stored.set(TOKEN_KEY, 'tok');
    answer = new Response(JSON.stringify({ id: 1 }), { status: 201 });
    await api.posts.create({ title: 'T', content: 'C', hashtags: ['jazz'], image: file });
    const { url, init } = requests.at(-1)!;
    assert.equal(url, '/api/posts');
    assert.ok(init.body instanceof FormData);
    assert.equal((init.headers as Record<string, string>)['Content-Type'], undefined);
    assert.equal((init.body.get('image') as File).name, 'cat.png');
  });

  it('reads without a token when signed out, passing the abort signal on', async () => {
    stored.clear();
    answer = new Response(JSON.stringify({ notifications: [], total: 0, unread_count: 0 }));
    const controller = new AbortController();
    await api.notifications.list({ unread_only: true }, controller.signal);
    const { url, init } = requests.at(-1)!;
    assert.equal(url, '/api/notifications?unread_only=true');
    assert.equal(init.method, 'GET');
    assert.deepEqual(init.headers, { Accept: 'application/json' });
    assert.equal(init.signal, controller.signal);
  });

  it("turns an error into ApiError with the server's detail", async () => {
    stored.set(TOKEN_KEY, 'tok');
    answer = new Response(JSON.stringify({ detail: 'You cannot rate your own articles' }), { status: 403 });
    await assert.rejects(api.ratings.rate(42, 5), (error) =>
      error instanceof ApiError && error.status === 403 && error.detail === 'You cannot rate your own articles');
    assert.equal(stored.get(TOKEN_KEY), 'tok', 'a 403 that is not a ban keeps the session');
  });
});

describe('one definition: no other client file writes an API address', () => {
  const clientDir = fileURLToPath(new URL('../../client', import.meta.url));
  const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(path.join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [path.join(dir, entry.name)] : []);
  // '/api' then a slash, a quote, '?' or the end: an address, not an import of api.ts or api-types.ts.
  const address = /\/api(?![\w.-])/g;
  /** The addresses a file writes in code: comments are dropped first (esbuild keeps none). */
  const addressesIn = (file: string) =>
    transformSync(readFileSync(file, 'utf8'), { loader: file.endsWith('x') ? 'tsx' : 'ts', legalComments: 'none' }).code.match(address) ?? [];

  it('finds the addresses of endpoints.ts (the check can see them)', () => {
    assert.ok(addressesIn(path.join(clientDir, 'endpoints.ts')).length >= TABLE.length);
  });

  it('finds none anywhere else in client/', () => {
    const offenders = sources(clientDir).filter((file) => !file.endsWith(`${path.sep}endpoints.ts`) && addressesIn(file).length > 0);
    assert.deepEqual(offenders.map((file) => path.relative(clientDir, file)), []);
  });
});
