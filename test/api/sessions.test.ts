// Ending sessions on the server (DESIGN.md, Accounts: settings): POST /api/auth/logout ends the
// one token it is sent with, POST /api/auth/logout-all every token of the user; both hold on every
// instance sharing the database, since what ends a token is kept in it (migrations/0008_sessions.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import jwt from 'jsonwebtoken';
import { readAccessToken } from '../../server/auth/tokens.ts';
import {
  banInDatabase, createUser, loginAs, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { createTestDatabase, dropTestDatabase, onPostgres, testPostgresBase } from '../postgres-databases.ts';

let server: TestServer;

before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const me = (token: string) => server.api('GET', '/api/users/me', { token });
const INVALID = { detail: 'Could not validate credentials' };

/** A second device: the same account signed in again. */
async function anotherSession(user: TestUser): Promise<string> {
  return loginAs(server, user.email, user.password);
}

describe('POST /api/auth/logout', () => {
  test('ends the token it is sent with, and only that one', async () => {
    const user = await createUser(server);
    const phone = await anotherSession(user);
    const res = await server.api('POST', '/api/auth/logout', { token: user.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { message: 'Session closed successfully' });

    const ended = await me(user.token);
    assert.equal(ended.status, 401);
    assert.deepEqual(ended.body, INVALID);
    assert.equal((await me(phone)).status, 200, 'the other session goes on');
    // Every kind of request refuses it, writes too.
    const write = await server.api('PUT', '/api/users/me', { token: user.token, json: { bio: 'after sign-out' } });
    assert.equal(write.status, 401);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM users WHERE bio = ?', 'after sign-out'), 0);
    // A public read treats it as a visitor's, as any bad token.
    assert.equal((await server.api('GET', `/api/users/${user.id}`, { token: user.token })).body.email, undefined);
  });

  test('keeps the hash of the token until its expiry, never the token', async () => {
    const user = await createUser(server);
    const claims = readAccessToken(server.ctx.config, user.token)!;
    await server.api('POST', '/api/auth/logout', { token: user.token });
    const rows = await sqlRows<{ token_hash: string; expires_at: string }>(server.ctx.db,
      'SELECT token_hash, expires_at FROM revoked_tokens WHERE token_hash = ?', claims.tokenId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.expires_at, new Date(claims.expiresAt).toISOString());
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM revoked_tokens WHERE token_hash = ?', user.token), 0);
  });

  test('twice, or with no token, or a bad one: 401 and nothing stored', async () => {
    const user = await createUser(server);
    assert.equal((await server.api('POST', '/api/auth/logout', { token: user.token })).status, 200);
    const count = () => sqlNumber(server.ctx.db, 'SELECT count(*) FROM revoked_tokens');
    const before = await count();
    const again = await server.api('POST', '/api/auth/logout', { token: user.token });
    assert.equal(again.status, 401);
    assert.deepEqual(again.body, INVALID);
    const none = await server.api('POST', '/api/auth/logout');
    assert.equal(none.status, 401);
    assert.deepEqual(none.body, { detail: 'Not authenticated' });
    assert.equal((await server.api('POST', '/api/auth/logout', { token: `${user.token}x` })).status, 401);
    assert.equal(await count(), before);
  });

  test('a banned user may still sign out, and that token stays ended after the ban', async () => {
    const user = await createUser(server);
    await banInDatabase(server, user.id, { permanent: false, days: 2, reason: 'cooling off' });
    assert.equal((await me(user.token)).status, 403);
    assert.equal((await server.api('POST', '/api/auth/logout', { token: user.token })).status, 200);
    await server.ctx.db.updateTable('users').set({ banned_at: null, ban_until: null, ban_reason: null }).where('id', '=', user.id).execute();
    assert.equal((await me(user.token)).status, 401);
    assert.equal((await me(await anotherSession(user))).status, 200);
  });

  test('two sign-ins in the same second are two sessions: ending one leaves the other', async () => {
    const user = await createUser(server);
    const [a, b] = await Promise.all([anotherSession(user), anotherSession(user)]);
    assert.notEqual(a, b);
    await server.api('POST', '/api/auth/logout', { token: a });
    assert.equal((await me(a)).status, 401);
    assert.equal((await me(b)).status, 200);
  });

  test('a token signed before sessions could end (no jti) works, and ends alone', async () => {
    const user = await createUser(server);
    // As signAccessToken signed them before this change: no jwtid.
    const legacy = jwt.sign({ ver: 0 }, server.ctx.config.jwtSecret, { algorithm: 'HS256', expiresIn: 3600, subject: String(user.id) });
    assert.equal((await me(legacy)).status, 200);
    assert.equal((await server.api('POST', '/api/auth/logout', { token: legacy })).status, 200);
    assert.equal((await me(legacy)).status, 401);
    assert.equal((await me(user.token)).status, 200);
  });

  test('tokens ended long ago are forgotten once they have expired', async () => {
    const user = await createUser(server);
    await sqlRows(server.ctx.db, 'INSERT INTO revoked_tokens (token_hash, expires_at) VALUES (?, ?), (?, ?)',
      'expired-yesterday', new Date(Date.now() - 86_400_000).toISOString(),
      'expires-tomorrow', new Date(Date.now() + 86_400_000).toISOString());
    await server.api('POST', '/api/auth/logout', { token: user.token });
    const left = await sqlRows<{ token_hash: string }>(server.ctx.db,
      "SELECT token_hash FROM revoked_tokens WHERE token_hash IN ('expired-yesterday', 'expires-tomorrow')");
    assert.deepEqual(left.map((r) => r.token_hash), ['expires-tomorrow']);
  });
});

describe('POST /api/auth/logout-all', () => {
  test('ends every session, this one included; a new sign-in works', async () => {
    const user = await createUser(server);
    const phone = await anotherSession(user);
    const res = await server.api('POST', '/api/auth/logout-all', { token: user.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { message: 'Signed out on every device' });
    for (const token of [user.token, phone]) {
      const ended = await me(token);
      assert.equal(ended.status, 401);
      assert.deepEqual(ended.body, INVALID);
    }
    assert.equal((await me(await anotherSession(user))).status, 200);
  });

  test("ends no one else's sessions", async () => {
    const [user, other] = [await createUser(server), await createUser(server)];
    await server.api('POST', '/api/auth/logout-all', { token: user.token });
    assert.equal((await me(other.token)).status, 200);
  });

  test('needs a live session: 401 without one, 403 for a banned user; nothing changes', async () => {
    const user = await createUser(server);
    const version = () => sqlNumber(server.ctx.db, 'SELECT token_version FROM users WHERE id = ?', user.id);
    const before = await version();
    assert.equal((await server.api('POST', '/api/auth/logout-all')).status, 401);
    await banInDatabase(server, user.id, { permanent: true, reason: 'spam' });
    assert.equal((await server.api('POST', '/api/auth/logout-all', { token: user.token })).status, 403);
    assert.equal(await version(), before);
  });
});

describe('two instances on one database', { skip: onPostgres ? false : 'several instances share a PostgreSQL database: run under test/with-postgres.ts' }, () => {
  let databaseUrl: string;
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    databaseUrl = await createTestDatabase(testPostgresBase()!);
    const jwtSecret = randomBytes(32).toString('hex');
    a = await startTestServer({ config: { databaseUrl, jwtSecret } });
    b = await startTestServer({ config: { databaseUrl, jwtSecret } });
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dropTestDatabase(databaseUrl);
  });

  test('a token ended on one is refused by the other at once', async () => {
    const user = await createUser(a);
    const phone = await loginAs(b, user.email, user.password);
    assert.equal((await b.api('GET', '/api/users/me', { token: user.token })).status, 200, 'B knows the token');
    assert.equal((await a.api('POST', '/api/auth/logout', { token: user.token })).status, 200);
    assert.equal((await b.api('GET', '/api/users/me', { token: user.token })).status, 401);
    assert.equal((await b.api('GET', '/api/users/me', { token: phone })).status, 200);
    assert.equal((await b.api('POST', '/api/auth/logout-all', { token: phone })).status, 200);
    assert.equal((await a.api('GET', '/api/users/me', { token: phone })).status, 401);
  });
});
