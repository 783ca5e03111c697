// The admin CLI as an operator runs it: a child process on DATA_DIR, checked by exit code,
// output and the database file itself (opened with better-sqlite3, read-only).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { createAdmin, createUser, loginAs, promoteToAdmin, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { cli, query } from './cli-helpers.ts';
import { onPostgres } from '../postgres-databases.ts';
import { utcDateTime } from '../../shared/dates.ts';

const tempDirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-cli-'));
  tempDirs.push(dir);
  return dir;
}
after(() => { for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true }); });

describe('help and usage errors', { concurrency: 4 }, () => {
  test('--help lists every command; help <command> shows its usage and an example', async () => {
    const dir = path.join(freshDir(), 'never-created');
    const help = await cli(dir, ['--help']);
    assert.equal(help.code, 0);
    for (const name of ['create-admin', 'promote', 'demote', 'ban', 'unban', 'list-users', 'recompute-ranks', 'check-counters', 'disable-2fa']) {
      assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), name);
    }
    const ban = await cli(dir, ['help', 'ban']);
    assert.equal(ban.code, 0);
    assert.match(ban.stdout, /Usage: npm run admin -- ban USERNAME --reason R \(--days N \| --permanent\)/);
    assert.match(ban.stdout, /Example:\n {2}npm run admin -- ban /);
    const same = await cli(dir, ['ban', '--help']);
    assert.equal(same.stdout, ban.stdout);
    const none = await cli(dir, []);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Commands:/);
    assert.equal(existsSync(dir), false, 'help never touches the data directory');
  });

  const usage: Array<[string[], RegExp]> = [
    [['frobnicate'], /unknown command "frobnicate"/],
    [['help', 'frobnicate'], /unknown command "frobnicate"/],
    [['promote'], /expected USERNAME, got 0 arguments/],
    [['promote', 'a', 'b'], /expected USERNAME, got 2 arguments/],
    [['disable-2fa'], /expected USERNAME, got 0 arguments/],
    [['promote', 'ana', '--force'], /Unknown option '--force'/],
    [['recompute-ranks', 'now'], /unexpected argument "now"/],
    [['ban', 'ana', '--days', '3'], /--reason is required/],
    [['ban', 'ana', '--reason', 'x'], /give either --days N or --permanent/],
    [['ban', 'ana', '--reason', 'x', '--days', '3', '--permanent'], /give either --days N or --permanent/],
    [['ban', 'ana', '--reason', 'x', '--days', '0'], /--days must be a whole number from 1 to 365/],
    [['ban', 'ana', '--reason', 'x', '--days', '366'], /--days must be a whole number from 1 to 365/],
    [['ban', 'ana', '--reason', 'x', '--days', 'ten'], /--days must be a whole number from 1 to 365/],
    [['ban', 'ana', '--reason', 'x', '--days'], /--days/],
    [['list-users', '--limit', 'lots'], /--limit must be a whole number/],
    [['list-users', '--level', 'root'], /--level must be user or admin/],
    [['create-admin', '--username', 'boss'], /--email is required/],
    [['create-admin', '--email', 'not-an-email'], /Please enter a valid email address/],
  ];
  for (const [args, message] of usage) {
    test(`exit 2 for: ${args.join(' ') || '(nothing)'}`, async () => {
      const dir = path.join(freshDir(), 'never-created');
      const run = await cli(dir, args);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trim().split('\n').length, 1, 'one line');
      assert.match(run.stderr, /^admin: .*\(see "npm run admin -- (help \S+|--help)"\)\n$/);
      assert.equal(run.stdout, '');
      assert.equal(existsSync(dir), false, 'bad arguments never touch the data directory');
    });
  }
});

describe('on a fresh data directory', () => {
  test('create-admin migrates the database and creates a validated admin; again, it says so', async () => {
    const dir = freshDir();
    const run = await cli(dir, ['create-admin', '--username', 'Chief', '--email', 'Chief@Example.com', '--password', 'correct horse']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Created admin Chief \(id 1, chief@example\.com\)\n$/);
    // A test database on PostgreSQL is a copy of an already migrated template.
    if (!onPostgres) assert.match(run.stderr, /Database migrated: 0001_init/);
    const [row] = await query(dir, 'SELECT username, email, level, password_hash FROM users');
    assert.deepEqual([row.username, row.email, row.level], ['Chief', 'chief@example.com', 'admin']);
    assert.match(row.password_hash, /^\$argon2id\$/);
    assert.deepEqual(await query(dir, 'SELECT action, admin_id FROM moderation_log'), [{ action: 'promote', admin_id: null }]);

    const again = await cli(dir, ['create-admin', '--email', 'chief@example.com']);
    assert.deepEqual([again.code, again.stdout, again.stderr], [0, 'Chief (id 1) is already an admin\n', '']);
  });

  test('create-admin refuses what registration refuses (exit 2) and a taken username (exit 1)', async () => {
    const dir = freshDir();
    const short = await cli(dir, ['create-admin', '--username', 'ed', '--email', 'ed@example.com', '--password', 'secret12']);
    assert.equal(short.code, 2);
    assert.match(short.stderr, /Username must be at least 3 characters long/);
    const weak = await cli(dir, ['create-admin', '--username', 'editor', '--email', 'ed@example.com', '--password', '123']);
    assert.match(weak.stderr, /Password must be at least 6 characters long/);
    const missing = await cli(dir, ['create-admin', '--email', 'ed@example.com']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /a new account needs --username and --password/);
    assert.equal((await cli(dir, ['create-admin', '--username', 'editor', '--email', 'ed@example.com', '--password', 'secret12'])).code, 0);
    const taken = await cli(dir, ['create-admin', '--username', 'EDITOR', '--email', 'other@example.com', '--password', 'secret12']);
    assert.deepEqual([taken.code, taken.stderr], [1, 'admin: Username is already taken\n']);
  });

  test('--password-stdin reads the password from standard input', async () => {
    const dir = freshDir();
    const run = await cli(dir, ['create-admin', '--username', 'quiet', '--email', 'quiet@example.com', '--password-stdin'], 'from stdin 123\n');
    assert.equal(run.code, 0, run.stderr);
    const server = await startTestServer({ config: { dataDir: dir } });
    try {
      assert.equal(typeof await loginAs(server, 'quiet@example.com', 'from stdin 123'), 'string');
    } finally {
      await server.close();
    }
  });

  test('the last admin cannot be demoted; unknown users are a failure (exit 1)', async () => {
    const dir = freshDir();
    await cli(dir, ['create-admin', '--username', 'solo', '--email', 'solo@example.com', '--password', 'secret12']);
    const demote = await cli(dir, ['demote', 'SOLO']);
    assert.deepEqual([demote.code, demote.stderr], [1, 'admin: The last administrator cannot be demoted\n']);
    assert.equal((await query(dir, 'SELECT level FROM users'))[0].level, 'admin');
    const nobody = await cli(dir, ['promote', 'nobody']);
    assert.deepEqual([nobody.code, nobody.stderr], [1, 'admin: User not found: nobody\n']);
    const list = await cli(dir, ['list-users', '--banned']);
    assert.deepEqual([list.code, list.stdout], [0, 'No banned users.\n']);
  });
});

describe('against a running server on the same data directory', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    // Another admin exists, so demoting a promoted user is never demoting the last one.
    await promoteToAdmin(server, (await createUser(server)).id);
  });
  after(async () => { await server.stop(); });

  test('promote and demote take effect on the next request', async () => {
    const ana = await createUser(server);
    const promote = await cli(server.dataDir, ['promote', ana.username.toUpperCase()]);
    assert.deepEqual([promote.code, promote.stdout], [0, `User successfully promoted to admin: ${ana.username} (id ${ana.id})\n`]);
    assert.equal((await server.api('GET', '/api/admin/stats', { token: ana.token })).status, 200);
    const again = await cli(server.dataDir, ['promote', ana.username]);
    assert.deepEqual([again.code, again.stderr], [1, 'admin: User is already an admin\n']);
    const demote = await cli(server.dataDir, ['demote', ana.username]);
    assert.equal(demote.code, 0, demote.stderr);
    assert.equal((await server.api('GET', '/api/admin/stats', { token: ana.token })).status, 403);
  });

  test('ban revokes tokens at once and blocks login; unban lets the user back in', async () => {
    const bob = await createUser(server);
    const run = await cli(server.dataDir, ['ban', bob.username, '--reason', 'Flooding the comments', '--days', '3']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^User banned for 3 days: ${bob.username} \\(until \\d{1,2} [A-Z][a-z]+ \\d{4}, \\d\\d:\\d\\d UTC\\)\\n$`));

    const me = await server.api('GET', '/api/users/me', { token: bob.token });
    assert.equal(me.status, 403);
    assert.match(me.body.detail, /Flooding the comments/);
    assert.equal((await server.api('POST', '/api/auth/login', { json: { email: bob.email, password: bob.password } })).status, 403);

    const [row] = await query(server.dataDir, 'SELECT * FROM users WHERE id = ?', bob.id);
    assert.equal(row.token_version, 1);
    assert.equal(row.ban_permanent, 0);
    assert.equal(row.banned_by, null);
    const days = (Date.parse(row.ban_until) - Date.now()) / 86_400_000;
    assert.ok(days > 2.99 && days <= 3, String(days));
    const [notice] = await query(server.dataDir, 'SELECT * FROM notifications WHERE user_id = ?', bob.id);
    assert.deepEqual([notice.type, notice.created_by], ['ban_notice', null]);
    assert.match(notice.message, /Reason: Flooding the comments/);
    assert.deepEqual(await query(server.dataDir, 'SELECT action, admin_id, reason FROM moderation_log WHERE target_user_id = ?', bob.id),
      [{ action: 'ban', admin_id: null, reason: 'Flooding the comments' }]);

    const banned = await cli(server.dataDir, ['list-users', '--banned']);
    assert.equal(banned.code, 0);
    assert.match(banned.stdout, new RegExp(`^${bob.id} +${bob.username} +${bob.email} +user +0 +0 +0\\.0 +${utcDateTime(row.ban_until)}$`, 'm'));

    const unban = await cli(server.dataDir, ['unban', bob.username]);
    assert.deepEqual([unban.code, unban.stdout], [0, `User unbanned successfully: ${bob.username}\n`]);
    assert.equal(typeof await loginAs(server, bob.email, bob.password), 'string');
    const twice = await cli(server.dataDir, ['unban', bob.username]);
    assert.deepEqual([twice.code, twice.stderr], [1, 'admin: User is not banned\n']);
  });

  test('disable-2fa turns a locked-out user\'s two-factor sign-in off; their sessions go on', async () => {
    const eve = await createUser(server);
    const setup = await server.api('POST', '/api/users/me/two-factor/setup', { token: eve.token, json: { password: eve.password } });
    const code = await generate({ secret: setup.body.secret });
    assert.equal((await server.api('POST', '/api/users/me/two-factor', { token: eve.token, json: { code } })).status, 200);
    const login = await server.api('POST', '/api/auth/login', { json: { email: eve.email, password: eve.password } });
    assert.equal(login.body.two_factor_required, true);

    const run = await cli(server.dataDir, ['disable-2fa', eve.username]);
    assert.deepEqual([run.code, run.stdout, run.stderr],
      [0, `Two-factor sign-in turned off for ${eve.username}; they can sign in with their password alone\n`, '']);
    assert.equal(typeof await loginAs(server, eve.email, eve.password), 'string');
    const me = await server.api('GET', '/api/users/me', { token: eve.token });
    assert.deepEqual([me.status, me.body.two_factor_enabled], [200, false]);
    assert.deepEqual(await query(server.dataDir, 'SELECT COUNT(*) AS n FROM two_factor_recovery_codes WHERE user_id = ?', eve.id), [{ n: 0 }]);
    assert.deepEqual(await query(server.dataDir, 'SELECT COUNT(*) AS n FROM two_factor WHERE user_id = ?', eve.id), [{ n: 0 }]);

    const again = await cli(server.dataDir, ['disable-2fa', eve.username]);
    assert.deepEqual([again.code, again.stderr], [1, `admin: Two-factor sign-in is not on for ${eve.username}\n`]);
    const nobody = await cli(server.dataDir, ['disable-2fa', 'no_such_user']);
    assert.deepEqual([nobody.code, nobody.stderr], [1, 'admin: User not found: no_such_user\n']);
  });

  test('a permanent ban; admins cannot be banned', async () => {
    const carl = await createUser(server);
    const run = await cli(server.dataDir, ['ban', carl.username, '--reason', 'Impersonation', '--permanent']);
    assert.deepEqual([run.code, run.stdout], [0, `User permanently banned successfully: ${carl.username}\n`]);
    assert.match((await server.api('GET', '/api/users/me', { token: carl.token })).body.detail, /permanently banned/);
    const boss = await createAdmin(server);
    const refused = await cli(server.dataDir, ['ban', boss.username, '--reason', 'x', '--permanent']);
    assert.deepEqual([refused.code, refused.stderr], [1, 'admin: Administrators cannot be banned\n']);
  });

  test('list-users prints a table with every column, and a count', async () => {
    const dora = await createUser(server);
    const run = await cli(server.dataDir, ['list-users', '--search', dora.username]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^id +username +email +level +posts +followers +mojo +banned until$/);
    assert.match(lines[1]!, /^-+ +-+/);
    assert.match(lines[2]!, new RegExp(`^${dora.id} +${dora.username} +${dora.email} +user +0 +0 +0\\.0$`));
    assert.equal(lines[3], '1 of 1 user');
  });

  test('recompute-ranks reports the posts it ranked', async () => {
    const author = await createUser(server);
    await createPost(server, author);
    await createPost(server, author);
    const run = await cli(server.dataDir, ['recompute-ranks']);
    assert.equal(run.code, 0, run.stderr);
    const active = (await query(server.dataDir, 'SELECT count(*) AS n FROM posts WHERE archived = 0'))[0].n;
    assert.match(run.stdout, new RegExp(`^Recomputed ranks for ${active} posts? in \\d+ ms\\n$`));
    assert.equal((await query(server.dataDir, 'SELECT count(*) AS n FROM post_ranks'))[0].n, active);
  });

  test('check-counters: agreement exits 0, a wrong counter is reported with exit 1', async () => {
    const author = await createUser(server);
    await createPost(server, author);
    const ok = await cli(server.dataDir, ['check-counters']);
    assert.deepEqual([ok.code, ok.stdout], [0, 'All counters agree with the base tables\n'], ok.stderr);
    await server.ctx.db.updateTable('users').set({ followers_count: 42 }).where('id', '=', author.id).execute();
    const drift = await cli(server.dataDir, ['check-counters']);
    assert.equal(drift.code, 1);
    assert.match(drift.stdout, new RegExp(`^user ${author.id} followers_count: stored 42, counted 0$`, 'm'));
    assert.equal(drift.stderr, 'admin: 1 counter disagrees with the base tables\n');
    await server.ctx.db.updateTable('users').set({ followers_count: 0 }).where('id', '=', author.id).execute();
  });

  test('check-counters: a mojo ledger that does not add up is reported; --repair writes the recompute events that correct it', async () => {
    const [author, rater, other] = [await createUser(server), await createUser(server), await createUser(server)];
    const post = await createPost(server, author);
    assert.equal((await server.api('POST', `/api/posts/${post.id}/rate`, { token: rater.token, json: { rating: 5 } })).status, 200);
    // Drift of two kinds: an event lost from the author's ledger, and a mojo stored wrong (with its ledger beside it).
    await server.ctx.db.deleteFrom('mojo_events').where('user_id', '=', author.id).execute();
    await server.ctx.db.updateTable('users').set({ mojo: 7.5 }).where('id', '=', other.id).execute();
    const mojo = (await server.ctx.db.selectFrom('users').select('mojo').where('id', '=', author.id).executeTakeFirstOrThrow()).mojo;
    const drift = await cli(server.dataDir, ['check-counters']);
    assert.equal(drift.code, 1, drift.stderr);
    assert.match(drift.stdout, new RegExp(`^user ${author.id} mojo ledger: stored ${mojo}, events add up to 0$`, 'm'));
    assert.match(drift.stdout, new RegExp(`^user ${other.id} mojo: stored 7.5, computed 0$`, 'm'));
    assert.match(drift.stdout, new RegExp(`^user ${other.id} mojo ledger: stored 7.5, events add up to 0$`, 'm'));

    const repaired = await cli(server.dataDir, ['check-counters', '--repair']);
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.equal(repaired.stdout, 'Repaired the counters of 1 user; wrote 1 recompute event to the mojo ledger\n'
      + 'All counters agree with the base tables\n');
    const events = (await server.api('GET', `/api/users/${author.id}/mojo`)).body;
    assert.deepEqual(events.events.map((e: { cause: string; delta: number; mojo_after: number; actor_id: null }) =>
      [e.cause, e.delta, e.mojo_after, e.actor_id]), [['recompute', mojo, mojo, null]]);
    assert.equal(events.mojo, mojo);
    // The wrong mojo was set back to what its counters give, which its ledger already said: no event needed.
    assert.deepEqual((await server.api('GET', `/api/users/${other.id}/mojo`)).body, { mojo: 0, events: [], total: 0 });
    const again = await cli(server.dataDir, ['check-counters', '--repair']);
    assert.equal(again.stdout, 'Repaired the counters of 0 users; wrote 0 recompute events to the mojo ledger\n'
      + 'All counters agree with the base tables\n');
  });

  test('commands succeed while the server is busy writing', async () => {
    const targets = await Promise.all([1, 2, 3].map(() => createUser(server)));
    const writer = await createUser(server);
    const post = await createPost(server, writer);
    let writing = true;
    const load = (async () => {
      let n = 0;
      while (writing) {
        const res = await server.api('POST', `/api/posts/${post.id}/comments`, { token: writer.token, json: { content: `busy ${n++}` } });
        assert.equal(res.status, 201);
      }
      return n;
    })();
    try {
      const runs = await Promise.all(targets.map((t) => cli(server.dataDir, ['ban', t.username, '--reason', 'busy', '--days', '1'])));
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
    } finally {
      writing = false;
    }
    assert.ok(await load > 0);
    for (const t of targets) assert.equal((await server.api('GET', '/api/users/me', { token: t.token })).status, 403);
  });
});
