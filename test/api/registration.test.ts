// Who may join (DESIGN.md, Running a community, Registration), against a real SMTP server: each
// mode's answer to a registration, an account waiting for approval (refused at login, nowhere for
// anyone else to see, the admins told), approved (it logs in, mailed) or rejected (gone, its name
// free again, mailed the reason), and invitations (made, listed, revoked, counted down in the
// registration's own transaction, expired, raced for), and the CLI's create-admin in every mode.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  AWAITING_APPROVAL_MESSAGE, INVITATION_ONLY_MESSAGE, INVITE_DAYS_MESSAGE, INVITE_USES_MESSAGE, PENDING_NOT_FOUND,
  REGISTRATION_CLOSED_MESSAGE, REJECTION_REASON_LENGTH_MESSAGE,
} from '../../shared/registration.ts';
import { STILL_PENDING_MESSAGE } from '../../server/admin/admin.service.ts';
import { createAdmin, createUser, loginAs, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { startSmtpPeer, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from './factories.ts';

const PUBLIC_URL = 'https://paper.example.org';
const QUICK_JOBS = { pollMs: 50, retry: { firstDelayMs: 100, maxDelayMs: 400, giveUpAfterMs: 60_000 } };

let smtp: SmtpPeer;
let server: TestServer;
let admin: TestUser;
let reader: TestUser;
let counter = 0;

before(async () => {
  smtp = await startSmtpPeer();
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'The Paper <news@paper.example.org>', PUBLIC_URL, EMAIL_VERIFICATION: 'off' },
    jobs: QUICK_JOBS,
  });
  admin = await createAdmin(server);
  reader = await createUser(server);
});
after(async () => {
  await server.stop();
  await smtp.close();
});

type Mode = 'open' | 'approval' | 'invite' | 'closed';
const setMode = async (registration: Mode) => {
  const res = await server.api('PUT', '/api/admin/site', { token: admin.token, json: { registration } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
};

function newcomer(extra: Record<string, unknown> = {}) {
  counter += 1;
  const username = `newcomer${process.pid}x${counter}`;
  return { username, email: `${username}@example.com`, password: 'password123', ...extra };
}
const register = (json: Record<string, unknown>) => server.api('POST', '/api/auth/register', { json });
const login = (who: { email: string; password: string }) => server.api('POST', '/api/auth/login', { json: { email: who.email, password: who.password } });
const makeInvite = (json: Record<string, unknown> = {}) => server.api('POST', '/api/invites', { token: admin.token, json });
const usersNamed = (username: string) => sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM users WHERE username = ?', username);

describe('each mode\'s answer to a registration', () => {
  after(() => setMode('open'));
  const scenarios: Array<{ mode: Mode; invite?: 'live' | 'bogus'; status: number; body: Record<string, unknown> }> = [
    { mode: 'open', status: 201, body: { status: 'active' } },
    { mode: 'open', invite: 'bogus', status: 201, body: { status: 'active' } },
    { mode: 'approval', status: 201, body: { status: 'pending' } },
    { mode: 'approval', invite: 'bogus', status: 201, body: { status: 'pending' } },
    // An admin vouched for an invited account: it need not wait.
    { mode: 'approval', invite: 'live', status: 201, body: { status: 'active' } },
    { mode: 'invite', status: 403, body: { detail: INVITATION_ONLY_MESSAGE } },
    { mode: 'invite', invite: 'bogus', status: 403, body: { detail: INVITATION_ONLY_MESSAGE } },
    { mode: 'invite', invite: 'live', status: 201, body: { status: 'active' } },
    { mode: 'closed', status: 403, body: { detail: REGISTRATION_CLOSED_MESSAGE } },
    { mode: 'closed', invite: 'live', status: 403, body: { detail: REGISTRATION_CLOSED_MESSAGE } },
  ];
  for (const s of scenarios) {
    test(`${s.mode}${s.invite ? ` with a ${s.invite} code` : ''}: ${s.status} ${JSON.stringify(s.body)}`, async () => {
      await setMode(s.mode);
      const invite = s.invite === 'live' ? (await makeInvite()).body.code : s.invite === 'bogus' ? 'no-such-code' : undefined;
      const account = newcomer(invite ? { invite } : {});
      const res = await register(account);
      assert.equal(res.status, s.status, JSON.stringify(res.body));
      for (const [key, value] of Object.entries(s.body)) assert.equal(res.body[key], value);
      assert.equal(res.body.access_token, undefined);
      assert.equal(await usersNamed(account.username), s.status === 201 ? 1 : 0);
      if (s.status !== 201) return;
      const signIn = await login(account);
      if (s.body.status === 'active') assert.equal(signIn.status, 200);
      else assert.deepEqual([signIn.status, signIn.body], [403, { detail: AWAITING_APPROVAL_MESSAGE }]);
    });
  }

  test('a closed site says so before looking at the form', async () => {
    await setMode('closed');
    const res = await register({});
    assert.deepEqual([res.status, res.body], [403, { detail: REGISTRATION_CLOSED_MESSAGE }]);
  });
});

describe('approval', () => {
  before(() => setMode('approval'));
  after(() => setMode('open'));

  async function pendingAccount() {
    const account = newcomer({ bio: 'I write about trains' });
    const res = await register(account);
    assert.equal(res.status, 201);
    assert.equal(res.body.status, 'pending');
    return { ...account, id: res.body.id as number };
  }

  test('the admins are told, and see the account in the Pending list, oldest first', async () => {
    const first = await pendingAccount();
    const second = await pendingAccount();
    const notes = await server.api('GET', '/api/notifications', { token: admin.token });
    assert.ok(notes.body.notifications.some((n: { subject: string; message: string }) =>
      n.subject === 'New account waiting for approval' && n.message.includes(second.username)), JSON.stringify(notes.body));
    const list = await server.api('GET', '/api/admin/pending', { token: admin.token });
    assert.equal(list.status, 200);
    const names = list.body.users.map((u: { username: string }) => u.username);
    assert.ok(names.indexOf(first.username) >= 0 && names.indexOf(first.username) < names.indexOf(second.username), names.join());
    assert.equal(list.body.total, names.length);
    const shown = list.body.users.find((u: { id: number }) => u.id === first.id);
    assert.deepEqual(Object.keys(shown).sort(), ['bio', 'created_at', 'email', 'email_verified', 'id', 'username']);
    assert.equal(shown.email, first.email);
  });

  test('a waiting account is nobody\'s to see: profile, lists, search, mentions, follows, mutes', async () => {
    const waiting = await pendingAccount();
    for (const path of [`/api/users/by-username/${waiting.username}`, `/api/users/${waiting.id}`, `/api/users/${waiting.id}/followers`,
      `/api/users/${waiting.id}/mojo`, `/api/users/${waiting.id}/posts`]) {
      const res = await server.api('GET', path, { token: reader.token });
      assert.equal(res.status, 404, `${path}: ${res.status}`);
    }
    for (const page of [`/beatnik/${waiting.username}`, `/beatnik/${waiting.username}/feed.xml`]) {
      assert.equal((await fetch(`${server.url}${page}`)).status, 404, page);
    }
    const authors = await server.api('GET', `/api/authors?search=${waiting.username}`);
    assert.equal(authors.body.authors.length, 0);
    const search = await server.api('GET', `/api/search?q=${waiting.username}`);
    assert.equal(JSON.stringify(search.body).includes(waiting.username), false);
    const follow = await server.api('POST', `/api/follow/${waiting.id}`, { token: reader.token });
    assert.equal(follow.status, 404);
    const byName = await server.api('POST', `/api/users/by-username/${waiting.username}/follow`, { token: reader.token });
    assert.equal(byName.status, 404);
    const mute = await server.api('PUT', `/api/users/me/mutes/users/${waiting.id}`, { token: reader.token });
    assert.equal(mute.status, 404);
    // A mention of a waiting account links nobody and tells nobody.
    const preview = await server.api('POST', '/api/preview', { token: reader.token, json: { content: `hello @${waiting.username}` } });
    assert.equal(preview.body.content_html.includes('href'), false, preview.body.content_html);
    const article = await createPost(server, reader, { content: `Hello @${waiting.username}. ${'A welcome for the newcomers. '.repeat(6)}` });
    assert.equal(article.content_html.includes('href'), false, article.content_html);
    const comment = await server.api('POST', `/api/posts/${article.id}/comments`, { token: reader.token, json: { content: `Hi @${waiting.username}` } });
    assert.equal(comment.status, 201);
    assert.equal(comment.body.content_html.includes('href'), false, comment.body.content_html);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM notifications WHERE user_id = ?', waiting.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM follows WHERE followee_id = ?', waiting.id), 0);
  });

  test('the admin tools leave a waiting account to the Pending tab: not in Users nor its count, no ban or promotion', async () => {
    const waiting = await pendingAccount();
    const users = await server.api('GET', `/api/admin/users?search=${waiting.username}`, { token: admin.token });
    assert.deepEqual([users.status, users.body.total], [200, 0]);
    const before = (await server.api('GET', '/api/admin/stats', { token: admin.token })).body.total_users;
    assert.equal(before, await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM users WHERE pending = 0'));
    const promote = await server.api('POST', '/api/admin/update-user-level', { token: admin.token, json: { user_id: waiting.id, level: 'admin' } });
    assert.deepEqual([promote.status, promote.body], [409, { detail: STILL_PENDING_MESSAGE }]);
    const ban = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: waiting.id, ban_type: 'permanent', ban_reason: 'spam' },
    });
    assert.equal(ban.status, 409);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM moderation_log WHERE target_user_id = ?', waiting.id), 0);
    assert.deepEqual(await sqlRows(server.ctx.db, 'SELECT level, banned_at FROM users WHERE id = ?', waiting.id), [{ level: 'user', banned_at: null }]);
  });

  test('approved: the account logs in, shows up, and is mailed a link to log in', async () => {
    const waiting = await pendingAccount();
    const from = smtp.received.length;
    const res = await server.api('POST', `/api/admin/pending/${waiting.id}/approve`, { token: admin.token });
    assert.deepEqual([res.status, res.body], [200, { detail: `${waiting.username} can log in now` }]);
    assert.equal((await login(waiting)).status, 200);
    assert.equal((await server.api('GET', `/api/users/by-username/${waiting.username}`)).status, 200);
    await waitFor(() => smtp.mailsTo(waiting.email, from).length === 1, { what: 'the approval mail' });
    const mail = smtp.mailsTo(waiting.email, from)[0]!;
    assert.match(mail.mail.subject ?? '', /approved/);
    assert.match(mail.mail.text ?? '', /You can log in now/);
    assert.ok((mail.mail.text ?? '').includes(`${PUBLIC_URL}/login`), mail.mail.text);
    const again = await server.api('POST', `/api/admin/pending/${waiting.id}/approve`, { token: admin.token });
    assert.deepEqual([again.status, again.body], [404, { detail: PENDING_NOT_FOUND }]);
    const list = await server.api('GET', '/api/admin/pending', { token: admin.token });
    assert.equal(list.body.users.some((u: { id: number }) => u.id === waiting.id), false);
  });

  test('rejected: the account is gone, its name and address free, and it is mailed the reason', async () => {
    const waiting = await pendingAccount();
    const from = smtp.received.length;
    const tooLong = await server.api('POST', `/api/admin/pending/${waiting.id}/reject`, { token: admin.token, json: { reason: 'x'.repeat(501) } });
    assert.deepEqual([tooLong.status, tooLong.body], [400, { detail: REJECTION_REASON_LENGTH_MESSAGE }]);
    assert.equal(await usersNamed(waiting.username), 1);
    const res = await server.api('POST', `/api/admin/pending/${waiting.id}/reject`, { token: admin.token, json: { reason: 'Looks like a spam account' } });
    assert.deepEqual([res.status, res.body], [200, { detail: `${waiting.username} was rejected and removed` }]);
    assert.equal(await usersNamed(waiting.username), 0);
    const signIn = await login(waiting);
    assert.equal(signIn.status, 401);
    await waitFor(() => smtp.mailsTo(waiting.email, from).length === 1, { what: 'the rejection mail' });
    const mail = smtp.mailsTo(waiting.email, from)[0]!;
    assert.match(mail.mail.text ?? '', /The reason given: Looks like a spam account/);
    // The same name and address may register again.
    const again = await register({ username: waiting.username, email: waiting.email, password: waiting.password });
    assert.equal(again.status, 201);
  });

  test('an unknown or already active account is not pending: 404', async () => {
    for (const id of [reader.id, 999_999]) {
      const approve = await server.api('POST', `/api/admin/pending/${id}/approve`, { token: admin.token });
      assert.deepEqual([approve.status, approve.body], [404, { detail: PENDING_NOT_FOUND }]);
      const reject = await server.api('POST', `/api/admin/pending/${id}/reject`, { token: admin.token, json: {} });
      assert.equal(reject.status, 404);
    }
    assert.equal((await login(reader)).status, 200);
  });
});

describe('invitations', () => {
  before(() => setMode('invite'));
  after(() => setMode('open'));
  beforeEach(async () => { await sqlRows(server.ctx.db, 'DELETE FROM invites'); });

  test('made with the defaults (1 use, 7 days), listed while live, revoked', async () => {
    const made = await makeInvite();
    assert.equal(made.status, 201);
    assert.deepEqual(Object.keys(made.body).sort(), ['code', 'created_at', 'expires_at', 'url', 'uses_left']);
    assert.equal(made.body.uses_left, 1);
    assert.equal(made.body.url, `${PUBLIC_URL}/register?invite=${made.body.code}`);
    const days = (Date.parse(made.body.expires_at) - Date.parse(made.body.created_at)) / 86_400_000;
    assert.equal(days, 7);
    const longer = await makeInvite({ uses: 5, days: 30 });
    assert.equal(longer.body.uses_left, 5);
    const list = await server.api('GET', '/api/invites', { token: admin.token });
    assert.deepEqual(list.body.invites.map((i: { code: string }) => i.code), [longer.body.code, made.body.code]);
    const revoked = await server.api('DELETE', `/api/invites/${made.body.code}`, { token: admin.token });
    assert.deepEqual([revoked.status, revoked.body], [200, { detail: 'Invitation revoked' }]);
    const gone = await server.api('DELETE', `/api/invites/${made.body.code}`, { token: admin.token });
    assert.equal(gone.status, 404);
    const refused = await register(newcomer({ invite: made.body.code }));
    assert.deepEqual([refused.status, refused.body], [403, { detail: INVITATION_ONLY_MESSAGE }]);
    const after = await server.api('GET', '/api/invites', { token: admin.token });
    assert.deepEqual(after.body.invites.map((i: { code: string }) => i.code), [longer.body.code]);
  });

  test('bad uses or days: 400 and nothing made', async () => {
    for (const [json, detail] of [
      [{ uses: 0 }, INVITE_USES_MESSAGE], [{ uses: 101 }, INVITE_USES_MESSAGE], [{ uses: 1.5 }, INVITE_USES_MESSAGE], [{ uses: '2' }, INVITE_USES_MESSAGE],
      [{ days: 0 }, INVITE_DAYS_MESSAGE], [{ days: 91 }, INVITE_DAYS_MESSAGE], [{ days: 'week' }, INVITE_DAYS_MESSAGE],
    ] as const) {
      const res = await makeInvite(json);
      assert.deepEqual([res.status, res.body], [400, { detail }], JSON.stringify(json));
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM invites'), 0);
  });

  test('each registration takes a use; a used-up code lets no one else in', async () => {
    const code = (await makeInvite({ uses: 2 })).body.code;
    assert.equal((await register(newcomer({ invite: code }))).status, 201);
    const list = await server.api('GET', '/api/invites', { token: admin.token });
    assert.equal(list.body.invites[0].uses_left, 1);
    assert.equal((await register(newcomer({ invite: code }))).status, 201);
    const third = newcomer({ invite: code });
    const refused = await register(third);
    assert.deepEqual([refused.status, refused.body], [403, { detail: INVITATION_ONLY_MESSAGE }]);
    assert.equal(await usersNamed(third.username), 0);
    assert.deepEqual((await server.api('GET', '/api/invites', { token: admin.token })).body.invites, []);
  });

  test('a refused registration takes no use (a taken username)', async () => {
    const code = (await makeInvite()).body.code;
    const taken = await register({ ...newcomer({ invite: code }), username: reader.username });
    assert.equal(taken.status, 409);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT uses_left FROM invites WHERE code = ?', code), 1);
  });

  test('an expired code is not valid', async () => {
    const code = (await makeInvite({ uses: 3 })).body.code;
    await sqlRows(server.ctx.db, 'UPDATE invites SET expires_at = ? WHERE code = ?', new Date(Date.now() - 1000).toISOString(), code);
    const res = await register(newcomer({ invite: code }));
    assert.deepEqual([res.status, res.body], [403, { detail: INVITATION_ONLY_MESSAGE }]);
    assert.deepEqual((await server.api('GET', '/api/invites', { token: admin.token })).body.invites, []);
  });

  test('two registrations racing for the last use: one wins, the other changes nothing', async () => {
    for (let round = 0; round < 3; round += 1) {
      const code = (await makeInvite()).body.code;
      const racers = [newcomer({ invite: code }), newcomer({ invite: code })];
      const answers = await Promise.all(racers.map(register));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 403], JSON.stringify(answers.map((a) => a.body)));
      const made = (await Promise.all(racers.map((r) => usersNamed(r.username)))).reduce((a, b) => a + b, 0);
      assert.equal(made, 1);
      assert.equal(await sqlNumber(server.ctx.db, 'SELECT uses_left FROM invites WHERE code = ?', code), 0);
    }
  });
});

describe('the CLI\'s create-admin', () => {
  after(() => setMode('open'));
  test('promoting an account that waits for approval lets it in', async () => {
    await setMode('approval');
    const account = newcomer();
    assert.equal((await register(account)).body.status, 'pending');
    const { createAdmin: createAdminCommand } = await import('../../scripts/admin/create-admin.ts');
    const lines: string[] = [];
    await createAdminCommand.run!(server.ctx, { email: account.email, passwordStdin: false }, { line: (text = '') => lines.push(text) });
    assert.match(lines.join('\n'), /Promoted existing user/);
    const token = await loginAs(server, account.email, account.password);
    assert.equal((await server.api('GET', '/api/admin/pending', { token })).status, 200);
  });

  for (const mode of ['approval', 'invite', 'closed'] as const) {
    test(`makes a working admin while registration is ${mode}`, async () => {
      await setMode(mode);
      const { createAdmin: createAdminCommand } = await import('../../scripts/admin/create-admin.ts');
      const account = newcomer();
      const lines: string[] = [];
      await createAdminCommand.run!(server.ctx, { email: account.email, username: account.username, password: account.password, passwordStdin: false },
        { line: (text = '') => lines.push(text) });
      assert.match(lines.join('\n'), /Created admin/);
      const token = await loginAs(server, account.email, account.password);
      assert.equal((await server.api('GET', '/api/admin/pending', { token })).status, 200);
    });
  }
});
