// federation-queue as an operator runs it (DESIGN.md, The fediverse: Sending): the activities
// waiting to be sent and the deliveries given up on, each with where it goes and its last error
// (never the keys a queued delivery carries), and failed ones queued again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createUser, sqlRows, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { addRemoteFollower } from '../api/federation-fixtures.ts';
import { cli, query } from './cli-helpers.ts';

let server: TestServer;

before(async () => {
  // A server whose runner never looks: what is queued stays to be seen.
  server = await startTestServer({
    env: { FEDERATION: 'on', PUBLIC_URL: 'https://paper.test', FEDERATION_ALLOW_PRIVATE: 'true' },
    jobs: { pollMs: 3_600_000, wakeOnQueue: false },
  });
});
after(() => server.stop());

/** A delivery of Fedify's as the jobs table keeps it, given up on. */
async function failedDelivery(inbox: string, error: string): Promise<void> {
  const at = new Date().toISOString();
  const message = {
    type: 'outbox', id: 'b9c1', baseUrl: 'https://paper.test', inbox, sharedInbox: true, started: at, attempt: 0,
    keys: [{ keyId: 'https://paper.test/ap/users/1#main-key', privateKey: { kty: 'RSA', d: 'SECRET-PRIVATE-PART' } }],
    activity: { type: 'Create' }, activityId: 'https://paper.test/ap/posts/1#create-1', activityType: 'https://www.w3.org/ns/activitystreams#Create',
    actorIds: ['https://elsewhere.test/users/reader'], headers: {},
  };
  await sqlRows(server.ctx.db,
    "INSERT INTO jobs (kind, queue, payload, state, run_at, attempts, last_error, created_at) VALUES ('federation.fedify', 'federation', ?, 'failed', ?, 12, ?, ?)",
    JSON.stringify(message), at, error, at);
}

test('federation-queue lists what waits and what failed; --retry queues a failed delivery again', async () => {
  const author = await createUser(server);
  await addRemoteFollower(server, author.id, { uri: 'https://elsewhere.test/users/reader', inbox: 'https://elsewhere.test/users/reader/inbox', sharedInbox: 'https://elsewhere.test/inbox' });
  const post = await createPost(server, author);
  await failedDelivery('https://elsewhere.test/inbox', 'Failed to send activity https://paper.test/ap/posts/1#create-1 to https://elsewhere.test/inbox (500 Internal Server Error):\nOops');

  const list = await cli(server.dataDir, ['federation-queue']);
  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trim().split('\n');
  assert.equal(lines[0], '1 waiting, 1 failed');
  assert.match(lines.find((line) => line.includes('federation.send')) ?? '',
    new RegExp(`^#\\d+ next try \\S+, queued \\S+, federation\\.send: create article #${post.id} for the followers of user #${author.id}$`));
  const failed = lines.find((line) => line.includes('failed, queued')) ?? '';
  assert.match(failed, /^#(\d+) failed, queued \S+, federation\.fedify: Create to https:\/\/elsewhere\.test\/inbox \(12 tries; last: Failed to send activity \S+ to https:\/\/elsewhere\.test\/inbox \(500 Internal Server Error\):\)$/);
  assert.ok(!list.stdout.includes('SECRET'), 'keys are never printed');
  const id = /^#(\d+)/.exec(failed)![1]!;

  const retry = await cli(server.dataDir, ['federation-queue', '--retry', id]);
  assert.deepEqual([retry.code, retry.stdout], [0, '1 delivery queued again\n']);
  const [row] = await query(server.dataDir, 'SELECT state, attempts, last_error FROM jobs WHERE id = ?', Number(id));
  assert.deepEqual({ ...row }, { state: 'pending', attempts: 0, last_error: null });
  const again = await cli(server.dataDir, ['federation-queue', '--retry', id]);
  assert.deepEqual([again.code, again.stderr], [1, `admin: No failed delivery with id ${id}\n`]);

  await failedDelivery('https://gone.test/inbox', 'Failed to send activity (410 Gone)');
  await failedDelivery('https://gone.test/users/x/inbox', 'Failed to send activity (410 Gone)');
  const all = await cli(server.dataDir, ['federation-queue', '--retry-all']);
  assert.deepEqual([all.code, all.stdout], [0, '2 deliveries queued again\n']);
  const none = await cli(server.dataDir, ['federation-queue', '--retry-all']);
  assert.deepEqual([none.code, none.stderr], [1, 'admin: No failed delivery to retry\n']);
});

test('federation-queue lists the copies of remote pictures given up on too, and queues them again', async () => {
  const at = new Date().toISOString();
  await sqlRows(server.ctx.db,
    "INSERT INTO jobs (kind, queue, payload, state, run_at, attempts, last_error, created_at) VALUES ('federation.avatar', 'federation', ?, 'failed', ?, 1, ?, ?)",
    JSON.stringify({ actorId: 7, url: 'https://elsewhere.test/pic.png' }), at, 'https://elsewhere.test/pic.png: not a picture that decodes', at);
  const list = await cli(server.dataDir, ['federation-queue']);
  assert.equal(list.code, 0, list.stderr);
  const line = list.stdout.split('\n').find((text) => text.includes('federation.avatar')) ?? '';
  assert.match(line, /^#(\d+) failed, queued \S+, federation\.avatar: copy of remote actor #7's picture from https:\/\/elsewhere\.test\/pic\.png \(1 try; last: https:\/\/elsewhere\.test\/pic\.png: not a picture that decodes\)$/);
  const retry = await cli(server.dataDir, ['federation-queue', '--retry', /^#(\d+)/.exec(line)![1]!]);
  assert.deepEqual([retry.code, retry.stdout], [0, '1 delivery queued again\n']);
});

test('federation-queue refuses a bad id (exit 2)', async () => {
  const bad = await cli(server.dataDir, ['federation-queue', '--retry', 'first']);
  assert.deepEqual([bad.code, bad.stderr], [2, 'admin: --retry needs a job id (from federation-queue) (see "npm run admin -- help federation-queue")\n']);
});
