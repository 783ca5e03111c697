// The federation tests' own machinery, before any Beatnik federates: two Fedify peers on loopback
// find each other by `acct:` handle over https (the test certificate trusted by this process),
// sign what they send and check what they receive; every act a peer offers arrives as the
// activity it names; unsigned or badly signed posts get 401; a Beatnik test instance serves
// https at the PUBLIC_URL it was given, and a process this one spawns trusts it too.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { startFediversePeer, type FediversePeer } from '../federation-peer.ts';
import { startFederatedServer } from '../federation-servers.ts';

let a: FediversePeer;
let b: FediversePeer;
before(async () => {
  [a, b] = await Promise.all([
    startFediversePeer({ actors: ['ann'] }),
    startFediversePeer({ actors: [{ username: 'bob', name: 'Bob Builder', summary: '<p>Builds.</p>' }] }),
  ]);
});
after(async () => {
  await Promise.all([a?.close(), b?.close()]);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('a peer finds another by its acct: handle over https: WebFinger, then the actor with its keys', async () => {
  const webfinger = await fetch(`${b.url}/.well-known/webfinger?resource=acct:bob@${b.host}`);
  assert.equal(webfinger.status, 200);
  const links = (await webfinger.json() as { links: { rel: string; href: string }[] }).links;
  assert.ok(links.some((link) => link.rel === 'self' && link.href === b.actors.bob!.id), JSON.stringify(links));

  const bob = await a.lookup(b.actors.bob!.handle);
  assert.equal(bob?.id?.href, b.actors.bob!.id);
  const raw = await bob!.toJsonLd({ format: 'compact' }) as Record<string, any>;
  assert.equal(raw.type, 'Person');
  assert.equal(raw.name, 'Bob Builder');
  assert.equal(raw.inbox, b.actors.bob!.inbox);
  assert.equal(raw.endpoints.sharedInbox, `${b.url}/inbox`);
  assert.equal(raw.icon.url, b.actors.bob!.icon);
  assert.match(raw.publicKey.publicKeyPem, /BEGIN PUBLIC KEY/);
  assert.ok((raw.assertionMethod as unknown[]).length >= 1, 'an Ed25519 multikey for object proofs');
  assert.equal((await fetch(b.actors.bob!.icon)).headers.get('content-type'), 'image/png');
});

test('a Follow by handle arrives signed and is accepted; its Undo removes the follower', async () => {
  const followId = await a.follow('ann', b.actors.bob!.handle);
  const follow = await b.waitForActivity({ type: 'Follow', id: followId });
  assert.equal(follow.actor, a.actors.ann!.id);
  assert.equal(follow.object, b.actors.bob!.id);
  assert.equal(follow.inbox, null, 'delivered to the shared inbox, as Mastodon does');
  assert.equal(follow.raw.id, followId, 'the body as it was posted');
  const accept = await a.waitForActivity({ type: 'Accept', object: followId });
  assert.equal(accept.actor, b.actors.bob!.id);
  assert.equal(accept.objectType, 'Follow');
  assert.deepEqual(b.followersOf('bob'), [a.actors.ann!.id]);

  const undoId = await a.undo(followId);
  const undo = await b.waitForActivity({ type: 'Undo', id: undoId });
  assert.equal(undo.object, followId);
  assert.deepEqual(b.followersOf('bob'), []);
});

test('a note, its reply, edit and deletion, likes, boosts and their undoing, an account deleted', async () => {
  const noteId = await b.reply('bob', a.actors.ann!.id, '<p>Hello <script>alert(1)</script>Ann</p>', { to: a.actors.ann!.handle });
  const created = await a.waitForActivity({ type: 'Create', object: noteId });
  assert.equal(created.objectType, 'Note');
  assert.equal(created.raw.object.content, '<p>Hello <script>alert(1)</script>Ann</p>', 'the markup as sent, hostile or not');
  assert.equal(created.raw.object.inReplyTo, a.actors.ann!.id);
  assert.equal((await a.lookup(noteId))?.id?.href, noteId, 'the note is served at its id');

  const answerId = await a.reply('ann', noteId, '<p>Hi Bob</p>');
  assert.equal((await b.waitForActivity({ type: 'Create', object: answerId })).raw.object.inReplyTo, noteId, 'sent to the author of what it answers');

  const likeId = await a.like('ann', noteId);
  assert.equal((await b.waitForActivity({ type: 'Like', id: likeId })).object, noteId);
  const boostId = await a.announce('ann', noteId);
  assert.equal((await b.waitForActivity({ type: 'Announce', id: boostId })).object, noteId);
  for (const id of [likeId, boostId]) {
    const undoId = await a.undo(id);
    assert.equal((await b.waitForActivity({ type: 'Undo', id: undoId })).object, id);
  }

  const updateId = await b.updateNote(noteId, '<p>Hello again</p>');
  assert.equal((await a.waitForActivity({ type: 'Update', id: updateId })).raw.object.content, '<p>Hello again</p>');
  const deleteId = await b.deleteNote(noteId);
  const deleted = await a.waitForActivity({ type: 'Delete', id: deleteId });
  assert.deepEqual([deleted.object, deleted.objectType], [noteId, 'Tombstone']);
  assert.equal((await fetch(noteId, { headers: { accept: 'application/activity+json' } })).status, 404);

  const goneId = await b.deleteActor('bob');
  const gone = await a.waitForActivity({ type: 'Delete', id: goneId });
  assert.deepEqual([gone.actor, gone.object], [b.actors.bob!.id, b.actors.bob!.id]);
  assert.equal((await fetch(b.actors.bob!.id, { headers: { accept: 'application/activity+json' } })).status, 410);
});

test('unsigned and badly signed posts to an inbox get 401 and are not recorded', async () => {
  const peer = await startFediversePeer({ actors: ['cara'] });
  try {
    const follow = {
      '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow',
      id: `${a.actors.ann!.id}/follows/unsigned`, actor: a.actors.ann!.id, object: peer.actors.cara!.id,
    };
    assert.equal((await a.postUnsigned(peer.actors.cara!.inbox, follow)).status, 401);
    assert.equal((await a.postBadlySigned('ann', peer.actors.cara!.inbox, follow)).status, 401);
    assert.equal((await a.postBadlySigned('ann', `${peer.url}/inbox`, follow, 'altered-body')).status, 401);
    const reply = await a.draftReply('ann', peer.actors.cara!.id, '<p>unsigned</p>', { to: peer.actors.cara!.handle });
    assert.equal(reply.type, 'Create');
    assert.equal((await a.postUnsigned(`${peer.url}/inbox`, reply)).status, 401);
    assert.deepEqual(peer.received, []);
    assert.deepEqual(peer.followersOf('cara'), []);
    // The same Follow signed as it should be is taken.
    await a.follow('ann', peer.actors.cara!.id);
    assert.deepEqual(peer.followersOf('cara'), [a.actors.ann!.id]);
  } finally {
    await peer.close();
  }
});

test('a Beatnik test instance serves https at its PUBLIC_URL; a spawned process trusts it too', async () => {
  const server = await startFederatedServer();
  try {
    assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.ctx.config.publicUrl, server.url);
    assert.equal((await server.api('GET', '/api/health')).status, 200);
    const script = `fetch(${JSON.stringify(`${server.url}/api/health`)}).then((r) => console.log(r.status))`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
    assert.equal(stdout.trim(), '200');
  } finally {
    await server.stop();
  }
});
