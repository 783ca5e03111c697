// Remote authors' pictures are copies kept here (DESIGN.md, The fediverse; the page works offline):
// a follow, a reply or an Update(Person) from the Fedify peer (test/federation-peer.ts, over https)
// queues a `federation.avatar` job, which the server's own runner runs: the picture fetched from
// the peer, re-encoded as a user's avatar is (400×400 grayscale JPEG), kept in the image store and
// answered by the API as /uploads/…; a new address replaces the copy, the old file removed; a
// picture that does not decode leaves none; a deleted or blocked actor takes theirs along. The job
// itself, run directly: never a private address unless FEDERATION_ALLOW_PRIVATE, https only, each
// redirect checked, 2 MB at most, a timeout retried. Migration 0026 queues the actors met before.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Endpoints, Image, Person, Update } from '@fedify/vocab';
import { Migrator } from 'kysely';
import sharp from 'sharp';
import { migrationProvider } from '../../migrations/index.ts';
import { dialectOf, migrateToLatest } from '../../server/db.ts';
import { copyRemoteAvatar } from '../../server/federation/federation.avatar-copy.ts';
import { PermanentJobError } from '../../server/jobs/jobs.runner.ts';
import { startFediversePeer, type FediversePeer } from '../federation-peer.ts';
import { startFederatedServer } from '../federation-servers.ts';
import { freshMigratedDatabase } from '../migration-databases.ts';
import { testCertificate } from '../test-certificate.ts';
import { createAdmin, createUser, samplePng, sqlNumber, type TestServer, type TestUser } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';
import { createPost } from './factories.ts';

const COPY_NAME = /^remote-avatar-[0-9a-f]{32}\.jpg$/;

let server: TestServer;
let peer: FediversePeer;
let admin: TestUser;
let author: TestUser;

before(async () => {
  [server, peer] = await Promise.all([
    startFederatedServer(),
    startFediversePeer({
      actors: ['follower', 'replier', 'mover', 'leaver', 'blockee', { username: 'glitch', avatar: Buffer.from('no picture at all, only words') }],
    }),
  ]);
  [admin, author] = await Promise.all([createAdmin(server), createUser(server)]);
});
after(async () => {
  await server?.stop();
  await peer?.close();
  assert.deepEqual(peer?.errors ?? [], []);
});

const actorUri = (user: TestUser) => `${server.url}/ap/users/${user.id}`;
const actorRow = (username: string) =>
  server.ctx.db.selectFrom('remote_actors').selectAll().where('uri', '=', peer.actors[username]!.id).executeTakeFirst();
/** The copies waiting or under way, or (`failed`) given up. */
const avatarJobs = (failed = false) => sqlNumber(server.ctx.db,
  `SELECT count(*) FROM jobs WHERE kind = 'federation.avatar' AND state ${failed ? '=' : '<>'} 'failed'`);

/** The name of the copy the actor has once it differs from `other` (the one it had). */
async function copyOf(username: string, other: string | null = null): Promise<string> {
  let name: string | null | undefined;
  await waitFor(async () => {
    name = (await actorRow(username))?.avatar;
    return name != null && name !== other;
  }, { what: `a copy of ${username}'s picture`, timeout: 20_000 });
  return name!;
}

/** The copy is in the store and served at /uploads, a JPEG re-encoded as every avatar is. */
async function assertCopy(name: string): Promise<void> {
  assert.match(name, COPY_NAME);
  assert.ok((await server.ctx.images.size(name) ?? 0) > 0, 'the file is in the image store');
  const res = await fetch(`${server.url}/uploads/${name}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/jpeg');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height, meta.channels], ['jpeg', 400, 400, 1]);
}

const gone = async (name: string) => assert.equal(await server.ctx.images.size(name), undefined, `${name} is removed from the store`);
const remoteFollowers = async () => (await server.api('GET', `/api/users/${author.id}/remote-followers?limit=100`)).body.remote_followers as Array<Record<string, any>>;
const followerOf = async (username: string) => (await remoteFollowers()).find((f) => f.handle === peer.actors[username]!.handle);

let updates = 0;
/** Update(Person) from the peer: `username` as before, with its picture at `icon`. */
function updateIcon(username: string, icon: string) {
  updates += 1;
  return peer.send(username, actorUri(author), (_ctx, actor) => new Update({
    id: new URL(`${actor.href}/updates/${updates}`), actor,
    object: new Person({
      id: actor, preferredUsername: username, name: username, url: new URL(peer.actors[username]!.url),
      inbox: new URL(peer.actors[username]!.inbox), endpoints: new Endpoints({ sharedInbox: new URL(`${peer.url}/inbox`) }),
      icon: new Image({ url: new URL(icon), mediaType: 'image/png' }),
    }),
  }));
}

describe('copies made by the job', () => {
  test('a follow leads to a local, re-encoded copy, answered by every list as its /uploads address', async () => {
    await peer.follow('follower', actorUri(author));
    const name = await copyOf('follower');
    await assertCopy(name);
    const row = await actorRow('follower');
    assert.equal(row!.avatar_url, peer.actors.follower!.icon, 'the address its server gave is kept, to know when it changes');

    assert.equal((await followerOf('follower'))!.avatar, `/uploads/${name}`);
    const overview = await server.api('GET', '/api/admin/federation', { token: admin.token });
    assert.equal(overview.status, 200);
    const listed = overview.body.remote_followers.find((f: { handle: string }) => f.handle === peer.actors.follower!.handle);
    assert.equal(listed.avatar, `/uploads/${name}`);
    // Never the peer's address, anywhere.
    assert.ok(!JSON.stringify([await remoteFollowers(), overview.body]).includes(`${peer.url}/avatars/`));
  });

  test('a reply shows its author with the copy; another activity with the same picture copies nothing again', async () => {
    const post = await createPost(server, author);
    await peer.reply('replier', `${server.url}/ap/posts/${post.id}`, '<p>first</p>');
    const name = await copyOf('replier');
    await assertCopy(name);
    const comments = (await server.api('GET', `/api/posts/${post.id}/comments`)).body;
    assert.equal(comments[0].remote_author.avatar, `/uploads/${name}`);

    const reader = await createUser(server);
    const handle = peer.actors.replier!.handle;
    assert.equal((await server.api('PUT', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`, { token: reader.token })).status, 200);
    const mutes = await server.api('GET', '/api/users/me/mutes', { token: reader.token });
    assert.equal(mutes.body.remote[0].avatar, `/uploads/${name}`);

    await peer.reply('replier', `${server.url}/ap/posts/${post.id}`, '<p>second</p>');
    // Had a job been queued with the reply, the copy would be another file once none is left.
    await waitFor(async () => await avatarJobs() === 0, { what: 'no copy waiting' });
    assert.equal((await actorRow('replier'))!.avatar, name);
    await assertCopy(name);
  });

  test('Update(Person) with a new picture replaces the copy; one that does not decode leaves none', async () => {
    await peer.follow('mover', actorUri(author));
    const first = await copyOf('mover');
    await assertCopy(first);

    await updateIcon('mover', `${peer.url}/avatars/mover-again.png`);
    const second = await copyOf('mover', first);
    await assertCopy(second);
    await gone(first);
    assert.equal((await followerOf('mover'))!.avatar, `/uploads/${second}`);

    // Its picture now at an address serving what is no image: given up, and no copy kept.
    const failedBefore = await avatarJobs(true);
    await updateIcon('mover', `${peer.url}/avatars/glitch.png`);
    await waitFor(async () => await avatarJobs(true) === failedBefore + 1, { what: 'the copy given up', timeout: 20_000 });
    const row = await actorRow('mover');
    assert.deepEqual([row!.avatar_url, row!.avatar], [`${peer.url}/avatars/glitch.png`, null]);
    await gone(second);
    assert.equal((await followerOf('mover'))!.avatar, null);
  });

  test('an actor whose picture does not decode has none, and the job is given up at once', async () => {
    const filesBefore = (await server.ctx.images.names()).length;
    const failedBefore = await avatarJobs(true);
    await peer.follow('glitch', actorUri(author));
    await waitFor(async () => await avatarJobs(true) === failedBefore + 1, { what: "glitch's copy given up", timeout: 20_000 });
    const job = await server.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', 'federation.avatar').where('state', '=', 'failed')
      .orderBy('id', 'desc').executeTakeFirstOrThrow();
    const row = await actorRow('glitch');
    assert.deepEqual(JSON.parse(job.payload), { actorId: row!.id, url: peer.actors.glitch!.icon });
    assert.equal(job.attempts, 1, 'not tried again');
    assert.match(job.last_error ?? '', /not a picture that decodes/);
    assert.equal(row!.avatar, null);
    assert.equal((await followerOf('glitch'))!.avatar, null);
    assert.equal((await server.ctx.images.names()).length, filesBefore, 'no file kept');
  });

  test('Delete(Person) takes the copy along', async () => {
    await peer.follow('leaver', actorUri(author));
    const name = await copyOf('leaver');
    await peer.deleteActor('leaver');
    assert.equal(await actorRow('leaver'), undefined);
    await gone(name);
  });

  test('a block takes the copy along; the picture is copied again once the block is lifted and the actor is back', async () => {
    await peer.follow('blockee', actorUri(author));
    const name = await copyOf('blockee');
    const target = peer.actors.blockee!.handle;
    const blocks = `/api/admin/federation/blocks/${encodeURIComponent(target)}`;
    assert.equal((await server.api('PUT', blocks, { token: admin.token })).status, 200);
    try {
      const row = await actorRow('blockee');
      assert.deepEqual([row!.avatar, row!.avatar_url], [null, null]);
      await gone(name);
    } finally {
      assert.equal((await server.api('DELETE', blocks, { token: admin.token })).status, 200);
    }
    await peer.follow('blockee', actorUri(author));
    await assertCopy(await copyOf('blockee', name));
  });
});

/** A picture's server for the job run directly: what each path answers, and every path asked for. */
async function startPictureHost(png: Buffer): Promise<{ url: string; asked: string[]; close(): Promise<void> }> {
  const { key, cert } = testCertificate();
  const asked: string[] = [];
  const host: Server = createServer({ key, cert }, (req, res) => {
    asked.push(req.url ?? '');
    switch (req.url) {
      case '/avatar.png': return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      case '/hop.png': return void res.writeHead(302, { location: '/avatar.png' }).end();
      case '/to-http.png': return void res.writeHead(302, { location: `http://127.0.0.1:${port}/avatar.png` }).end();
      case '/loop.png': return void res.writeHead(302, { location: '/loop.png' }).end();
      case '/large.png': {
        // No length said: the limit is kept while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(Buffer.alloc(1024 * 1024));
        res.write(Buffer.alloc(1024 * 1024));
        return void res.end(Buffer.alloc(16));
      }
      case '/drawing.svg': return void res.writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>');
      case '/silent.png': return; // never answers
      case '/missing.png': return void res.writeHead(404).end();
      default: return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const port = (host.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    asked,
    close: () => new Promise<void>((resolve) => { host.close(() => resolve()); host.closeAllConnections(); }),
  };
}

describe('the job, run directly', () => {
  let pictures: Awaited<ReturnType<typeof startPictureHost>>;
  before(async () => { pictures = await startPictureHost(await samplePng(120, 90)); });
  after(() => pictures?.close());

  let made = 0;
  /** An actor met before, their picture at `avatarUrl`, no copy yet and no job queued; its id. */
  async function actorWith(avatarUrl: string | null): Promise<number> {
    made += 1;
    const uri = `https://elsewhere.example/users/direct${made}`;
    const row = await server.ctx.db.insertInto('remote_actors').values({
      uri, handle: `direct${made}@elsewhere.example`, domain: 'elsewhere.example', name: `Direct ${made}`, url: null,
      avatar_url: avatarUrl, inbox: `${uri}/inbox`, shared_inbox: null, updated_at: new Date().toISOString(),
    }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }
  const avatarOf = async (id: number) => (await server.ctx.db.selectFrom('remote_actors').select('avatar').where('id', '=', id).executeTakeFirstOrThrow()).avatar;
  /** The handler as production runs it (FEDERATION_ALLOW_PRIVATE off), or as the tests do. */
  const run = (id: number, url: string | null, options: { allowPrivateAddress?: boolean; timeoutMs?: number } = {}) =>
    copyRemoteAvatar(server.ctx, { allowPrivateAddress: false, ...options })({ actorId: id, url }, undefined as never);

  test('a private or loopback address is refused before any request, unless FEDERATION_ALLOW_PRIVATE', async () => {
    const port = new URL(pictures.url).port;
    for (const url of [`${pictures.url}/avatar.png`, `https://localhost:${port}/avatar.png`, 'https://10.1.2.3/avatar.png',
      'https://192.168.0.9/a.png', `https://[::1]:${port}/avatar.png`]) {
      const id = await actorWith(url);
      const askedBefore = pictures.asked.length;
      await assert.rejects(run(id, url), (err: Error) => err instanceof PermanentJobError && /^refused: /.test(err.message), url);
      assert.equal(pictures.asked.length, askedBefore, `nothing asked of ${url}`);
      assert.equal(await avatarOf(id), null);
    }
    // The same picture, private addresses allowed (the tests' setting): copied.
    const id = await actorWith(`${pictures.url}/avatar.png`);
    await run(id, `${pictures.url}/avatar.png`, { allowPrivateAddress: true });
    await assertCopy((await avatarOf(id))!);
  });

  test('a redirect is followed when it stays on https, a few at most; size and time are bounded', async () => {
    const allowed = { allowPrivateAddress: true };
    const hop = await actorWith(`${pictures.url}/hop.png`);
    await run(hop, `${pictures.url}/hop.png`, allowed);
    await assertCopy((await avatarOf(hop))!);
    assert.deepEqual(pictures.asked.slice(-2), ['/hop.png', '/avatar.png']);

    const given = [
      ['/to-http.png', /over https only/],
      ['/loop.png', /more than 3 redirects/],
      ['/large.png', /larger than 2097152 bytes/],
      ['/drawing.svg', /not a picture that decodes/],
    ] as const;
    for (const [path, reason] of given) {
      const id = await actorWith(`${pictures.url}${path}`);
      await assert.rejects(run(id, `${pictures.url}${path}`, allowed), (err: Error) => err instanceof PermanentJobError && reason.test(err.message), path);
      assert.equal(await avatarOf(id), null, path);
    }
    // Failures a retry may mend: tried again, as jobs are.
    for (const [path, options] of [['/missing.png', allowed], ['/silent.png', { ...allowed, timeoutMs: 300 }]] as const) {
      const id = await actorWith(`${pictures.url}${path}`);
      await assert.rejects(run(id, `${pictures.url}${path}`, options), (err: Error) => !(err instanceof PermanentJobError), path);
      assert.equal(await avatarOf(id), null, path);
    }
  });

  test('an address that moved on, an actor gone, or one that is not https does nothing but drop the copy', async () => {
    const allowed = { allowPrivateAddress: true };
    const id = await actorWith(`${pictures.url}/avatar.png`);
    const askedBefore = pictures.asked.length;
    // Queued for an address the actor no longer has: a later job has theirs.
    await run(id, `${pictures.url}/hop.png`, allowed);
    await run(999_999, `${pictures.url}/avatar.png`, allowed);
    assert.equal(pictures.asked.length, askedBefore);
    assert.equal(await avatarOf(id), null);

    await run(id, `${pictures.url}/avatar.png`, allowed);
    const copy = (await avatarOf(id))!;
    await assertCopy(copy);
    // Their picture now an http one: never fetched, and no copy.
    await server.ctx.db.updateTable('remote_actors').set({ avatar_url: 'http://elsewhere.example/a.png' }).where('id', '=', id).execute();
    await run(id, 'http://elsewhere.example/a.png', allowed);
    assert.equal(await avatarOf(id), null);
    await gone(copy);
  });
});

test('0026 adds the column and queues a copy of every actor met before with a picture; down and up again', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const provider = migrationProvider(dialectOf(db));
    const migrator = new Migrator({ db, provider });
    const names = Object.keys(await provider.getMigrations());
    const before = names[names.indexOf('0026_remote_avatars') - 1]!;
    assert.equal((await migrator.migrateTo(before)).error, undefined);
    const at = new Date().toISOString();
    const actor = (n: number, avatar: string | null) => ({
      uri: `https://a.example/users/${n}`, handle: `u${n}@a.example`, domain: 'a.example', name: '', url: null,
      avatar_url: avatar, inbox: `https://a.example/users/${n}/inbox`, shared_inbox: null, updated_at: at,
    });
    const rows = await db.insertInto('remote_actors').values([actor(1, 'https://a.example/pic "1".png'), actor(2, null)]).returning('id').execute();

    assert.equal((await migrator.migrateTo('0026_remote_avatars')).error, undefined);
    const jobs = await db.selectFrom('jobs').selectAll().where('kind', '=', 'federation.avatar').execute();
    assert.deepEqual(jobs.map((job) => JSON.parse(job.payload)), [{ actorId: rows[0]!.id, url: 'https://a.example/pic "1".png' }]);
    assert.equal(jobs[0]!.state, 'pending');
    assert.match(jobs[0]!.run_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(jobs[0]!.run_at <= new Date().toISOString());
    assert.deepEqual((await db.selectFrom('remote_actors').select('avatar').orderBy('id').execute()).map((r) => r.avatar), [null, null]);

    assert.equal((await migrator.migrateTo(before)).error, undefined);
    assert.equal(await db.selectFrom('jobs').select('id').where('kind', '=', 'federation.avatar').executeTakeFirst(), undefined);
    assert.deepEqual(await migrateToLatest(db), names.filter((name) => name > before));
  } finally {
    await drop();
  }
});
