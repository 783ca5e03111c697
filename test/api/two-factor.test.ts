// Two-factor sign-in (DESIGN.md, Running a community) over HTTP: set-up, the two-step login,
// codes used once, recovery codes, the challenge's limits, the throttle, turning it off, and
// ADMIN_2FA=required in front of every admin endpoint.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generate } from 'otplib';
import { signChallenge } from '../../server/auth/two-factor.challenge.ts';
import { turnOffTwoFactor } from '../../server/auth/two-factor.service.ts';
import { startMailSite, type MailSite, type SmtpPeer } from '../smtp-peer.ts';
import { waitFor } from '../wait-for.ts';
import {
  createAdmin, createUser, sqlNumber, startTestServer, withTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { createPost } from './factories.ts';

const INVALID = { detail: 'Invalid two-factor code.' };
const EXPIRED = { detail: 'Your sign-in has expired. Please log in again.' };
const ADMIN_REFUSED = { detail: 'Set up two-factor authentication to use admin tools.' };

/** The code of the time step `offset` steps from now. */
function codeAt(secret: string, offset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
}

interface TwoFactorUser extends TestUser {
  secret: string;
  recoveryCodes: string[];
}

/** Sets two-factor sign-in up through the API as Settings → Security does; the code used is the previous step's. */
async function withTwoFactor(server: TestServer, user: TestUser): Promise<TwoFactorUser> {
  const setup = await server.api('POST', '/api/users/me/two-factor/setup', { token: user.token, json: { password: user.password } });
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const enabled = await server.api('POST', '/api/users/me/two-factor', { token: user.token, json: { code: await codeAt(setup.body.secret, -1) } });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return { ...user, secret: setup.body.secret, recoveryCodes: enabled.body.recovery_codes };
}

async function passwordStep(server: TestServer, user: TestUser): Promise<string> {
  const res = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['challenge', 'two_factor_required']);
  assert.equal(res.body.two_factor_required, true);
  return res.body.challenge;
}

const secondStep = (server: TestServer, body: object) => server.api('POST', '/api/auth/login/2fa', { json: body });

describe('two-factor sign-in', () => {
  let server: TestServer;
  withTestServer(async (started) => { server = started; });

  test('set-up shows a QR code and the secret; a correct code turns it on and gives 10 recovery codes once', async () => {
    const ana = await createUser(server);
    assert.equal((await server.api('GET', '/api/users/me', { token: ana.token })).body.two_factor_enabled, false);
    const wrongPassword = await server.api('POST', '/api/users/me/two-factor/setup', { token: ana.token, json: { password: 'not it' } });
    assert.deepEqual([wrongPassword.status, wrongPassword.body], [403, { detail: 'Password is incorrect' }]);

    const setup = await server.api('POST', '/api/users/me/two-factor/setup', { token: ana.token, json: { password: ana.password } });
    assert.equal(setup.status, 200);
    assert.equal(setup.headers.get('cache-control'), 'no-store');
    assert.match(setup.body.secret, /^[A-Z2-7]{32}$/);
    assert.equal(setup.body.otpauth_uri, `otpauth://totp/Beatnik:${ana.username}?secret=${setup.body.secret}&issuer=Beatnik`);
    assert.match(setup.body.qr_svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n?$/s);
    assert.doesNotMatch(setup.body.qr_svg, /<script|on\w+=/i);
    // Waiting for a code, it is not on: the password alone still signs in.
    const meanwhile = await server.api('POST', '/api/auth/login', { json: { email: ana.email, password: ana.password } });
    assert.equal(typeof meanwhile.body.access_token, 'string');

    const wrong = await server.api('POST', '/api/users/me/two-factor', { token: ana.token, json: { code: '000000' } });
    assert.deepEqual([wrong.status, wrong.body], [400, INVALID]);
    const enabled = await server.api('POST', '/api/users/me/two-factor', { token: ana.token, json: { code: await codeAt(setup.body.secret) } });
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.detail, 'Two-factor authentication is on.');
    assert.equal(enabled.body.recovery_codes.length, 10);
    assert.equal(new Set(enabled.body.recovery_codes).size, 10);
    for (const code of enabled.body.recovery_codes) assert.match(code, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    assert.equal(enabled.body.user.two_factor_enabled, true);

    // The session that turned it on goes on; the secret and the codes are in no answer from now on.
    const me = await server.api('GET', '/api/users/me', { token: ana.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.two_factor_enabled, true);
    const exported = await server.api('GET', '/api/users/me/export', { token: ana.token });
    assert.equal(exported.status, 200);
    assert.equal(exported.body.profile.two_factor_enabled, true);
    for (const answer of [me, exported, enabled]) assert.ok(!JSON.stringify(answer.body).includes(setup.body.secret));
    const text = JSON.stringify(exported.body);
    for (const code of enabled.body.recovery_codes) assert.ok(!text.includes(code) && !text.includes(code.replaceAll('-', '')));
    // Stored hashed, never as given.
    const stored = await server.ctx.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', ana.id).execute();
    assert.equal(stored.length, 10);
    for (const { code_hash } of stored) assert.ok(!enabled.body.recovery_codes.some((c: string) => code_hash.includes(c.replaceAll('-', ''))));

    const again = await server.api('POST', '/api/users/me/two-factor/setup', { token: ana.token, json: { password: ana.password } });
    assert.deepEqual([again.status, again.body], [409, { detail: 'Two-factor authentication is already on.' }]);
    assert.equal((await server.api('POST', '/api/users/me/two-factor', { token: ana.token, json: { code: await codeAt(setup.body.secret) } })).status, 409);
  });

  test('a code before any set-up, or for a secret set up again since, is refused', async () => {
    const bea = await createUser(server);
    const none = await server.api('POST', '/api/users/me/two-factor', { token: bea.token, json: { code: '123456' } });
    assert.deepEqual([none.status, none.body], [409, { detail: 'Start the set-up again: no set-up is waiting for a code.' }]);
    const first = await server.api('POST', '/api/users/me/two-factor/setup', { token: bea.token, json: { password: bea.password } });
    const second = await server.api('POST', '/api/users/me/two-factor/setup', { token: bea.token, json: { password: bea.password } });
    assert.notEqual(first.body.secret, second.body.secret);
    const stale = await server.api('POST', '/api/users/me/two-factor', { token: bea.token, json: { code: await codeAt(first.body.secret) } });
    assert.deepEqual([stale.status, stale.body], [400, INVALID]);
    const empty = await server.api('POST', '/api/users/me/two-factor', { token: bea.token, json: {} });
    assert.equal(empty.status, 400);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT two_factor_enabled FROM users WHERE id = ?', bea.id), 0);
  });

  test('login answers a challenge without a token; the code gives the token, the same answer as a normal login', async () => {
    const cleo = await withTwoFactor(server, await createUser(server));
    const challenge = await passwordStep(server, cleo);
    // The challenge is no session.
    assert.equal((await server.api('GET', '/api/users/me', { token: challenge })).status, 401);

    const wrong = await secondStep(server, { challenge, code: '000000' });
    assert.deepEqual([wrong.status, wrong.body], [401, INVALID]);
    const signedIn = await secondStep(server, { challenge, code: await codeAt(cleo.secret) });
    assert.equal(signedIn.status, 200);
    assert.deepEqual(Object.keys(signedIn.body).sort(), ['access_token', 'token_type', 'user']);
    assert.equal(signedIn.body.token_type, 'bearer');
    assert.equal(signedIn.body.user.username, cleo.username);
    assert.equal(signedIn.body.user.two_factor_enabled, true);
    assert.notEqual(signedIn.body.user.last_login, null);
    const me = await server.api('GET', '/api/users/me', { token: signedIn.body.access_token });
    assert.equal(me.body.id, cleo.id);
    // The session from before 2FA was on still works.
    assert.equal((await server.api('GET', '/api/users/me', { token: cleo.token })).status, 200);
  });

  test('a code works once: the same code again, or an older step\'s, is refused', async () => {
    const dan = await withTwoFactor(server, await createUser(server)); // used the previous step's code
    const previous = await secondStep(server, { challenge: await passwordStep(server, dan), code: await codeAt(dan.secret, -1) });
    assert.deepEqual([previous.status, previous.body], [401, INVALID]);
    const code = await codeAt(dan.secret);
    assert.equal((await secondStep(server, { challenge: await passwordStep(server, dan), code })).status, 200);
    const replayed = await secondStep(server, { challenge: await passwordStep(server, dan), code });
    assert.deepEqual([replayed.status, replayed.body], [401, INVALID]);
    // Two steps ahead is outside the window.
    const ahead = await secondStep(server, { challenge: await passwordStep(server, dan), code: await codeAt(dan.secret, 3) });
    assert.deepEqual([ahead.status, ahead.body], [401, INVALID]);
    // The next step's code (a phone's clock a little ahead) is within it.
    const next = await secondStep(server, { challenge: await passwordStep(server, dan), code: await codeAt(dan.secret, 1) });
    assert.equal(next.status, 200);
  });

  test('a recovery code signs in once, typed any way; other sessions go on', async () => {
    const eve = await withTwoFactor(server, await createUser(server));
    const [first, second] = eve.recoveryCodes as [string, string];
    const used = await secondStep(server, { challenge: await passwordStep(server, eve), recovery_code: first });
    assert.equal(used.status, 200);
    const again = await secondStep(server, { challenge: await passwordStep(server, eve), recovery_code: first });
    assert.deepEqual([again.status, again.body], [401, INVALID]);
    const loose = await secondStep(server, { challenge: await passwordStep(server, eve), recovery_code: ` ${second.toUpperCase().replaceAll('-', ' ')} ` });
    assert.equal(loose.status, 200);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM two_factor_recovery_codes WHERE user_id = ?', eve.id), 8);
    assert.equal((await server.api('GET', '/api/users/me', { token: eve.token })).status, 200);
    // Someone else's recovery code is no use.
    const finn = await withTwoFactor(server, await createUser(server));
    const foreign = await secondStep(server, { challenge: await passwordStep(server, finn), recovery_code: eve.recoveryCodes[2] });
    assert.deepEqual([foreign.status, foreign.body], [401, INVALID]);
  });

  test('an expired, forged or outdated challenge is refused, whatever the code', async () => {
    const gus = await withTwoFactor(server, await createUser(server));
    const row = (await server.ctx.db.selectFrom('users').selectAll().where('id', '=', gus.id).executeTakeFirstOrThrow());
    const expired = signChallenge(server.ctx.config, row, Math.floor(Date.now() / 1000) - 301);
    assert.deepEqual((await secondStep(server, { challenge: expired, code: await codeAt(gus.secret) })).body, EXPIRED);
    const fresh = signChallenge(server.ctx.config, row, Math.floor(Date.now() / 1000) - 240);
    const forgeries = [
      'not a challenge', '', gus.token, // an access token is no challenge
      fresh.slice(0, -2) + (fresh.endsWith('AA') ? 'BB' : 'AA'),
      signChallenge({ ...server.ctx.config, jwtSecret: 'x'.repeat(48) }, row),
    ];
    for (const challenge of forgeries) {
      const res = await secondStep(server, { challenge, code: await codeAt(gus.secret) });
      assert.deepEqual([res.status, res.body], [401, EXPIRED], challenge);
    }
    // Missing both, or both at once.
    assert.equal((await secondStep(server, { challenge: fresh })).status, 400);
    assert.equal((await secondStep(server, { challenge: fresh, code: '123456', recovery_code: gus.recoveryCodes[0] })).status, 400);

    // A password changed since voids the challenge given under the old one.
    const before = await passwordStep(server, gus);
    const changed = await server.api('PUT', '/api/users/me/password', { token: gus.token, json: { current_password: gus.password, new_password: 'a new password' } });
    assert.equal(changed.status, 200);
    assert.deepEqual((await secondStep(server, { challenge: before, code: await codeAt(gus.secret) })).body, EXPIRED);
    // The four minutes old one, given before the change, too; the code was not used by any of this.
    assert.deepEqual((await secondStep(server, { challenge: fresh, code: await codeAt(gus.secret) })).body, EXPIRED);
    const after = await passwordStep(server, { ...gus, password: 'a new password' });
    assert.equal((await secondStep(server, { challenge: after, code: await codeAt(gus.secret) })).status, 200);
  });

  test('a banned user gets their ban, not a challenge', async () => {
    const hal = await withTwoFactor(server, await createUser(server));
    await server.ctx.db.updateTable('users').set({ ban_permanent: 1, banned_at: new Date().toISOString(), ban_reason: 'spam' }).where('id', '=', hal.id).execute();
    const res = await server.api('POST', '/api/auth/login', { json: { email: hal.email, password: hal.password } });
    assert.deepEqual([res.status, res.body], [403, { detail: 'Your account has been permanently banned. Reason: spam' }]);
  });

  test('turning it off needs the password and a code or a recovery code; the session goes on', async () => {
    const ida = await withTwoFactor(server, await createUser(server));
    const off = (body: object) => server.api('DELETE', '/api/users/me/two-factor', { token: ida.token, json: body });
    assert.deepEqual((await off({ code: await codeAt(ida.secret) })).body, { detail: 'Please enter your password' });
    assert.equal((await off({ password: ida.password })).status, 400);
    const wrongPassword = await off({ password: 'nope nope', code: await codeAt(ida.secret) });
    assert.deepEqual([wrongPassword.status, wrongPassword.body], [403, { detail: 'Password is incorrect' }]);
    const wrongCode = await off({ password: ida.password, code: '000000' });
    assert.deepEqual([wrongCode.status, wrongCode.body], [403, INVALID]);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT two_factor_enabled FROM users WHERE id = ?', ida.id), 1);

    const done = await off({ password: ida.password, recovery_code: ida.recoveryCodes[0] });
    assert.equal(done.status, 200);
    assert.deepEqual([done.body.detail, done.body.user.two_factor_enabled], ['Two-factor authentication is off.', false]);
    assert.equal((await server.api('GET', '/api/users/me', { token: ida.token })).body.two_factor_enabled, false);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM two_factor WHERE user_id = ?', ida.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM two_factor_recovery_codes WHERE user_id = ?', ida.id), 0);
    const login = await server.api('POST', '/api/auth/login', { json: { email: ida.email, password: ida.password } });
    assert.equal(typeof login.body.access_token, 'string');
    assert.deepEqual((await off({ password: ida.password, code: '123456' })).body, { detail: 'Two-factor authentication is not on.' });

    // With the app's code, too; and it can be set up again afterwards.
    const again = await withTwoFactor(server, ida);
    const withCode = await off({ password: ida.password, code: await codeAt(again.secret) });
    assert.equal(withCode.status, 200);
  });

  test('deleting the account deletes its secret and codes', async () => {
    const jo = await withTwoFactor(server, await createUser(server));
    const res = await server.api('DELETE', '/api/users/me', { token: jo.token, json: { password: jo.password } });
    assert.equal(res.status, 200);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM two_factor WHERE user_id = ?', jo.id), 0);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM two_factor_recovery_codes WHERE user_id = ?', jo.id), 0);
  });
});

describe('guessing codes is throttled as passwords are', () => {
  let server: TestServer;
  withTestServer(async (started) => { server = started; }, { env: { RATE_LIMITS: 'on' } });

  test('after 5 wrong codes the next attempt waits, a right code included; a right password does not reset the count', async () => {
    const kim = await withTwoFactor(server, await createUser(server));
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      // A fresh challenge each time: the password is right, and that must not wipe the failed codes.
      const res = await secondStep(server, { challenge: await passwordStep(server, kim), code: '000000' });
      assert.deepEqual([res.status, res.body], [401, INVALID], `attempt ${attempt}`);
    }
    const sixth = await secondStep(server, { challenge: await passwordStep(server, kim), code: await codeAt(kim.secret) });
    assert.equal(sixth.status, 429);
    assert.match(sixth.body.detail, /^Too many attempts\. Try again in \d+ seconds\.$/);
    assert.ok(Number(sixth.headers.get('retry-after')) >= 1);
    // Turning it off from a signed-in session guesses no faster.
    const off = await server.api('DELETE', '/api/users/me/two-factor', { token: kim.token, json: { password: kim.password, code: await codeAt(kim.secret) } });
    assert.equal(off.status, 429);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT two_factor_enabled FROM users WHERE id = ?', kim.id), 1);
  });
});

describe('ADMIN_2FA=required', () => {
  let server: TestServer;
  withTestServer(async (started) => { server = started; }, { env: { ADMIN_2FA: 'required' } });

  const ADMIN_ENDPOINTS: Array<{ method: string; url: (target: TestUser, postId: number) => string; body?: (target: TestUser) => object }> = [
    { method: 'GET', url: () => '/api/admin/users' },
    { method: 'GET', url: () => '/api/admin/stats' },
    { method: 'GET', url: () => '/api/admin/banned-users' },
    { method: 'GET', url: () => '/api/admin/posts' },
    { method: 'GET', url: () => '/api/admin/reports' },
    { method: 'POST', url: () => '/api/admin/update-user-level', body: (t) => ({ user_id: t.id, level: 'admin' }) },
    { method: 'POST', url: () => '/api/admin/ban-user', body: (t) => ({ user_id: t.id, ban_type: 'temporary', ban_reason: 'test', ban_until: new Date(Date.now() + 86_400_000).toISOString() }) },
    { method: 'POST', url: (t) => `/api/admin/unban-user/${t.id}` },
    { method: 'POST', url: () => '/api/admin/send-notification', body: (t) => ({ user_id: t.id, subject: 'Hello', message: 'A word', notification_type: 'general' }) },
    { method: 'DELETE', url: (_t, postId) => `/api/admin/delete-post/${postId}?reason=spam` },
    { method: 'POST', url: (_t, postId) => `/api/admin/reports/post/${postId}/dismiss` },
    { method: 'GET', url: () => '/api/admin/site' },
    { method: 'PUT', url: () => '/api/admin/site', body: () => ({ name: 'Taken over' }) },
    { method: 'GET', url: () => '/api/admin/pending' },
    { method: 'GET', url: () => '/api/invites' },
    { method: 'POST', url: () => '/api/invites', body: () => ({ uses: 1 }) },
  ];

  test('an admin without two-factor sign-in gets 403 from every admin endpoint, and nothing changes', async () => {
    const admin = await createAdmin(server);
    const target = await createUser(server);
    const post = await createPost(server, target);
    const me = await server.api('GET', '/api/users/me', { token: admin.token });
    assert.deepEqual([me.status, me.body.two_factor_enabled], [200, false], 'the rest of the site works');
    for (const endpoint of ADMIN_ENDPOINTS) {
      const url = endpoint.url(target, post.id);
      const res = await server.api(endpoint.method, url, { token: admin.token, json: endpoint.body?.(target) });
      assert.deepEqual([res.status, res.body], [403, ADMIN_REFUSED], `${endpoint.method} ${url}`);
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT COUNT(*) FROM posts WHERE id = ?', post.id), 1);
    assert.equal(await sqlNumber(server.ctx.db, "SELECT COUNT(*) FROM users WHERE level = 'admin'"), 1);
    // A user who is no admin still hears that they are none.
    const plain = await server.api('GET', '/api/admin/stats', { token: target.token });
    assert.deepEqual([plain.status, plain.body], [403, { detail: 'Admin privileges required' }]);
  });

  test('once it is on, the same session gets in at once; turned off, it is refused again', async () => {
    const admin = await withTwoFactor(server, await createAdmin(server));
    const target = await createUser(server);
    const post = await createPost(server, target);
    for (const endpoint of ADMIN_ENDPOINTS) {
      const url = endpoint.url(target, post.id);
      const res = await server.api(endpoint.method, url, { token: admin.token, json: endpoint.body?.(target) });
      assert.notDeepEqual(res.body, ADMIN_REFUSED, `${endpoint.method} ${url}`);
      assert.ok(res.status < 500, `${endpoint.method} ${url}: ${res.status}`);
    }
    assert.equal((await server.api('GET', '/api/admin/stats', { token: admin.token })).status, 200);
    const off = await server.api('DELETE', '/api/users/me/two-factor', { token: admin.token, json: { password: admin.password, recovery_code: admin.recoveryCodes[0] } });
    assert.equal(off.status, 200);
    assert.deepEqual((await server.api('GET', '/api/admin/stats', { token: admin.token })).body, ADMIN_REFUSED);
  });
});

describe('with mail on, the account is told', () => {
  let site: MailSite;
  before(async () => { site = await startMailSite({ EMAIL_VERIFICATION: 'off' }); });
  after(async () => { await site?.close(); });

  test('when two-factor sign-in is turned on, off, or off by the operator (disable-2fa)', async () => {
    const { server, smtp } = site;
    const lou = await withTwoFactor(server, await createUser(server));
    const [on] = await waitForMailTo(smtp, lou.email, 1);
    assert.equal(on!.mail.subject, 'Two-factor sign-in is on for your Beatnik account');
    assert.match(on!.mail.text ?? '', /signing in now asks for a code from your authenticator app/);
    assert.match(on!.mail.text ?? '', /https:\/\/paper\.example\.org\/settings/);
    const off = await server.api('DELETE', '/api/users/me/two-factor', { token: lou.token, json: { password: lou.password, recovery_code: lou.recoveryCodes[0] } });
    assert.equal(off.status, 200);
    const [, offMail] = await waitForMailTo(smtp, lou.email, 2);
    assert.equal(offMail!.mail.subject, 'Two-factor sign-in was turned off on your Beatnik account');
    assert.match(offMail!.mail.text ?? '', /your password alone signs in now/);

    await withTwoFactor(server, lou);
    const row = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', lou.id).executeTakeFirstOrThrow();
    await turnOffTwoFactor(server.ctx, row);
    const mails = await waitForMailTo(smtp, lou.email, 4);
    assert.match(mails[3]!.mail.text ?? '', /turned off for .* by the site's administrators/);
  });
});

async function waitForMailTo(smtp: SmtpPeer, to: string, count: number) {
  await waitFor(() => smtp.mailsTo(to).length >= count, { what: `${count} mails to ${to}` });
  return smtp.mailsTo(to);
}

test('ADMIN_2FA defaults to optional: an admin without two-factor sign-in uses the admin tools', async () => {
  const server = await startTestServer();
  try {
    const admin = await createAdmin(server);
    assert.equal((await server.api('GET', '/api/admin/stats', { token: admin.token })).status, 200);
  } finally {
    await server.stop();
  }
});
