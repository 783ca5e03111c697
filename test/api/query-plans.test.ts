// Every list query is index-backed: each SELECT the list endpoints run is explained. No plan may
// read a whole table without an index; lists over the whole site may not sort in a temporary
// B-tree either (that sorts every row). Lists narrowed first by author, tag or post may sort
// their small set.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CompiledQuery } from 'kysely';
import { dialectOf } from '../../server/db.ts';
import { digestReaderIds, followedAuthorsArticles } from '../../server/digest/digest.repo.ts';
import { countQueuedJobs } from '../../server/jobs/jobs.service.ts';
import { claimDueJobs } from '../../server/jobs/jobs.repo.ts';
import { listAuthorEntries, listPostEntries } from '../../server/sitemap/sitemap.repo.ts';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { findUserByUsernameSkeleton } from '../../server/users/users.repo.ts';
import { listArticleTimesSince, listCommentTimesSince } from '../../server/new-accounts/new-accounts.repo.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { explain, type ExplainOptions, type PlanStep, type QueryPlan } from '../query-plan.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let ana: TestUser;
let admin: TestUser;
/** Muted ana and #jazz: their lists leave those out in the query. */
let muter: TestUser;
const captured: CompiledQuery[] = [];

before(async () => {
  server = await startTestServer();
  ana = await createUser(server);
  admin = await createAdmin(server);
  muter = await createUser(server);
  const post = await createPost(server, ana, { hashtags: ['jazz'] });
  const comment = await server.api('POST', `/api/posts/${post.id}/comments`, { token: admin.token, json: { content: 'hi' } });
  // Reports open and closed, and a moderation log to read.
  await server.api('POST', '/api/reports', { token: admin.token, json: { target_type: 'post', target_id: post.id, reason: 'spam' } });
  await server.api('POST', '/api/reports', { token: ana.token, json: { target_type: 'comment', target_id: comment.body.id, reason: 'other', note: 'n' } });
  await server.api('POST', `/api/admin/reports/comment/${comment.body.id}/dismiss`, { token: admin.token });
  await server.api('POST', '/api/admin/update-user-level', { token: admin.token, json: { user_id: ana.id, level: 'admin' } });
  await server.api('POST', '/api/admin/update-user-level', { token: admin.token, json: { user_id: ana.id, level: 'user' } });
  await server.api('PUT', `/api/users/me/mutes/users/${ana.id}`, { token: muter.token });
  await server.api('PUT', '/api/users/me/mutes/hashtags/jazz', { token: muter.token });
  // An account waiting for approval, and an invitation out.
  const waiting = await createUser(server);
  await server.ctx.db.updateTable('users').set({ pending: 1 }).where('id', '=', waiting.id).execute();
  await server.api('POST', '/api/invites', { token: admin.token, json: {} });
  await recomputeRanks(server.ctx.db); // the article gets its place on The Pulse (GET /api/posts/1/rank)
  // Capture what the app runs: the app's handle with a plugin that records each query compiled.
  const executor = server.ctx.db.getExecutor();
  (server.ctx as { db: unknown }).db = server.ctx.db.withPlugin({
    transformQuery(args) {
      captured.push(executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
});
after(async () => { await server.stop(); });

/** A statement compiled once (server/prepared-query.ts) holds placeholders; any value plans alike. */
const bindable = (value: unknown) => (value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? 1 : value);

function plan(query: CompiledQuery, options: ExplainOptions = {}): Promise<QueryPlan> {
  return explain(server.ctx.db, { sql: query.sql, parameters: query.parameters.map(bindable) }, options);
}

const TABLES = ['users', 'posts', 'hashtags', 'post_hashtags', 'ratings', 'comments', 'follows',
  'notifications', 'post_visits', 'post_ranks', 'rank_refresh', 'moderation_log', 'post_search', 'post_search_fts', 'reports',
  'user_mutes', 'hashtag_mutes', 'mojo_events', 'invites', 'remote_actors', 'remote_followers', 'user_remote_mutes', 'post_reactions'];

/** Steps that read every row of a table: a scan, or for post_hashtags even a walk of its index. */
function fullScans(found: QueryPlan): PlanStep[] {
  return found.steps.filter((step) => TABLES.includes(step.table)
    && (step.access === 'scan' || (step.access === 'walk' && step.table === 'post_hashtags')));
}

type Sorting = 'no sort' | 'small sort';
const LISTS: Array<[string, Sorting, () => string, (() => string | undefined)?]> = [
  ['newest posts', 'no sort', () => '/api/posts'],
  ['posts by hashtag', 'small sort', () => '/api/posts?hashtag=jazz'],
  ['front page', 'no sort', () => '/api/frontpage'],
  ['ranks', 'no sort', () => '/api/ranks'],
  ['ranks by visits', 'no sort', () => '/api/ranks?criteria=visits'],
  ['ranks of the week', 'no sort', () => '/api/ranks?time_period=7d'],
  ['ranks by hashtag', 'small sort', () => '/api/ranks?hashtag=ja'],
  ['hashtags', 'no sort', () => '/api/hashtags'],
  ['authors by mojo', 'no sort', () => '/api/authors'],
  ['authors by posts', 'no sort', () => '/api/authors?sort_by=posts_asc'],
  ['authors by rating', 'no sort', () => '/api/authors?sort_by=rating_desc'],
  ["an author's posts", 'no sort', () => `/api/users/${ana.id}/posts`],
  ["an author's posts by visits", 'small sort', () => `/api/users/${ana.id}/posts?sort_by=most_visited&search=x`],
  ["an author's posts by rating", 'small sort', () => `/api/users/${ana.id}/posts?sort_by=lowest_rated`],
  ["an author's posts of a tag", 'small sort', () => `/api/users/${ana.id}/posts?hashtag=jazz&time_period=7d`],
  ["an author's drafts", 'no sort', () => `/api/users/${ana.id}/posts?status=draft`, () => ana.token],
  ["an author's drafts by rating", 'small sort', () => `/api/users/${ana.id}/posts?status=draft&sort_by=best_rated`, () => ana.token],
  ['comments', 'no sort', () => '/api/posts/1/comments'],
  // The histogram groups the article's own ratings, found by the primary key.
  ['an article with its rating histogram', 'small sort', () => '/api/posts/1'],
  ['an article\'s rank', 'no sort', () => '/api/posts/1/rank'],
  ['admin posts', 'no sort', () => '/api/admin/posts', () => admin.token],
  ['admin posts, active', 'no sort', () => '/api/admin/posts?status=active', () => admin.token],
  ['admin posts, archived', 'no sort', () => '/api/admin/posts?status=archived', () => admin.token],
  ['my stats', 'no sort', () => '/api/users/me/stats', () => ana.token],
  ['my data export', 'small sort', () => '/api/users/me/export', () => ana.token],
  ['the moderation log', 'no sort', () => '/api/moderation'],
  ["an author's mojo ledger", 'no sort', () => `/api/users/${ana.id}/mojo`],
  // A muter's lists: the same walks, each post checked against the mutes by key.
  ['newest posts, muted', 'no sort', () => '/api/posts', () => muter.token],
  ['posts by hashtag, muted', 'small sort', () => '/api/posts?hashtag=jazz', () => muter.token],
  ['front page, muted', 'no sort', () => '/api/frontpage', () => muter.token],
  ['ranks, muted', 'no sort', () => '/api/ranks', () => muter.token],
  ['ranks by visits, muted', 'no sort', () => '/api/ranks?criteria=visits', () => muter.token],
  ['ranks of the week, muted', 'no sort', () => '/api/ranks?time_period=7d', () => muter.token],
  ['ranks by hashtag, muted', 'small sort', () => '/api/ranks?hashtag=ja', () => muter.token],
  ['comments, muted', 'no sort', () => '/api/posts/1/comments', () => muter.token],
  ['my mutes', 'small sort', () => '/api/users/me/mutes', () => muter.token],
  // The fediverse (migration 0022): followers elsewhere walk remote_followers_user_created, newest
  // first; ties of the same instant are put in order among themselves.
  ["an author's followers elsewhere", 'small sort', () => `/api/users/${ana.id}/remote-followers`],
  // Grouped, then ordered by how many reports a target has: the open ones are a small set.
  ['open reports', 'small sort', () => '/api/admin/reports', () => admin.token],
  ['closed reports', 'small sort', () => '/api/admin/reports?status=closed', () => admin.token],
  ['the site feed', 'no sort', () => '/feed.xml'],
  ["an author's feed", 'no sort', () => `/beatnik/${ana.username}/feed.atom`],
  ["a hashtag's feed", 'small sort', () => '/hashtag/jazz/feed.json'],
  ['the sitemap', 'no sort', () => '/sitemap.xml'],
  // Who may join (migration 0019): the accounts waiting, oldest first; the live invitations.
  ['accounts waiting for approval', 'no sort', () => '/api/admin/pending', () => admin.token],
  ['live invitations', 'no sort', () => '/api/invites', () => admin.token],
];

for (const [name, sorting, url, token] of LISTS) {
  test(`${name}: index-backed`, async () => {
    captured.length = 0;
    server.ctx.readCache?.invalidate(); // a cached answer runs no query to explain
    const res = await server.api('GET', url(), { token: token?.() });
    assert.equal(res.status, 200);
    const selects = captured.filter((q) => /^\s*select/i.test(q.sql));
    assert.ok(selects.length > 0);
    for (const query of selects) {
      const found = await plan(query, { allowSort: sorting === 'small sort' });
      assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
      if (sorting === 'no sort') assert.equal(found.sorts, false, `sorts every row:\n${query.sql}\n${found.text}`);
    }
  });
}

test('search: the full-text index answers each of its queries, and the posts are read by key', async () => {
  await createPost(server, ana, { title: 'Planning the search of the plans', content: `${'A plan of the plain planet. '.repeat(8)}` });
  // One the muter still finds: neither by ana nor under #jazz.
  await createPost(server, admin, { title: 'A desk writes to a muted reader', hashtags: ['essay'] });
  // A title match, then a page past it of matches elsewhere (the factory's article says "The quick…").
  for (const [url, token] of [['/api/search?q=plan'], ['/api/search?q=the&skip=1&limit=2'], ['/api/search?q=desk', muter.token]]) {
    captured.length = 0;
    server.ctx.readCache?.invalidate();
    const res = await server.api('GET', url!, { token });
    assert.equal(res.status, 200);
    assert.ok(res.body.total > 0);
    const selects = captured.filter((q) => /^\s*(select|with)/i.test(q.sql));
    const searches = selects.filter((q) => /post_search/.test(q.sql));
    // SQLite counts all the matches and the title matches apart; PostgreSQL in one pass.
    assert.equal(searches.length, dialectOf(server.ctx.db) === 'sqlite' ? 3 : 2, `the counts and a page: ${url} ${searches.map((q) => q.sql).join('\n')}`);
    for (const query of selects) {
      // The matches' ids are sorted once found (PostgreSQL may walk the key from the top instead).
      const found = await plan(query, { allowSort: true, allowBitmap: true });
      assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
      if (searches.includes(query)) {
        const byIndex = found.steps.some((step) => step.access === 'search' && /post_search/.test(step.table));
        const fromTheTop = found.steps.some((step) => step.table === 'post_search' && step.access === 'walk') && !found.sorts;
        assert.ok(byIndex || (fromTheTop && /LIMIT/i.test(query.sql)), `${query.sql}\n${found.text}`);
      } else {
        assert.ok(found.steps.every((step) => step.access === 'search'), `${query.sql}\n${found.text}`);
      }
      // FTS5 hands its matches over in the order asked: SQLite sorts nothing.
      if (dialectOf(server.ctx.db) === 'sqlite') assert.equal(found.sorts, false, found.text);
    }
  }
});

test("a new account's brakes count its last hour by the author's index", async () => {
  captured.length = 0;
  const since = new Date(Date.now() - 3_600_000).toISOString();
  await listArticleTimesSince(server.ctx.db, ana.id, since, 2);
  await listCommentTimesSince(server.ctx.db, ana.id, since, 10);
  const queries = captured.slice();
  assert.equal(queries.length, 2);
  for (const query of queries) {
    const found = await plan(query, { allowSort: true });
    assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
  }
});

test('the look-alike username check searches its expression index', async () => {
  captured.length = 0;
  await findUserByUsernameSkeleton(server.ctx.db, 'johndoe', 1);
  const found = await plan(captured[0]!);
  assert.ok(found.steps.some((s) => s.index === 'users_username_skeleton'), found.text);
});

test('each further chunk of a sitemap file resumes through its index, with no sort', async () => {
  captured.length = 0;
  await listAuthorEntries(server.ctx.db, { after: { id: 9, posts_count: 2, username: 'x', lastmod: null } }, 10);
  await listPostEntries(server.ctx.db, { after: { id: 9, created_at: '2026-01-01T00:00:00.000Z', updated_at: '' } }, 10);
  const queries = captured.slice(); // explaining on PostgreSQL runs (and captures) statements of its own
  assert.equal(queries.length, 2);
  for (const query of queries) {
    const found = await plan(query);
    assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
    assert.equal(found.sorts, false, `${query.sql}\n${found.text}`);
  }
});

test("deleting an account reads what it gave by index: no table read whole", async () => {
  const leaving = await createUser(server);
  const post = await createPost(server, ana, { hashtags: ['jazz'] });
  await createPost(server, leaving, { hashtags: ['jazz'] });
  await server.api('POST', `/api/posts/${post.id}/rate`, { token: leaving.token, json: { rating: 4 } });
  await server.api('POST', `/api/posts/${post.id}/comments`, { token: leaving.token, json: { content: 'bye' } });
  await server.api('POST', `/api/follow/${ana.id}`, { token: leaving.token });
  captured.length = 0;
  const res = await server.api('DELETE', '/api/users/me', { token: leaving.token, json: { password: leaving.password } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const selects = captured.filter((q) => /^\s*select/i.test(q.sql));
  assert.ok(selects.length >= 5, selects.map((q) => q.sql).join('\n'));
  for (const query of selects) {
    const found = await plan(query, { allowSort: true });
    assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
  }
});

test('the weekly digest: its readers by their own index, their followed authors\' articles by author', async () => {
  captured.length = 0;
  const now = new Date().toISOString();
  await digestReaderIds(server.ctx.db, now, 0, 500);
  await followedAuthorsArticles(server.ctx.db, muter.id, new Date(Date.now() - 7 * 86_400_000).toISOString(), 10);
  // A copy: explaining runs queries of its own, which the plugin captures too.
  const queries = [...captured];
  assert.equal(queries.length, 2);
  for (const query of queries) {
    const found = await plan(query, { allowSort: true });
    assert.deepEqual(fullScans(found), [], `${query.sql}\n${found.text}`);
  }
});

test('a scrape\'s queue depths read the jobs table through jobs_due, by state', async () => {
  captured.length = 0;
  await countQueuedJobs(server.ctx.db);
  const [query] = [...captured];
  const found = await plan(query!, { allowSort: true });
  assert.deepEqual(found.steps.filter((step) => step.table === 'jobs'), [{ table: 'jobs', access: 'search', index: 'jobs_due' }], `${query!.sql}\n${found.text}`);
});

test('a runner claims its own queue\'s due jobs through jobs_queue_due, never walking the other queue\'s', async () => {
  captured.length = 0;
  const now = new Date();
  // The abandoned ones are looked for only when the waiting ones do not fill the batch: none here.
  await claimDueJobs(server.ctx.db, 'federation', now, new Date(now.getTime() + 60_000), 20);
  const queries = [...captured].filter((query) => query.sql.startsWith('select'));
  assert.equal(queries.length, 2, 'the waiting ones, then the abandoned');
  for (const query of queries) {
    const found = await plan(query, { allowSort: false });
    assert.deepEqual(found.steps.filter((step) => step.table === 'jobs'), [{ table: 'jobs', access: 'search', index: 'jobs_queue_due' }], `${query.sql}\n${found.text}`);
  }
});
