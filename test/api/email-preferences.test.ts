// Settings → Email's choices (DESIGN.md, Mail): DESIGN's defaults, any of the four changed alone,
// a bad value refused with nothing changed, and no such thing without mail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NO_CHANGES_MESSAGE } from '../../shared/accounts.ts';
import { createUser, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';

const PATH = '/api/users/me/email-preferences';
let server: TestServer;

before(async () => {
  // An SMTP_URL nobody answers: these tests send nothing, and mail is on.
  server = await startTestServer({ env: { SMTP_URL: 'smtp://127.0.0.1:9', EMAIL_VERIFICATION: 'off' } });
});
after(() => server.stop());

const read = (user: TestUser) => server.api('GET', PATH, { token: user.token });
const put = (user: TestUser, json: unknown) => server.api('PUT', PATH, { token: user.token, json });

describe('GET|PUT /api/users/me/email-preferences', () => {
  test('starts at comments and mentions on, followers off, no digest', async () => {
    const user = await createUser(server);
    const res = await read(user);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { comments: true, followers: false, mentions: true, digest: 'off' });
  });

  test('changes what is sent and keeps the rest, in the database', async () => {
    const user = await createUser(server);
    const res = await put(user, { followers: true, digest: 'weekly' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { comments: true, followers: true, mentions: true, digest: 'weekly' });
    const again = await put(user, { comments: false });
    assert.deepEqual(again.body, { comments: false, followers: true, mentions: true, digest: 'weekly' });
    assert.deepEqual((await read(user)).body, again.body);
    const [row] = await sqlRows(server.ctx.db, 'SELECT mail_comments, mail_followers, mail_mentions, mail_digest FROM users WHERE id = ?', user.id);
    assert.deepEqual({ ...row }, { mail_comments: 0, mail_followers: 1, mail_mentions: 1, mail_digest: 'weekly' });
  });

  test('refuses a bad value, or nothing to change, and changes nothing', async () => {
    const user = await createUser(server);
    for (const [json, detail] of [
      [{ comments: 'yes', followers: true }, 'comments must be true or false'],
      [{ followers: true, mentions: 1 }, 'mentions must be true or false'],
      [{ followers: true, digest: 'daily' }, 'digest must be "off" or "weekly"'],
      [{}, NO_CHANGES_MESSAGE],
      [{ unknown: true }, NO_CHANGES_MESSAGE],
    ] as const) {
      const res = await put(user, json);
      assert.equal(res.status, 400, JSON.stringify(json));
      assert.deepEqual(res.body, { detail });
    }
    assert.deepEqual((await read(user)).body, { comments: true, followers: false, mentions: true, digest: 'off' });
  });

  test('is one\'s own: without a session, 401', async () => {
    assert.equal((await server.api('GET', PATH)).status, 401);
    assert.equal((await server.api('PUT', PATH, { json: { comments: false } })).status, 401);
  });
});

describe('without SMTP_URL', () => {
  let plain: TestServer;
  before(async () => { plain = await startTestServer(); });
  after(() => plain.stop());

  test('there are no email preferences', async () => {
    const user = await createUser(plain);
    assert.equal((await plain.api('GET', PATH, { token: user.token })).status, 404);
    assert.equal((await plain.api('PUT', PATH, { token: user.token, json: { comments: false } })).status, 404);
  });
});
