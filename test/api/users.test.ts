import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { createAdmin,
  banInDatabase, createUser, multipart, samplePng, failUpdates, withTestServer,
  type TestServer, type TestUser,
} from '../helpers.ts';
import { createPost } from './factories.ts';

let server: TestServer;
let admin: TestUser;

withTestServer(async (started) => {
  server = started;
  admin = await createAdmin(server);
});

const PUBLIC_KEYS = ['avatar', 'bio', 'created_at', 'followers_count', 'following_count', 'id', 'level', 'mojo', 'posts_count', 'remote_followers_count', 'username'];
const PRIVATE_KEYS = [...PUBLIC_KEYS, 'ban_permanent', 'ban_reason', 'ban_until', 'email', 'email_verified', 'is_banned', 'last_login', 'two_factor_enabled'];

const uploads = () => readdirSync(path.join(server.dataDir, 'uploads')).sort();
const uploadPath = (url: string) => path.join(server.dataDir, 'uploads', path.basename(url));
const putMe = (user: TestUser, options: { json?: unknown; body?: BodyInit }) =>
  server.api('PUT', '/api/users/me', { token: user.token, ...options });
const row = (id: number) => server.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/users/{id} and /api/users/by-username/{username}', () => {
  test('a visitor sees the public user, without private fields or is_following', async () => {
    const user = await createUser(server, { bio: 'Poet of the night.' });
    const res = await server.api('GET', `/api/users/${user.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), PUBLIC_KEYS);
    assert.equal(res.body.username, user.username);
    assert.equal(res.body.bio, 'Poet of the night.');
    assert.equal(res.body.avatar, null);
    assert.deepEqual([res.body.followers_count, res.body.following_count, res.body.posts_count], [0, 0, 0]);
  });

  test('a signed-in reader also gets is_following, which follows the follow', async () => {
    const [author, reader] = [await createUser(server), await createUser(server)];
    const before = await server.api('GET', `/api/users/${author.id}`, { token: reader.token });
    assert.deepEqual(Object.keys(before.body).sort(), [...PUBLIC_KEYS, 'is_following'].sort());
    assert.equal(before.body.is_following, false);
    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: reader.token })).status, 200);
    const after = await server.api('GET', `/api/users/by-username/${author.username}`, { token: reader.token });
    assert.equal(after.body.is_following, true);
    assert.equal(after.body.followers_count, 1);
  });

  test('the user themself and admins get the private user', async () => {
    const user = await createUser(server);
    const self = await server.api('GET', `/api/users/${user.id}`, { token: user.token });
    assert.deepEqual(Object.keys(self.body).sort(), [...PRIVATE_KEYS, 'is_following'].sort());
    assert.equal(self.body.email, user.email);
    assert.equal(self.body.is_following, false);
    assert.ok(self.body.last_login);
    const byAdmin = await server.api('GET', `/api/users/by-username/${user.username}`, { token: admin.token });
    assert.equal(byAdmin.body.email, user.email);
    assert.equal(byAdmin.body.is_banned, false);
    const byOther = await server.api('GET', `/api/users/${user.id}`, { token: (await createUser(server)).token });
    assert.equal(byOther.body.email, undefined);
  });

  test('a banned reader is treated as a visitor; a banned user\'s profile stays readable', async () => {
    const [banned, author] = [await createUser(server), await createUser(server)];
    await banInDatabase(server, banned.id, { permanent: true });
    const res = await server.api('GET', `/api/users/${author.id}`, { token: banned.token });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), PUBLIC_KEYS);
    const profile = await server.api('GET', `/api/users/${banned.id}`);
    assert.equal(profile.status, 200);
    assert.equal(profile.body.ban_reason, undefined);
  });

  test('by-username is case-insensitive and keeps the stored spelling', async () => {
    const user = await createUser(server, { username: `MiXed${Date.now()}` });
    for (const name of [user.username, user.username.toLowerCase(), user.username.toUpperCase()]) {
      const res = await server.api('GET', `/api/users/by-username/${encodeURIComponent(name)}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.body.id, user.id);
      assert.equal(res.body.username, user.username);
    }
  });

  test('unicode names chosen before the ASCII rule resolve through URL encoding', async () => {
    const username = `Señora${process.pid}`;
    const { id } = await server.ctx.db.insertInto('users').values({
      username, username_key: username.toLowerCase(), email: `senora${process.pid}@example.com`,
      password_hash: 'x', created_at: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    const res = await server.api('GET', `/api/users/by-username/${encodeURIComponent(username.toUpperCase())}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.id, id);
  });

  const missing = ['/api/users/999999', '/api/users/0', '/api/users/-1', '/api/users/abc', '/api/users/1.5',
    '/api/users/99999999999999999999', '/api/users/by-username/nobody-here', '/api/users/by-username/%20'];
  for (const url of missing) {
    test(`404 User not found for ${url}`, async () => {
      const res = await server.api('GET', url);
      assert.deepEqual([res.status, res.body], [404, { detail: 'User not found' }]);
    });
  }

  test('GET /api/users/me still answers the signed-in user', async () => {
    const user = await createUser(server);
    const me = await server.api('GET', '/api/users/me', { token: user.token });
    assert.deepEqual([me.status, me.body.id, me.body.email], [200, user.id, user.email]);
  });
});

describe('PUT /api/users/me: text fields', () => {
  test('JSON username and bio are trimmed, stored and returned as the private user', async () => {
    const user = await createUser(server, { bio: 'old bio' });
    const name = `  Renamed${Date.now()} `;
    const res = await putMe(user, { json: { username: name, bio: '  A new bio.  ' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.username, name.trim());
    assert.equal(res.body.bio, 'A new bio.');
    assert.equal(res.body.email, user.email);
    const stored = await row(user.id);
    assert.equal(stored.username, name.trim());
    assert.equal(stored.username_key, name.trim().toLowerCase());
    assert.equal(stored.bio, 'A new bio.');
  });

  test('multipart fields work the same way; only the sent fields change', async () => {
    const user = await createUser(server, { bio: 'keep me' });
    const newName = `form${Date.now()}`;
    const res = await putMe(user, { body: multipart({ username: newName }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.username, res.body.bio], [newName, 'keep me']);
    const bioOnly = await putMe(user, { body: multipart({ bio: '' }) });
    assert.deepEqual([bioOnly.status, bioOnly.body.username, bioOnly.body.bio], [200, newName, '']);
  });

  test('the new name is visible at once; the old one is 404; articles show the new name', async () => {
    const user = await createUser(server);
    const post = await createPost(server, user);
    const newName = `moved${Date.now()}`;
    assert.equal((await putMe(user, { json: { username: newName } })).status, 200);
    const found = await server.api('GET', `/api/users/by-username/${newName}`);
    assert.deepEqual([found.status, found.body.id], [200, user.id]);
    const old = await server.api('GET', `/api/users/by-username/${user.username}`);
    assert.deepEqual([old.status, old.body], [404, { detail: 'User not found' }]);
    const article = await server.api('GET', `/api/posts/${post.id}`);
    assert.equal(article.body.author_username, newName);
    // The token names the user by id, so it keeps working after a rename.
    assert.equal((await server.api('GET', '/api/users/me', { token: user.token })).body.username, newName);
  });

  test('409 when another account holds the name in any case; changing only one\'s own case is fine', async () => {
    const [holder, user] = [await createUser(server, { username: `Holder${Date.now()}` }), await createUser(server)];
    for (const name of [holder.username, holder.username.toUpperCase(), ` ${holder.username.toLowerCase()} `]) {
      const res = await putMe(user, { json: { username: name } });
      assert.deepEqual([res.status, res.body], [409, { detail: 'Username is already taken' }], name);
    }
    assert.equal((await row(user.id)).username, user.username);
    const recased = await putMe(holder, { json: { username: holder.username.toUpperCase() } });
    assert.deepEqual([recased.status, recased.body.username], [200, holder.username.toUpperCase()]);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a 2-character username', { username: 'ab' }, 'Username must be between 3 and 35 characters'],
    ['a username of spaces', { username: '     ' }, 'Username must be between 3 and 35 characters'],
    ['an empty username', { username: '' }, 'Username must be between 3 and 35 characters'],
    ['a 36-character username', { username: 'u'.repeat(36) }, 'Username must be between 3 and 35 characters'],
    ['a username that is a number', { username: 12345 }, 'Username must be between 3 and 35 characters'],
    ['a username that is a list', { username: ['abc', 'def'] }, 'Username must be between 3 and 35 characters'],
    ['a username with a slash', { username: 'ana/bob' }, 'Username can only contain letters, numbers, dots, hyphens and underscores'],
    ['a username with a space inside', { username: 'ana bob' }, 'Username can only contain letters, numbers, dots, hyphens and underscores'],
    ['a 501-character bio', { bio: 'b'.repeat(501) }, 'Biography cannot exceed 500 characters'],
    ['a bio that is an object', { bio: { text: 'x' } }, 'Biography must be text'],
    ['remove_avatar that is not a flag', { remove_avatar: 'maybe' }, 'remove_avatar must be true or false'],
  ];
  for (const [name, json, detail] of invalid) {
    test(`400 for ${name}: "${detail}", nothing stored`, async () => {
      const user = await createUser(server, { bio: 'unchanged' });
      const res = await putMe(user, { json: { bio: 'a valid change', ...json } });
      assert.deepEqual([res.status, res.body], [400, { detail }]);
      const stored = await row(user.id);
      assert.deepEqual([stored.username, stored.bio], [user.username, 'unchanged']);
    });
  }

  test('limits are inclusive: a 35-character username, a 3-character one and a 500-character bio', async () => {
    const user = await createUser(server);
    const long = `L${Date.now()}`.padEnd(35, 'x');
    const res = await putMe(user, { json: { username: long, bio: 'b'.repeat(500) } });
    assert.deepEqual([res.status, res.body.username.length, res.body.bio.length], [200, 35, 500]);
    const short = `${process.pid % 10}q${Date.now() % 10}`;
    assert.equal((await putMe(user, { json: { username: short } })).status, 200);
  });

  const unchanged: Array<[string, (u: TestUser) => { json?: unknown; body?: BodyInit }]> = [
    ['an empty JSON object', () => ({ json: {} })],
    ['no body at all', () => ({})],
    ['an empty form', () => ({ body: multipart({}) })],
    ['the same username and bio', (u) => ({ json: { username: u.username, bio: 'same' } })],
    ['the same values padded with spaces', (u) => ({ body: multipart({ username: ` ${u.username} `, bio: ' same ' }) })],
    ['null fields', () => ({ json: { username: null, bio: null } })],
    ['remove_avatar with no avatar', () => ({ json: { remove_avatar: true } })],
    ['only fields a user may not set', () => ({ json: { level: 'admin', mojo: 999, followers_count: 50, email: 'x@y.zz' } })],
  ];
  for (const [name, request] of unchanged) {
    test(`400 No changes have been made for ${name}`, async () => {
      const user = await createUser(server, { bio: 'same' });
      const res = await putMe(user, request(user));
      assert.deepEqual([res.status, res.body], [400, { detail: 'No changes have been made' }]);
      const stored = await row(user.id);
      assert.deepEqual([stored.level, stored.mojo, stored.followers_count, stored.email], ['user', 0, 0, user.email]);
    });
  }

  test('fields a user may not set are ignored beside a real change (no mass assignment)', async () => {
    const user = await createUser(server);
    const res = await putMe(user, { json: { bio: 'changed', level: 'admin', mojo: 999, posts_count: 7, email: 'evil@example.com' } });
    assert.equal(res.status, 200);
    const stored = await row(user.id);
    assert.deepEqual([stored.bio, stored.level, stored.mojo, stored.posts_count, stored.email], ['changed', 'user', 0, 0, user.email]);
  });
});

describe('PUT /api/users/me: avatar', () => {
  test('stored as a single-channel grayscale JPEG, 400×400, without metadata; replaced files are removed', async () => {
    const user = await createUser(server);
    const withExif = await sharp(await samplePng(1200, 900)).jpeg().withMetadata({ exif: { IFD0: { Copyright: 'someone' } } }).toBuffer();
    assert.ok((await sharp(withExif).metadata()).exif, 'the sample carries EXIF');
    const first = await putMe(user, { body: multipart({}, { field: 'avatar', data: withExif, name: 'me.jpg', type: 'image/jpeg' }) });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.match(first.body.avatar, /^\/uploads\/avatar-[0-9a-f]{32}\.jpg$/);
    const meta = await sharp(uploadPath(first.body.avatar)).metadata();
    assert.deepEqual([meta.format, meta.channels, meta.width, meta.height, meta.exif], ['jpeg', 1, 400, 400, undefined]);
    assert.equal((await row(user.id)).avatar, path.basename(first.body.avatar));
    const served = await fetch(server.url + first.body.avatar);
    assert.equal(served.status, 200);

    const second = await putMe(user, { body: multipart({ bio: 'with a new face' }, { field: 'avatar', data: await samplePng(80, 60) }) });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.avatar, first.body.avatar);
    assert.equal(second.body.bio, 'with a new face');
    assert.equal(existsSync(uploadPath(first.body.avatar)), false, 'the old avatar is deleted');
    assert.equal(existsSync(uploadPath(second.body.avatar)), true);
    const small = await sharp(uploadPath(second.body.avatar)).metadata();
    assert.deepEqual([small.channels, small.width! <= 400, small.height! <= 400], [1, true, true]);
  });

  test('remove_avatar=true clears the avatar and deletes its file', async () => {
    const user = await createUser(server);
    const set = await putMe(user, { body: multipart({}, { field: 'avatar', data: await samplePng() }) });
    assert.equal(set.status, 200);
    const removed = await putMe(user, { body: multipart({ remove_avatar: 'true' }) });
    assert.deepEqual([removed.status, removed.body.avatar], [200, null]);
    assert.equal((await row(user.id)).avatar, null);
    assert.equal(existsSync(uploadPath(set.body.avatar)), false);
  });

  test('a file beside remove_avatar=true wins: the avatar is replaced', async () => {
    const user = await createUser(server);
    const res = await putMe(user, { body: multipart({ remove_avatar: 'true' }, { field: 'avatar', data: await samplePng() }) });
    assert.equal(res.status, 200);
    assert.match(res.body.avatar, /^\/uploads\/avatar-/);
  });

  test('400 Please select a valid image file for anything sharp cannot decode, whatever its name says', async () => {
    const user = await createUser(server);
    const files = [
      Buffer.from('this is not a picture'),
      Buffer.alloc(0),
      (await samplePng()).subarray(0, 60),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'),
    ];
    for (const data of files) {
      const before = uploads();
      const res = await putMe(user, { body: multipart({ bio: 'should not be saved' }, { field: 'avatar', data, name: 'photo.png', type: 'image/png' }) });
      assert.deepEqual([res.status, res.body], [400, { detail: 'Please select a valid image file' }]);
      assert.deepEqual(uploads(), before);
    }
    assert.equal((await row(user.id)).bio, '');
  });

  test('413 Image cannot exceed 2MB for 2MB + 1 byte; nothing stored', async () => {
    const user = await createUser(server);
    const before = uploads();
    const res = await putMe(user, { body: multipart({}, { field: 'avatar', data: Buffer.alloc(2 * 1024 * 1024 + 1, 7) }) });
    assert.deepEqual([res.status, res.body], [413, { detail: 'Image cannot exceed 2MB' }]);
    assert.deepEqual(uploads(), before);
  });

  test('a file in another field is refused', async () => {
    const user = await createUser(server);
    const res = await putMe(user, { body: multipart({}, { field: 'image', data: await samplePng() }) });
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /avatar/);
  });

  test('a taken username refuses the request before the image is stored', async () => {
    const [holder, user] = [await createUser(server), await createUser(server)];
    const before = uploads();
    const res = await putMe(user, { body: multipart({ username: holder.username }, { field: 'avatar', data: await samplePng() }) });
    assert.equal(res.status, 409);
    assert.deepEqual(uploads(), before);
  });

  test('when the database write fails, the new file is removed and the old one kept', async () => {
    const user = await createUser(server);
    const set = await putMe(user, { body: multipart({}, { field: 'avatar', data: await samplePng() }) });
    assert.equal(set.status, 200);
    const before = uploads();
    const restore = await failUpdates(server.ctx.db, 'users', 'avatar', user.id);
    try {
      const res = await putMe(user, { body: multipart({}, { field: 'avatar', data: await samplePng(30, 30) }) });
      assert.equal(res.status, 500);
      assert.match(res.body.detail, /^Internal server error/);
    } finally {
      await restore();
    }
    assert.deepEqual(uploads(), before);
    assert.equal((await row(user.id)).avatar, path.basename(set.body.avatar));
  });
});

describe('bad input never gives a 500', () => {
  test('random JSON bodies to PUT /api/users/me get 200 or a 4xx with a detail', async () => {
    const user = await createUser(server);
    const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()), fc.object());
    await fc.assert(fc.asyncProperty(
      fc.oneof(fc.jsonValue(), fc.record({ username: junk, bio: junk, remove_avatar: junk }, { requiredKeys: [] })),
      async (json) => {
        const res = await putMe(user, { json });
        assert.ok(res.status === 200 || (res.status >= 400 && res.status < 500), `${res.status} for ${JSON.stringify(json)}`);
        if (res.status !== 200) assert.equal(typeof res.body.detail, 'string');
      }), { numRuns: 150 });
  });

  test('huge strings and malformed forms are refused cleanly', async () => {
    const user = await createUser(server);
    const cases: Array<[string, { json?: unknown; body?: BodyInit; headers?: Record<string, string> }]> = [
      ['huge JSON username', { json: { username: 'x'.repeat(90_000) } }],
      ['oversized JSON body', { json: { bio: 'x'.repeat(200_000) } }],
      ['huge form field', { body: multipart({ bio: 'x'.repeat(150_000) }) }],
      ['broken multipart', { body: '--nope\r\nContent-Disposition: form-data; name="bio"\r\n\r\nx', headers: { 'content-type': 'multipart/form-data; boundary=nope' } }],
      ['multipart without a boundary', { body: 'x', headers: { 'content-type': 'multipart/form-data' } }],
      ['broken JSON', { body: '{"bio":', headers: { 'content-type': 'application/json' } }],
      ['a JSON array', { json: [1, 2, 3] }],
    ];
    for (const [name, options] of cases) {
      const res = await server.api('PUT', '/api/users/me', { token: user.token, ...options });
      assert.ok(res.status >= 400 && res.status < 500, `${name}: ${res.status}`);
      assert.equal(typeof res.body.detail, 'string', name);
    }
  });

  test('random path segments on the user lookups never give a 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 60 }), async (text) => {
      for (const url of [`/api/users/${encodeURIComponent(text)}`, `/api/users/by-username/${encodeURIComponent(text)}`]) {
        const res = await server.api('GET', url);
        assert.ok(res.status < 500, `${res.status} for ${url}`);
      }
    }), { numRuns: 100 });
  });
});
