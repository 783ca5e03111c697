// One's own password and email (DESIGN.md, Accounts: settings): a new password ends every other
// session and gives this one a new token; a new email needs the password. Bad input changes
// nothing; the password is throttled as a login's, by the same counts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser, loginAs, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { apiFrom } from './from-address.ts';

let server: TestServer;

before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

/** What a change to credentials could touch on the user's row. */
async function credentials(userId: number) {
  const [row] = await sqlRows(server.ctx.db, 'SELECT email, password_hash, token_version FROM users WHERE id = ?', userId);
  return row;
}

const login = (email: string, password: string) => server.api('POST', '/api/auth/login', { json: { email, password } });
const me = (token: string) => server.api('GET', '/api/users/me', { token });

describe('PUT /api/users/me/password', () => {
  test('sets the new password, ends every other session and gives this one a new token', async () => {
    const user = await createUser(server);
    const laptop = await loginAs(server, user.email, user.password);
    const before = await credentials(user.id);
    const res = await server.api('PUT', '/api/users/me/password', {
      token: user.token, json: { current_password: user.password, new_password: 'a much better one', confirm_password: 'a much better one' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'message', 'token_type']);
    assert.equal(res.body.message, 'Password changed successfully');

    assert.equal((await me(res.body.access_token)).status, 200, 'the new token works');
    for (const old of [user.token, laptop]) assert.equal((await me(old)).status, 401, 'every earlier token has ended');
    assert.equal((await login(user.email, user.password)).status, 401);
    assert.equal((await login(user.email, 'a much better one')).status, 200);
    const after = await credentials(user.id);
    assert.notEqual(after!.password_hash, before!.password_hash);
    assert.match(String(after!.password_hash), /^\$argon2id\$/);
    assert.equal(Number(after!.token_version), Number(before!.token_version) + 1);
  });

  const bad: Array<{ name: string; body: unknown; status: number; detail: string }> = [
    { name: 'nothing sent', body: {}, status: 400, detail: 'Please enter your current password' },
    { name: 'current password not text', body: { current_password: 123456, new_password: 'new-password' }, status: 400, detail: 'Please enter your current password' },
    { name: 'no new password', body: { current_password: 'password123' }, status: 400, detail: 'Password must be at least 6 characters long' },
    { name: 'a short new password', body: { current_password: 'password123', new_password: 'abc12' }, status: 400, detail: 'Password must be at least 6 characters long' },
    { name: 'a new password over 1000 characters', body: { current_password: 'password123', new_password: 'x'.repeat(1001) }, status: 400, detail: 'Password cannot exceed 1000 characters' },
    { name: 'a confirmation that differs', body: { current_password: 'password123', new_password: 'new-password', confirm_password: 'new-passwort' }, status: 400, detail: 'Passwords do not match' },
    { name: 'the same password again', body: { current_password: 'password123', new_password: 'password123' }, status: 400, detail: 'The new password must be different from the current one' },
    { name: 'a wrong current password', body: { current_password: 'password124', new_password: 'new-password' }, status: 403, detail: 'Current password is incorrect' },
    { name: 'a current password over 1000 characters', body: { current_password: 'y'.repeat(5000), new_password: 'new-password' }, status: 403, detail: 'Current password is incorrect' },
  ];
  for (const row of bad) {
    test(`${row.name}: ${row.status}, and nothing changes`, async () => {
      const user = await createUser(server);
      const before = await credentials(user.id);
      const res = await server.api('PUT', '/api/users/me/password', { token: user.token, json: row.body });
      assert.equal(res.status, row.status);
      assert.deepEqual(res.body, { detail: row.detail });
      assert.deepEqual(await credentials(user.id), before);
      assert.equal((await me(user.token)).status, 200, 'the session goes on');
    });
  }

  test('a body that is not JSON: 400, nothing changes', async () => {
    const user = await createUser(server);
    const before = await credentials(user.id);
    const res = await server.api('PUT', '/api/users/me/password', {
      token: user.token, body: '{"current_password":', headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await credentials(user.id), before);
  });
});

describe('PUT /api/users/me/email', () => {
  test('the new address is the login from now on; the sessions go on', async () => {
    const user = await createUser(server);
    const res = await server.api('PUT', '/api/users/me/email', {
      token: user.token, json: { email: `  New.${user.username}@Example.ORG `, password: user.password },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const stored = `new.${user.username.toLowerCase()}@example.org`;
    assert.equal(res.body.message, 'Email updated successfully');
    assert.equal(res.body.user.email, stored);
    assert.equal(res.body.user.id, user.id);
    assert.equal((await credentials(user.id))!.email, stored);
    assert.equal((await me(user.token)).body.email, stored);
    assert.equal((await login(user.email, user.password)).status, 401);
    assert.equal((await login(stored, user.password)).status, 200);
  });

  const bad: Array<{ name: string; body: (user: TestUser, other: TestUser) => unknown; status: number; detail: string }> = [
    { name: 'nothing sent', body: () => ({}), status: 400, detail: 'Please enter a valid email address' },
    { name: 'no @', body: (u) => ({ email: 'nobody.example.org', password: u.password }), status: 400, detail: 'Please enter a valid email address' },
    { name: 'no password', body: () => ({ email: 'fresh@example.org' }), status: 400, detail: 'Please enter your password' },
    { name: 'the same address, in capitals', body: (u) => ({ email: u.email.toUpperCase(), password: u.password }), status: 400, detail: 'This is already your email' },
    { name: 'a wrong password', body: () => ({ email: 'fresh@example.org', password: 'password124' }), status: 403, detail: 'Password is incorrect' },
    // Whether an address is taken is not told without the password.
    { name: "another's address with a wrong password", body: (_u, o) => ({ email: o.email, password: 'password124' }), status: 403, detail: 'Password is incorrect' },
    { name: "another's address", body: (u, o) => ({ email: o.email, password: u.password }), status: 409, detail: 'Email is already registered' },
  ];
  for (const row of bad) {
    test(`${row.name}: ${row.status}, and nothing changes`, async () => {
      const [user, other] = [await createUser(server), await createUser(server)];
      const before = [await credentials(user.id), await credentials(other.id)];
      const res = await server.api('PUT', '/api/users/me/email', { token: user.token, json: row.body(user, other) });
      assert.equal(res.status, row.status);
      assert.deepEqual(res.body, { detail: row.detail });
      assert.deepEqual([await credentials(user.id), await credentials(other.id)], before);
    });
  }
});

describe('passwords checked in settings are throttled as logins are', () => {
  let throttled: TestServer;
  before(async () => { throttled = await startTestServer({ env: { RATE_LIMITS: 'on' } }); });
  after(async () => { await throttled.stop(); });

  test('after 5 wrong passwords from one address it waits, at the login form too; the owner elsewhere does not', async () => {
    const user = await createUser(throttled);
    const from = (address: string, method: string, path: string, json: unknown, token?: string) =>
      apiFrom(address, throttled.url, method, path, { token, json });
    const wrong = [
      ['PUT', '/api/users/me/password', { current_password: 'guess-1', new_password: 'whatever-1' }],
      ['PUT', '/api/users/me/email', { email: 'thief@example.org', password: 'guess-2' }],
      ['DELETE', '/api/users/me', { password: 'guess-3' }],
      ['PUT', '/api/users/me/password', { current_password: 'guess-4', new_password: 'whatever-4' }],
      ['DELETE', '/api/users/me', { password: 'guess-5' }],
    ] as const;
    for (const [method, path, json] of wrong) {
      assert.equal((await from('127.0.0.2', method, path, json, user.token)).status, 403, `${method} ${path}`);
    }
    const held = await from('127.0.0.2', 'PUT', '/api/users/me/password', { current_password: user.password, new_password: 'taken-over' }, user.token);
    assert.equal(held.status, 429, JSON.stringify(held.body));
    assert.match(held.body.detail, /^Too many attempts\. Try again in \d+ seconds\.$/);
    assert.equal((await from('127.0.0.2', 'POST', '/api/auth/login', { email: user.email, password: user.password })).status, 429);
    // The owner, from an address that never failed, is not held.
    assert.equal((await from('127.0.0.3', 'POST', '/api/auth/login', { email: user.email, password: user.password })).status, 200);
    assert.equal((await credentials2(throttled, user.id)).email, user.email, 'nothing changed');
  });
});

async function credentials2(on: TestServer, userId: number) {
  const [row] = await sqlRows<{ email: string }>(on.ctx.db, 'SELECT email FROM users WHERE id = ?', userId);
  return row!;
}
