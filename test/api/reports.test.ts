// Reports (DESIGN.md, Reports): a reader reports an article or a comment once, never their own;
// the admin tab groups the open ones per target; dismissing, deleting the content or banning its
// author closes every open report on it and tells each reporter; content that goes otherwise
// closes its reports quietly. Bad input changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAdmin, createUser, multipart, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let admin: TestUser;
let author: TestUser;
let readers: TestUser[];

before(async () => {
  server = await startTestServer();
  admin = await createAdmin(server, { username: `desk${process.pid}` });
  author = await createUser(server);
  readers = [await createUser(server), await createUser(server), await createUser(server)];
});
after(async () => { await server.stop(); });

const report = (as: TestUser, json: unknown) => server.api('POST', '/api/reports', { token: as.token, json });
const reportsOn = (type: string, id: number) => server.ctx.db.selectFrom('reports').selectAll()
  .where('target_type', '=', type as 'post').where('target_id', '=', id).orderBy('id').execute();
const noticesOf = (user: TestUser) => server.ctx.db.selectFrom('notifications').selectAll()
  .where('user_id', '=', user.id).where('type', '=', 'report_closed').orderBy('id').execute();
const openGroups = async (query = '') => {
  const res = await server.api('GET', `/api/admin/reports${query}`, { token: admin.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { reports: any[]; total: number };
};
const groupOf = (list: { reports: any[] }, type: string, id: number) => list.reports.find((g) => g.target_type === type && g.target_id === id);

async function commentOn(postId: number, by: TestUser, content = 'A word from the back row.') {
  const res = await server.api('POST', `/api/posts/${postId}/comments`, { token: by.token, json: { content } });
  assert.equal(res.status, 201);
  return res.body;
}

/** Everything a report could have changed. */
async function reportsAndNotices() {
  return JSON.stringify([
    await server.ctx.db.selectFrom('reports').selectAll().orderBy('id').execute(),
    await server.ctx.db.selectFrom('notifications').selectAll().orderBy('id').execute(),
  ]);
}

describe('POST /api/reports', () => {
  test('a reader reports an article or a comment: 201, stored open with its author', async () => {
    const post = await createPost(server, author);
    const res = await report(readers[0]!, { target_type: 'post', target_id: post.id, reason: 'spam', note: '  Sells watches.\r\nTwice.  ' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual({ ...res.body, id: 0, created_at: '' }, {
      id: 0, target_type: 'post', target_id: post.id, reason: 'spam', note: 'Sells watches.\nTwice.', status: 'open', created_at: '',
    });
    const [row] = await reportsOn('post', post.id);
    assert.equal(row!.id, res.body.id);
    assert.deepEqual([row!.reporter_id, row!.target_author_id, row!.status, row!.resolution, row!.created_at],
      [readers[0]!.id, author.id, 'open', null, res.body.created_at]);

    const comment = await commentOn(post.id, readers[1]!);
    const onComment = await report(readers[0]!, { target_type: 'comment', target_id: String(comment.id), reason: 'harassment' });
    assert.equal(onComment.status, 201, JSON.stringify(onComment.body));
    assert.equal(onComment.body.note, '');
    assert.equal((await reportsOn('comment', comment.id))[0]!.target_author_id, readers[1]!.id);
    // An admin reports as anyone does.
    assert.equal((await report(admin, { target_type: 'comment', target_id: comment.id, reason: 'other' })).status, 201);
  });

  test('a note of exactly 500 characters is taken; a line ending counts as one', async () => {
    const post = await createPost(server, author);
    const note = `${'x'.repeat(498)}\r\ny`;
    const res = await report(readers[2]!, { target_type: 'post', target_id: post.id, reason: 'other', note });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.note.length, 500);
  });

  test('bad input, duplicates, own content and missing or archived targets are refused and change nothing', async () => {
    const post = await createPost(server, author);
    const archived = await createPost(server, author);
    const comment = await commentOn(post.id, readers[1]!);
    const onArchived = await commentOn(archived.id, readers[1]!);
    assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token })).status, 200);
    const deleted = await createPost(server, author);
    assert.equal((await server.api('DELETE', `/api/posts/${deleted.id}`, { token: author.token })).status, 200);
    const draft = await server.api('POST', '/api/posts', { token: author.token, body: multipart({ title: 'A draft nobody may see yet', draft: 'true' }) });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    assert.equal((await report(readers[0]!, { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);

    const onPost = { target_type: 'post', target_id: post.id };
    const cases: Array<[string, TestUser, unknown, number, string]> = [
      ['an unknown reason', readers[1]!, { ...onPost, reason: 'boring' }, 400, 'Please choose a reason: spam, harassment, off-topic or other'],
      ['no reason', readers[1]!, onPost, 400, 'Please choose a reason: spam, harassment, off-topic or other'],
      ['a reason in capitals', readers[1]!, { ...onPost, reason: 'SPAM' }, 400, 'Please choose a reason: spam, harassment, off-topic or other'],
      ['a note over 500 characters', readers[1]!, { ...onPost, reason: 'spam', note: 'n'.repeat(501) }, 400, 'The note cannot exceed 500 characters'],
      ['a note that is not text', readers[1]!, { ...onPost, reason: 'spam', note: 42 }, 400, 'note must be text'],
      ['an unknown target type', readers[1]!, { target_type: 'user', target_id: author.id, reason: 'spam' }, 400, "target_type must be 'post' or 'comment'"],
      ['no target id', readers[1]!, { target_type: 'post', reason: 'spam' }, 400, 'target_id must be a positive integer'],
      ['a target id of 0', readers[1]!, { target_type: 'post', target_id: 0, reason: 'spam' }, 400, 'target_id must be a positive integer'],
      ['a fractional target id', readers[1]!, { target_type: 'post', target_id: 1.5, reason: 'spam' }, 400, 'target_id must be a positive integer'],
      ['a second open report', readers[0]!, { ...onPost, reason: 'harassment', note: 'again' }, 409, 'You have already reported this'],
      ['one\'s own article', author, { ...onPost, reason: 'spam' }, 403, 'You cannot report your own content'],
      ['one\'s own comment', readers[1]!, { target_type: 'comment', target_id: comment.id, reason: 'spam' }, 403, 'You cannot report your own content'],
      ['a missing article', readers[1]!, { target_type: 'post', target_id: 987654, reason: 'spam' }, 404, 'Article not found'],
      ['a deleted article', readers[1]!, { target_type: 'post', target_id: deleted.id, reason: 'spam' }, 404, 'Article not found'],
      ['an archived article', readers[1]!, { target_type: 'post', target_id: archived.id, reason: 'spam' }, 404, 'Article not found'],
      ['a draft', readers[1]!, { target_type: 'post', target_id: draft.body.id, reason: 'spam' }, 404, 'Article not found'],
      ['a missing comment', readers[1]!, { target_type: 'comment', target_id: 987654, reason: 'spam' }, 404, 'Comment not found'],
      ['a comment on an archived article', readers[0]!, { target_type: 'comment', target_id: onArchived.id, reason: 'spam' }, 404, 'Comment not found'],
      ['no body at all', readers[1]!, undefined, 400, "target_type must be 'post' or 'comment'"],
    ];
    for (const [name, as, body, status, detail] of cases) {
      const before = await reportsAndNotices();
      const res = await report(as, body);
      assert.deepEqual([res.status, res.body], [status, { detail }], name);
      assert.equal(await reportsAndNotices(), before, `${name}: nothing changed`);
    }
    const anonymous = await server.api('POST', '/api/reports', { json: { ...onPost, reason: 'spam' } });
    assert.deepEqual([anonymous.status, anonymous.body], [401, { detail: 'You must sign in to report content' }]);
  });
});

describe('GET /api/admin/reports', () => {
  test('open reports grouped per target: preview, author, reasons, count, first and last time, notes; most reported first', async () => {
    const title = 'The most reported article of the week';
    const post = await createPost(server, author, { title, content: `${'A long sentence about nothing much. '.repeat(20)}The end.` });
    const comment = await commentOn(post.id, readers[2]!, 'Buy cheap watches at my shop, best prices in town.');
    const made: any[] = [];
    for (const [as, reason, note] of [[readers[0]!, 'spam', 'Ads'], [readers[1]!, 'spam', ''], [admin, 'off-topic', 'Not about jazz']] as const) {
      const res = await report(as, { target_type: 'post', target_id: post.id, reason, note });
      assert.equal(res.status, 201);
      made.push(res.body);
    }
    assert.equal((await report(readers[0]!, { target_type: 'comment', target_id: comment.id, reason: 'spam', note: 'Watches' })).status, 201);
    assert.equal((await report(readers[1]!, { target_type: 'comment', target_id: comment.id, reason: 'spam' })).status, 201);

    const list = await openGroups('?limit=100');
    assert.equal(list.total, list.reports.length);
    const group = groupOf(list, 'post', post.id);
    assert.deepEqual(group, {
      id: made[0].id, target_type: 'post', target_id: post.id, status: 'open', count: 3,
      first_reported_at: made[0].created_at, last_reported_at: made[2].created_at,
      reasons: [{ reason: 'spam', count: 2 }, { reason: 'off-topic', count: 1 }],
      notes: [{ reason: 'off-topic', note: 'Not about jazz', created_at: made[2].created_at }, { reason: 'spam', note: 'Ads', created_at: made[0].created_at }],
      content: { post_id: post.id, post_title: title, excerpt: group.content.excerpt, archived: false },
      author: { id: author.id, username: author.username, level: 'user' },
      resolution: null, closed_at: null, closed_by: null,
    });
    assert.ok(group.content.excerpt.endsWith('…') && group.content.excerpt.length <= 300, group.content.excerpt);
    const onComment = groupOf(list, 'comment', comment.id);
    assert.equal(onComment.count, 2);
    assert.deepEqual(onComment.content, { post_id: post.id, post_title: title, excerpt: 'Buy cheap watches at my shop, best prices in town.', archived: false });
    assert.equal(onComment.author.username, readers[2]!.username);
    const counts = list.reports.map((g) => g.count);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a), 'most reported first');
    const text = JSON.stringify(list);
    for (const reporter of [...readers, admin]) assert.ok(!text.includes(reporter.email), 'no email');
    assert.ok(!text.includes('reporter'), 'who reported is not shown');

    const paged = await openGroups('?limit=1&skip=1');
    assert.deepEqual(paged.reports.map((g) => g.id), [list.reports[1].id]);
    assert.equal(paged.total, list.total);
    const bad = await server.api('GET', '/api/admin/reports?status=pending', { token: admin.token });
    assert.deepEqual([bad.status, bad.body], [400, { detail: 'status must be one of: open, closed' }]);
  });
});

describe('resolutions', () => {
  test('dismiss closes every open report on the target and tells each reporter; they may report again', async () => {
    const post = await createPost(server, author, { title: 'An article two readers disliked' });
    for (const as of [readers[0]!, readers[1]!]) assert.equal((await report(as, { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);
    const other = await createPost(server, author);
    assert.equal((await report(readers[0]!, { target_type: 'post', target_id: other.id, reason: 'spam' })).status, 201);
    const before = await noticesOf(readers[0]!);

    const res = await server.api('POST', `/api/admin/reports/post/${post.id}/dismiss`, { token: admin.token });
    assert.deepEqual([res.status, res.body], [200, { message: 'Reports dismissed', closed: 2 }]);
    const rows = await reportsOn('post', post.id);
    assert.deepEqual(rows.map((r) => [r.status, r.resolution, r.closed_by]), [['closed', 'dismissed', admin.id], ['closed', 'dismissed', admin.id]]);
    assert.equal(rows[0]!.closed_at, rows[1]!.closed_at, 'one act, one moment');
    assert.equal((await reportsOn('post', other.id))[0]!.status, 'open', 'other targets stay open');
    for (const reader of [readers[0]!, readers[1]!]) {
      const notice = (await noticesOf(reader)).at(-1)!;
      assert.deepEqual([notice.subject, notice.message, notice.post_id, notice.post_title, notice.created_by], [
        'Your report was reviewed',
        'An administrator reviewed your report of the article "An article two readers disliked" and found nothing against the rules. It stays up.',
        post.id, post.title, admin.username,
      ]);
    }
    assert.equal((await noticesOf(readers[0]!)).length, before.length + 1);
    assert.equal(groupOf(await openGroups('?limit=100'), 'post', post.id), undefined);
    const closed = groupOf(await openGroups('?status=closed&limit=100'), 'post', post.id);
    assert.deepEqual([closed.status, closed.count, closed.resolution, closed.closed_by, closed.closed_at],
      ['closed', 2, 'dismissed', admin.username, rows[0]!.closed_at]);

    const again = await server.api('POST', `/api/admin/reports/post/${post.id}/dismiss`, { token: admin.token });
    assert.deepEqual([again.status, again.body], [404, { detail: 'There are no open reports on this' }]);
    for (const path of [`user/${author.id}`, 'post/0', 'post/abc', 'comment/987654']) {
      assert.equal((await server.api('POST', `/api/admin/reports/${path}/dismiss`, { token: admin.token })).status, 404, path);
    }
    assert.equal((await report(readers[0]!, { target_type: 'post', target_id: post.id, reason: 'other', note: 'Still bad' })).status, 201,
      'a dismissed report leaves room for a new one');
  });

  test('deleting the article through the admin action closes its reports, tells the reporters, and its comments\' reports close quietly', async () => {
    const post = await createPost(server, author, { title: 'An article the desk removed' });
    const comment = await commentOn(post.id, readers[2]!);
    assert.equal((await report(readers[0]!, { target_type: 'post', target_id: post.id, reason: 'harassment' })).status, 201);
    assert.equal((await report(readers[1]!, { target_type: 'comment', target_id: comment.id, reason: 'spam' })).status, 201);
    const quietBefore = (await noticesOf(readers[1]!)).length;

    const res = await server.api('DELETE', `/api/admin/delete-post/${post.id}?reason=Harassment`, { token: admin.token });
    assert.equal(res.status, 200);
    assert.deepEqual((await reportsOn('post', post.id)).map((r) => [r.status, r.resolution, r.closed_by]), [['closed', 'deleted', admin.id]]);
    const notice = (await noticesOf(readers[0]!)).at(-1)!;
    assert.deepEqual([notice.subject, notice.message, notice.post_id, notice.post_title], [
      'Your report was acted on', 'An administrator removed the article "An article the desk removed", which you reported. Thank you for telling us.',
      null, post.title,
    ]);
    assert.deepEqual((await reportsOn('comment', comment.id)).map((r) => [r.status, r.resolution, r.closed_by]), [['closed', 'removed', null]]);
    assert.equal((await noticesOf(readers[1]!)).length, quietBefore, 'content gone with its article: no notice');
  });

  test('an admin deleting a comment gives a reason: its reports close, the reporters and the author are told', async () => {
    const post = await createPost(server, author, { title: 'An article with a rude letter' });
    const comment = await commentOn(post.id, readers[2]!, 'You are all fools.');
    assert.equal((await report(readers[0]!, { target_type: 'comment', target_id: comment.id, reason: 'harassment' })).status, 201);

    const before = await reportsAndNotices();
    const noReason = await server.api('DELETE', `/api/comments/${comment.id}`, { token: admin.token });
    assert.deepEqual([noReason.status, noReason.body], [400, { detail: 'Please enter a reason for deleting the comment' }]);
    const tooLong = await server.api('DELETE', `/api/comments/${comment.id}?reason=${'r'.repeat(501)}`, { token: admin.token });
    assert.deepEqual([tooLong.status, tooLong.body], [400, { detail: 'The reason cannot exceed 500 characters' }]);
    assert.equal(await reportsAndNotices(), before);

    const res = await server.api('DELETE', `/api/comments/${comment.id}?reason=Insults`, { token: admin.token });
    assert.equal(res.status, 200);
    assert.deepEqual((await reportsOn('comment', comment.id)).map((r) => [r.status, r.resolution]), [['closed', 'deleted']]);
    const notice = (await noticesOf(readers[0]!)).at(-1)!;
    assert.deepEqual([notice.message, notice.post_id], [
      'An administrator removed a comment on "An article with a rude letter", which you reported. Thank you for telling us.', post.id,
    ]);
    const told = await server.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', readers[2]!.id)
      .where('type', '=', 'comment_deleted').executeTakeFirstOrThrow();
    assert.deepEqual([told.subject, told.message, told.post_id, told.created_by], [
      'Your comment was removed', 'An administrator removed your comment on "An article with a rude letter". Reason: Insults', post.id, admin.username,
    ]);
    const post2 = (await server.api('GET', `/api/posts/${post.id}`)).body;
    assert.equal(post2.comments_count, 0);
  });

  test('banning the author closes the open reports on everything they wrote, and tells each reporter', async () => {
    const troll = await createUser(server);
    const post = await createPost(server, troll, { title: 'A troll writes an article' });
    const host = await createPost(server, author, { title: 'A decent article about the blues' });
    const comment = await commentOn(host.id, troll);
    assert.equal((await report(readers[0]!, { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);
    assert.equal((await report(readers[1]!, { target_type: 'comment', target_id: comment.id, reason: 'harassment' })).status, 201);
    assert.equal((await report(readers[1]!, { target_type: 'post', target_id: host.id, reason: 'other' })).status, 201);

    const res = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: troll.id, ban_type: 'permanent', ban_reason: 'Trolling' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await reportsOn('post', post.id)).map((r) => [r.status, r.resolution]), [['closed', 'banned']]);
    assert.deepEqual((await reportsOn('comment', comment.id)).map((r) => [r.status, r.resolution]), [['closed', 'banned']]);
    assert.deepEqual((await reportsOn('post', host.id)).map((r) => r.status), ['open'], 'another author\'s article stays reported');
    assert.equal((await noticesOf(readers[0]!)).at(-1)!.message,
      'An administrator suspended the author of the article "A troll writes an article", which you reported. Thank you for telling us.');
    assert.equal((await noticesOf(readers[1]!)).at(-1)!.message,
      'An administrator suspended the author of a comment on "A decent article about the blues", which you reported. Thank you for telling us.');
  });

  test('content its author deletes closes its reports quietly', async () => {
    const post = await createPost(server, author);
    const comment = await commentOn(post.id, readers[2]!);
    assert.equal((await report(readers[0]!, { target_type: 'comment', target_id: comment.id, reason: 'spam' })).status, 201);
    assert.equal((await report(readers[1]!, { target_type: 'post', target_id: post.id, reason: 'spam' })).status, 201);
    const told = [(await noticesOf(readers[0]!)).length, (await noticesOf(readers[1]!)).length];
    assert.equal((await server.api('DELETE', `/api/comments/${comment.id}`, { token: readers[2]!.token })).status, 200);
    assert.equal((await server.api('DELETE', `/api/posts/${post.id}`, { token: author.token })).status, 200);
    assert.deepEqual((await reportsOn('comment', comment.id)).map((r) => [r.status, r.resolution, r.closed_by]), [['closed', 'removed', null]]);
    assert.deepEqual((await reportsOn('post', post.id)).map((r) => [r.status, r.resolution]), [['closed', 'removed']]);
    assert.match((await reportsOn('post', post.id))[0]!.closed_at!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual([(await noticesOf(readers[0]!)).length, (await noticesOf(readers[1]!)).length], told);
    const closed = groupOf(await openGroups('?status=closed&limit=100'), 'post', post.id);
    assert.deepEqual([closed.resolution, closed.content, closed.author, closed.closed_by], ['removed', null, null, null]);
  });
});

describe('throttling', () => {
  test('reports are throttled per account: the 21st in an hour is a 429 and stores nothing', async () => {
    const limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
    try {
      const writer = await createUser(limited);
      const reporter = await createUser(limited);
      const other = await createUser(limited);
      const post = await createPost(limited, writer);
      const send = (as: TestUser) => limited.api('POST', '/api/reports', { token: as.token, json: { target_type: 'post', target_id: post.id, reason: 'spam' } });
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await send(reporter)).status);
      assert.deepEqual(statuses, [201, ...Array(19).fill(409)]);
      const count = () => limited.ctx.db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const before = Number((await count()).n);
      const refused = await send(reporter);
      assert.equal(refused.status, 429);
      assert.match(refused.body.detail, /^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/);
      assert.equal(Number((await count()).n), before);
      assert.equal((await send(other)).status, 201, 'another account is not held back');
    } finally {
      await limited.stop();
    }
  });
});
