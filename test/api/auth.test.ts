import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jwt from 'jsonwebtoken';
import fc from 'fast-check';
import { createUser, loginAs, startTestServer, type TestServer } from '../helpers.ts';

let server: TestServer;
before(async () => { server = await startTestServer(); });
after(async () => { await server.stop(); });

const register = (json: unknown) => server.api('POST', '/api/auth/register', { json });
const valid = { username: 'ana', email: 'ana@example.com', password: 'secret1' };

describe('POST /api/auth/register', () => {
  test('creates the account: 201, private user, no password, argon2id hash stored', async () => {
    const res = await register({ username: '  Marta_R ', email: ' Marta@Example.com ', password: ' pass word ', bio: '  Hello  ' });
    assert.equal(res.status, 201);
    assert.equal(res.body.username, 'Marta_R');
    assert.equal(res.body.email, 'marta@example.com');
    assert.equal(res.body.bio, 'Hello');
    assert.equal(res.body.level, 'user');
    assert.equal(res.body.mojo, 0);
    assert.equal(res.body.posts_count, 0);
    assert.equal(res.body.last_login, null);
    assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(JSON.stringify(res.body).includes('password'), false);
    const row = await server.ctx.db.selectFrom('users').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^\$argon2id\$/);
    // The password is not trimmed: its spaces count.
    assert.equal(typeof await loginAs(server, 'marta@example.com', ' pass word '), 'string');
  });

  const messages: Array<[string, Record<string, unknown>, string]> = [
    ['short username', { username: 'ab' }, 'Username must be at least 3 characters long'],
    ['blank username', { username: '    ' }, 'Username must be at least 3 characters long'],
    ['missing username', { username: undefined }, 'Username must be at least 3 characters long'],
    ['username not text', { username: 12345 }, 'Username must be at least 3 characters long'],
    ['long username', { username: 'a'.repeat(36) }, 'Username must be between 3 and 35 characters'],
    ['username with a slash', { username: 'ana/bob' }, 'Username can only contain letters, numbers, dots, hyphens and underscores'],
    ['bad email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['missing email', { email: undefined }, 'Please enter a valid email address'],
    ['short password', { password: '12345' }, 'Password must be at least 6 characters long'],
    ['password not text', { password: 123456 }, 'Password must be at least 6 characters long'],
    ['huge password', { password: 'x'.repeat(1001) }, 'Password cannot exceed 1000 characters'],
    ['confirmation differs', { confirm_password: 'other' }, 'Passwords do not match'],
    ['long bio', { bio: 'b'.repeat(501) }, 'Biography cannot exceed 500 characters'],
  ];
  for (const [name, change, detail] of messages) {
    test(`400 for ${name}: "${detail}", nothing stored`, async () => {
      const before = await countUsers();
      const res = await register({ ...valid, username: `v${Date.now()}`, ...change });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { detail });
      assert.equal(await countUsers(), before);
    });
  }

  test('a bio of exactly 500 characters and a username of 35 are accepted', async () => {
    const res = await register({ username: 'u'.repeat(35), email: 'max@example.com', password: 'secret1', bio: 'b'.repeat(500) });
    assert.equal(res.status, 201);
  });

  test('409 for a taken username or email, case-insensitively', async () => {
    assert.equal((await register({ ...valid, username: 'Taken', email: 'taken@example.com' })).status, 201);
    assert.deepEqual(await register({ ...valid, username: 'TAKEN', email: 'new@example.com' }).then((r) => [r.status, r.body]),
      [409, { detail: 'Username is already taken' }]);
    assert.deepEqual(await register({ ...valid, username: 'fresh', email: 'TAKEN@example.COM' }).then((r) => [r.status, r.body]),
      [409, { detail: 'Email is already registered' }]);
  });

  test('fields a user may not set are ignored (no mass assignment)', async () => {
    const res = await register({ username: 'sneaky', email: 'sneaky@example.com', password: 'secret1', level: 'admin', mojo: 999, posts_count: 5 });
    assert.equal(res.status, 201);
    assert.equal(res.body.level, 'user');
    assert.equal(res.body.mojo, 0);
    assert.equal(res.body.posts_count, 0);
  });
});

describe('POST /api/auth/login', () => {
  test('returns a bearer token and sets last_login', async () => {
    const user = await createUser(server);
    const res = await server.api('POST', '/api/auth/login', { json: { email: user.email.toUpperCase(), password: user.password } });
    assert.equal(res.status, 200);
    assert.equal(res.body.token_type, 'bearer');
    const claims = jwt.decode(res.body.access_token) as jwt.JwtPayload;
    assert.equal(claims.sub, String(user.id));
    assert.ok(claims.exp! - claims.iat! === 7 * 86400);
    assert.ok(res.body.user.last_login);
  });

  test('the same 401 for a wrong password and an unknown email', async () => {
    const user = await createUser(server);
    const wrong = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: 'wrong-password' } });
    const unknown = await server.api('POST', '/api/auth/login', { json: { email: 'nobody@example.com', password: 'wrong-password' } });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.body, { detail: 'Incorrect email or password' });
  });

  test('400 when email or password is missing', async () => {
    for (const json of [{}, { email: 'a@b.co' }, { password: 'x' }, { email: 5, password: 5 }, []]) {
      const res = await server.api('POST', '/api/auth/login', { json });
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.deepEqual(res.body, { detail: 'Email and password are required' });
    }
    // A bare JSON string or null is not an object at all.
    for (const json of ['text', null]) {
      const res = await server.api('POST', '/api/auth/login', { json });
      assert.deepEqual([res.status, res.body], [400, { detail: 'Request body is not valid JSON' }]);
    }
  });
});

describe('GET /api/users/me and tokens', () => {
  test('the signed-in user with private fields', async () => {
    const user = await createUser(server, { bio: 'I write.' });
    const res = await server.api('GET', '/api/users/me', { token: user.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, user.id);
    assert.equal(res.body.email, user.email);
    assert.equal(res.body.bio, 'I write.');
    assert.equal(res.body.is_banned, false);
  });

  test('401 without a token, with a bad, forged or expired one', async () => {
    const user = await createUser(server);
    const forged = jwt.sign({ ver: 0 }, 'another-secret-of-at-least-32-characters', { subject: String(user.id), expiresIn: 60 });
    const expired = jwt.sign({ ver: 0, exp: Math.floor(Date.now() / 1000) - 10 }, server.ctx.config.jwtSecret, { subject: String(user.id) });
    const none = jwt.sign({ ver: 0 }, '', { algorithm: 'none', subject: String(user.id) });
    const ghost = jwt.sign({ ver: 0 }, server.ctx.config.jwtSecret, { subject: '999999', expiresIn: 60 });
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer nonsense' }, { authorization: `Bearer ${forged}` },
      { authorization: `Bearer ${expired}` }, { authorization: `Bearer ${none}` }, { authorization: `Bearer ${ghost}` },
      { authorization: `Basic ${user.token}` }]) {
      const res = await server.api('GET', '/api/users/me', { headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(typeof res.body.detail, 'string');
    }
  });

  test('bumping the token version revokes existing tokens', async () => {
    const user = await createUser(server);
    await server.ctx.db.updateTable('users').set({ token_version: 1 }).where('id', '=', user.id).execute();
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 401);
    const fresh = await loginAs(server, user.email, user.password);
    assert.equal((await server.api('GET', '/api/users/me', { token: fresh })).status, 200);
  });

  // A ban's 403 on every signed-in request: test/api/permissions.test.ts.
  test('a ban answers 403 at login; an expired ban ends by itself', async () => {
    const user = await createUser(server);
    const until = new Date(Date.now() + 86400_000).toISOString();
    const ban = { banned_at: new Date().toISOString(), ban_permanent: 0, ban_until: until, ban_reason: 'spam' };
    await server.ctx.db.updateTable('users').set(ban).where('id', '=', user.id).execute();
    const login = await server.api('POST', '/api/auth/login', { json: { email: user.email, password: user.password } });
    assert.equal(login.status, 403);
    assert.match(login.body.detail, /spam/);

    await server.ctx.db.updateTable('users').set({ ban_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', user.id).execute();
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).status, 200);
  });
});

describe('bad input never gives a 500', () => {
  test('random JSON bodies get 4xx with a detail', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue(), fc.constantFrom('/api/auth/register', '/api/auth/login'), async (json, path) => {
      const res = await server.api('POST', path, { json });
      assert.ok(res.status < 500, `${res.status} for ${JSON.stringify(json)}`);
      if (res.status >= 400) assert.equal(typeof res.body.detail, 'string');
    }), { numRuns: 150 });
  });

  test('random objects with the expected keys get 4xx or 201', async () => {
    const junk = fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object());
    await fc.assert(fc.asyncProperty(fc.record({ username: junk, email: junk, password: junk, bio: junk }, { requiredKeys: [] }), async (json) => {
      const res = await server.api('POST', '/api/auth/register', { json });
      assert.ok(res.status === 201 || (res.status >= 400 && res.status < 500), `${res.status} for ${JSON.stringify(json)}`);
    }), { numRuns: 100 });
  });

  test('malformed JSON, wrong content type and oversized bodies', async () => {
    const broken = await server.api('POST', '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    assert.deepEqual([broken.status, broken.body], [400, { detail: 'Request body is not valid JSON' }]);
    const form = await server.api('POST', '/api/auth/login', { body: 'email=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 400);
    const huge = await server.api('POST', '/api/auth/register', { json: { username: 'x'.repeat(200_000) } });
    assert.deepEqual([huge.status, huge.body], [413, { detail: 'Request body is too large' }]);
  });
});

async function countUsers(): Promise<number> {
  const row = await server.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
