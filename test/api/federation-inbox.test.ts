// The inbox (DESIGN.md, The fediverse: Inbox), driven by a real Fedify server beside Beatnik
// (inbox-peer.ts): every activity signed by Fedify and delivered over HTTP, Beatnik fetching its
// actor and key back. Follows are stored and answered by an Accept queued as a job (never sent in
// the request); replies become comments with their remote author, sanitized, counted and
// notified; edits and deletions by their author are honoured, nobody else's; likes and boosts are
// counted; a deleted actor takes everything of theirs along; unsigned or badly signed posts are
// refused (401) and change nothing. Every counter recounts to what is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signRequest } from '@fedify/fedify';
import {
  Add, Announce, Create, Delete, Follow, Like, Note, PUBLIC_COLLECTION, Tombstone, Undo, Update, type Activity,
} from '@fedify/vocab';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { seededRandom } from '../../scripts/seed/corpus.ts';
import { createUser, promoteToAdmin, sqlNumber, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';
import { startInboxPeer, testKeyPairs, type InboxPeer } from './inbox-peer.ts';

const PUBLIC_URL = 'https://paper.test';

let server: TestServer;
let peer: InboxPeer;
let admin: TestUser;

before(async () => {
  server = await startTestServer({
    env: { FEDERATION: 'on', PUBLIC_URL, FEDERATION_ALLOW_PRIVATE: 'true' },
    // Jobs stay in the table, to be seen there: nothing is sent while these tests run.
    jobs: { pollMs: 3_600_000, wakeOnQueue: false },
  });
  peer = await startInboxPeer();
  admin = await createUser(server);
  await promoteToAdmin(server, admin.id);
});
after(async () => {
  await server?.stop();
  await peer?.close();
});

let sequence = 0;
/** A fresh id on the peer for an activity or a Note. */
const peerId = (kind: string) => new URL(`${peer.origin}/${kind}/${(sequence += 1)}`);
let actors = 0;
/** A fresh actor on the peer, for one test. */
async function remoteActor(name = 'Remote Writer'): Promise<string> {
  actors += 1;
  const username = `writer${actors}`;
  peer.addActor(username, name);
  return username;
}
const handleOf = (username: string) => `${username}@${new URL(peer.origin).host}`;

const actorUri = (user: TestUser) => `${PUBLIC_URL}/ap/users/${user.id}`;
const articleUri = (postId: number) => new URL(`${PUBLIC_URL}/ap/posts/${postId}`);
/** The user's own inbox, at the test server's real address. */
const inboxOf = (user: TestUser) => ({ actorUri: actorUri(user), inboxUrl: `${server.url}/ap/users/${user.id}/inbox` });
const sharedInbox = (user: TestUser) => ({ actorUri: actorUri(user), inboxUrl: `${server.url}/ap/inbox` });

const count = (text: string, ...params: unknown[]) => sqlNumber(server.ctx.db, text, ...params);

/** A Follow, to the shared inbox (the personal one makes the user's keys: slow, so only where it is the point). */
async function follow(username: string, user: TestUser, id = peerId('follows'), inbox = sharedInbox(user)): Promise<URL> {
  await peer.send(username, inbox, new Follow({ id, actor: peer.actorUri(username), object: new URL(actorUri(user)) }));
  return id;
}

function noteBy(username: string, html: string, replyTo: URL, id = peerId('notes')): Note {
  return new Note({ id, attribution: peer.actorUri(username), content: html, replyTarget: replyTo, to: PUBLIC_COLLECTION });
}

async function reply(username: string, to: TestUser, replyTo: URL, html: string): Promise<URL> {
  const note = noteBy(username, html, replyTo);
  await peer.send(username, sharedInbox(to), new Create({ id: peerId('creates'), actor: peer.actorUri(username), object: note, to: PUBLIC_COLLECTION }));
  return note.id!;
}

async function commentsOf(postId: number, as?: TestUser) {
  const res = await server.api('GET', `/api/posts/${postId}/comments`, { token: as?.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as Array<Record<string, any>>;
}

async function postOf(postId: number, as?: TestUser) {
  const res = await server.api('GET', `/api/posts/${postId}`, { token: as?.token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function userOf(user: TestUser) {
  return (await server.api('GET', `/api/users/${user.id}`)).body;
}

const acceptJobs = async (user: TestUser) => (await server.ctx.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation.send').execute())
  .map((row) => JSON.parse(String(row.payload))).filter((p) => p.type === 'accept' && p.userId === user.id);

async function activityJson(activity: Activity): Promise<string> {
  return JSON.stringify(await activity.toJsonLd({ contextLoader: peer.context().contextLoader }));
}

describe('follows', () => {
  test('a Follow is stored, counted once, and answered by an Accept queued as a job; Undo takes it back', async () => {
    const author = await createUser(server);
    const bob = await remoteActor('Bob Remote');
    const first = await follow(bob, author, peerId('follows'), inboxOf(author));

    const actor = await server.ctx.db.selectFrom('remote_actors').selectAll().where('uri', '=', peer.actorUri(bob).href).executeTakeFirstOrThrow();
    assert.equal(actor.handle, handleOf(bob));
    assert.equal(actor.domain, new URL(peer.origin).host);
    assert.equal(actor.name, 'Bob Remote');
    assert.equal(actor.url, `${peer.origin}/@${bob}`);
    assert.equal(actor.avatar_url, `${peer.origin}/avatars/${bob}.png`);
    assert.equal(actor.inbox, `${peer.origin}/users/${bob}/inbox`);
    assert.equal(actor.shared_inbox, `${peer.origin}/inbox`);
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 1);
    assert.equal((await userOf(author)).remote_followers_count, 1);
    assert.deepEqual(await acceptJobs(author), [{ type: 'accept', userId: author.id, actorUri: peer.actorUri(bob).href, followUri: first.href }]);

    // Again (its server never had the Accept): one follower still, and the new Follow accepted.
    const second = await follow(bob, author, peerId('follows'), inboxOf(author));
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 1);
    assert.equal((await userOf(author)).remote_followers_count, 1);
    assert.deepEqual((await acceptJobs(author)).map((job) => job.followUri), [first.href, second.href]);

    const list = await server.api('GET', `/api/users/${author.id}/remote-followers`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, {
      remote_followers: [{ handle: `@${handleOf(bob)}`, name: 'Bob Remote', url: `${peer.origin}/@${bob}`, avatar: `${peer.origin}/avatars/${bob}.png` }],
      total: 1,
    });

    await peer.send(bob, inboxOf(author), new Undo({
      id: peerId('undos'), actor: peer.actorUri(bob),
      object: new Follow({ id: second, actor: peer.actorUri(bob), object: new URL(actorUri(author)) }),
    }));
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.equal((await userOf(author)).remote_followers_count, 0);
    assert.deepEqual((await server.api('GET', `/api/users/${author.id}/remote-followers`)).body, { remote_followers: [], total: 0 });
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('the list of remote followers is newest first and paged; an unknown user is a 404', async () => {
    const author = await createUser(server);
    const names = [await remoteActor(), await remoteActor(), await remoteActor()];
    for (const name of names) await follow(name, author);
    const page = await server.api('GET', `/api/users/${author.id}/remote-followers?skip=1&limit=1`);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.remote_followers.map((f: { handle: string }) => f.handle), [`@${handleOf(names[1]!)}`]);
    assert.equal(page.body.total, 3);
    assert.equal((await server.api('GET', '/api/users/999999/remote-followers')).status, 404);
    assert.equal((await server.api('GET', `/api/users/${author.id}/remote-followers?limit=0`)).status, 400);
  });

  test('a banned user\'s would-be followers get nothing: no follower, no Accept', async () => {
    const author = await createUser(server);
    const banned = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: author.id, ban_type: 'permanent', ban_reason: 'spam' },
    });
    assert.equal(banned.status, 200, JSON.stringify(banned.body));
    const eve = await remoteActor();
    // Its personal inbox is not served (a banned actor is no actor); its shared inbox accepts and ignores.
    await peer.send(eve, sharedInbox(author), new Follow({ id: peerId('follows'), actor: peer.actorUri(eve), object: new URL(actorUri(author)) }));
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.deepEqual(await acceptJobs(author), []);
  });
});

describe('signatures', () => {
  test('an unsigned post is refused with 401 and stores nothing', async () => {
    const author = await createUser(server);
    const mallory = await remoteActor();
    const body = await activityJson(new Follow({ id: peerId('follows'), actor: peer.actorUri(mallory), object: new URL(actorUri(author)) }));
    for (const path of [`/ap/users/${author.id}/inbox`, '/ap/inbox']) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body });
      assert.equal(res.status, 401, path);
    }
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', peer.actorUri(mallory).href), 0);
  });

  test('a post signed with a key that is not the actor\'s is refused with 401', async () => {
    const author = await createUser(server);
    const mallory = await remoteActor();
    const post = await createPost(server, author);
    const body = await activityJson(new Like({ id: peerId('likes'), actor: peer.actorUri(mallory), object: articleUri(post.id) }));
    const [forged] = await testKeyPairs();
    const request = await signRequest(new Request(`${server.url}/ap/inbox`, {
      method: 'POST', headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' }, body,
    }), forged!.privateKey, new URL(`${peer.actorUri(mallory).href}#main-key`));
    const res = await fetch(request);
    assert.equal(res.status, 401);
    assert.equal((await postOf(post.id)).likes_count, 0);
  });

  test('an activity Beatnik does not act on is accepted and ignored', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const someone = await remoteActor();
    // Delivered means 2xx: peer.send throws on anything else.
    await peer.send(someone, sharedInbox(author), new Add({ id: peerId('adds'), actor: peer.actorUri(someone), object: articleUri(post.id), target: peerId('collections') }));
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', peer.actorUri(someone).href), 0);
  });
});

describe('replies', () => {
  test('a reply to an article is a comment by its remote author, sanitized, counted and notified; once', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const before = await userOf(author);
    const bob = await remoteActor('Bob Remote');
    const html = '<p>Lovely piece <span class="h-card"><a href="https://elsewhere.example/@x" class="u-url mention" onclick="steal()">@<span>x</span></a></span></p>'
      + '<script>alert(1)</script><p><a href="javascript:alert(1)">click</a> <img src="x" onerror="alert(2)"><b>bold</b></p>';
    const noteId = await reply(bob, author, articleUri(post.id), html);

    const [comment] = await commentsOf(post.id);
    assert.ok(comment);
    assert.equal(comment.author_id, null);
    assert.equal(comment.author_username, null);
    assert.equal(comment.author_avatar, null);
    assert.deepEqual(comment.remote_author, {
      handle: `@${handleOf(bob)}`, name: 'Bob Remote', url: `${peer.origin}/@${bob}`, avatar: `${peer.origin}/avatars/${bob}.png`,
    });
    assert.equal(comment.content_html,
      '<p>Lovely piece <a href="https://elsewhere.example/@x" rel="ugc nofollow noopener noreferrer">@x</a></p><p><a>click</a> <strong>bold</strong></p>');
    for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<img', '<span']) assert.ok(!comment.content_html.includes(bad), bad);
    assert.equal(comment.content, 'Lovely piece @x\n\nclick bold');
    assert.equal(await count('SELECT count(*) FROM comments WHERE remote_uri = ?', noteId.href), 1);

    assert.equal((await postOf(post.id)).comments_count, 1);
    assert.equal((await userOf(author)).mojo > before.mojo, true, 'a comment received moves mojo as a local one does');
    const notices = await server.api('GET', '/api/notifications', { token: author.token });
    assert.ok(notices.body.notifications.some((n: { message: string; post_id: number }) =>
      n.message === `@${handleOf(bob)} commented on "${post.title}"` && n.post_id === post.id), JSON.stringify(notices.body));

    // The same Note delivered again, in another Create: still one comment, counted once.
    await peer.send(bob, sharedInbox(author), new Create({
      id: peerId('creates'), actor: peer.actorUri(bob), object: noteBy(bob, html, articleUri(post.id), noteId), to: PUBLIC_COLLECTION,
    }));
    assert.equal((await commentsOf(post.id)).length, 1);
    assert.equal((await postOf(post.id)).comments_count, 1);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('its author edits and deletes it; nobody else can', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const bob = await remoteActor();
    const carol = await remoteActor();
    const noteId = await reply(bob, author, articleUri(post.id), '<p>first words</p>');
    // Carol knows Beatnik (she follows the author), so only the rule stops her.
    await follow(carol, author);

    // Carol's Update of Bob's Note (attributed to Bob, or to herself): nothing changes.
    for (const by of [bob, carol]) {
      await peer.send(carol, sharedInbox(author), new Update({
        id: peerId('updates'), actor: peer.actorUri(carol), object: noteBy(by, '<p>words put in his mouth</p>', articleUri(post.id), noteId),
      }));
    }
    assert.equal((await commentsOf(post.id))[0]!.content, 'first words');
    await peer.send(carol, sharedInbox(author), new Delete({ id: peerId('deletes'), actor: peer.actorUri(carol), object: noteId }));
    assert.equal((await commentsOf(post.id)).length, 1);

    await peer.send(bob, sharedInbox(author), new Update({
      id: peerId('updates'), actor: peer.actorUri(bob), object: noteBy(bob, '<p>second <em>thoughts</em></p>', articleUri(post.id), noteId),
    }));
    const [edited] = await commentsOf(post.id);
    assert.equal(edited!.content_html, '<p>second <em>thoughts</em></p>');
    assert.equal(edited!.content, 'second thoughts');
    assert.ok(edited!.updated_at > edited!.created_at);

    await peer.send(bob, sharedInbox(author), new Delete({
      id: peerId('deletes'), actor: peer.actorUri(bob), object: new Tombstone({ id: noteId }),
    }));
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a Note attributed to someone other than its sender is ignored', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const [bob, carol] = [await remoteActor(), await remoteActor()];
    await peer.send(carol, sharedInbox(author), new Create({
      id: peerId('creates'), actor: peer.actorUri(carol), object: noteBy(bob, '<p>not mine</p>', articleUri(post.id)),
    }));
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
  });

  test('a reply to a draft or an archived article is refused; one too long or empty too', async () => {
    const author = await createUser(server);
    const draft = await server.api('POST', '/api/posts', {
      token: author.token, body: (() => { const f = new FormData(); f.append('title', 'A draft nobody has read yet'); f.append('draft', 'true'); return f; })(),
    });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    const archived = await createPost(server, author);
    assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token })).status, 200);
    const active = await createPost(server, author);
    const bob = await remoteActor();
    await reply(bob, author, articleUri(draft.body.id), '<p>early</p>');
    await reply(bob, author, articleUri(archived.id), '<p>late</p>');
    await reply(bob, author, articleUri(active.id), `<p>${'long '.repeat(250)}</p>`);
    await reply(bob, author, articleUri(active.id), '<p><img src="x"></p>');
    await reply(bob, author, articleUri(999_999), '<p>nowhere</p>');
    assert.equal(await count('SELECT count(*) FROM comments WHERE post_id IN (?, ?, ?)', draft.body.id, archived.id, active.id), 0);
    assert.equal(await count('SELECT comments_count FROM posts WHERE id = ?', archived.id), 0);
    assert.equal(await count('SELECT comments_count FROM posts WHERE id = ?', draft.body.id), 0);
  });

  test('a reply to a comment, local or from the fediverse, joins the article\'s comments', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const local = await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'A *local* word' } });
    assert.equal(local.status, 201);

    // A local comment is a Note at its own address, answering its article.
    const served = await fetch(`${server.url}/ap/comments/${local.body.id}`, { headers: { accept: 'application/activity+json' } });
    assert.equal(served.status, 200);
    const note = await served.json() as Record<string, unknown>;
    assert.equal(note.type, 'Note');
    assert.equal(note.id, `${PUBLIC_URL}/ap/comments/${local.body.id}`);
    assert.equal(note.inReplyTo, `${PUBLIC_URL}/ap/posts/${post.id}`);
    assert.equal(note.attributedTo, actorUri(reader));

    const bob = await remoteActor();
    const carol = await remoteActor();
    const bobsNote = await reply(bob, author, new URL(`${PUBLIC_URL}/ap/comments/${local.body.id}`), '<p>answering the reader</p>');
    await reply(carol, author, bobsNote, '<p>answering Bob</p>');
    assert.deepEqual((await commentsOf(post.id)).map((c) => c.content), ['A *local* word', 'answering the reader', 'answering Bob']);
    assert.equal((await postOf(post.id)).comments_count, 3);
    // A reply to something elsewhere, that nothing here answers, is no comment.
    await reply(carol, author, peerId('notes'), '<p>off topic</p>');
    assert.equal((await commentsOf(post.id)).length, 3);
  });
});

describe('likes and boosts', () => {
  test('Like and Announce of an article are counted once per actor, and taken back by Undo', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    // Read once first: that visit moves mojo, and the same reader's next ones count no more.
    const read = await postOf(post.id);
    const before = await userOf(author);
    const eventsBefore = await count('SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id);
    const [bob, carol] = [await remoteActor(), await remoteActor()];
    const like = new Like({ id: peerId('likes'), actor: peer.actorUri(bob), object: articleUri(post.id) });
    await peer.send(bob, sharedInbox(author), like);
    await peer.send(bob, sharedInbox(author), new Like({ id: peerId('likes'), actor: peer.actorUri(bob), object: articleUri(post.id) }));
    await peer.send(carol, sharedInbox(author), new Like({ id: peerId('likes'), actor: peer.actorUri(carol), object: articleUri(post.id) }));
    const boost = new Announce({ id: peerId('announces'), actor: peer.actorUri(carol), object: articleUri(post.id), to: PUBLIC_COLLECTION });
    await peer.send(carol, sharedInbox(author), boost);
    let shown = await postOf(post.id);
    assert.equal(shown.likes_count, 2);
    assert.equal(shown.boosts_count, 1);
    // Neither moves mojo (nor its ledger) nor the article's ranking inputs.
    assert.equal((await userOf(author)).mojo, before.mojo);
    assert.equal(await count('SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id), eventsBefore);
    assert.deepEqual([shown.visits, shown.ratings_count, shown.comments_count], [read.visits, 0, 0]);

    await peer.send(bob, sharedInbox(author), new Undo({ id: peerId('undos'), actor: peer.actorUri(bob), object: like }));
    // Named by its id alone.
    await peer.send(carol, sharedInbox(author), new Undo({ id: peerId('undos'), actor: peer.actorUri(carol), object: boost.id }));
    // Bob cannot take back Carol's like.
    await peer.send(bob, sharedInbox(author), new Undo({
      id: peerId('undos'), actor: peer.actorUri(bob), object: new Like({ id: peerId('likes'), actor: peer.actorUri(carol), object: articleUri(post.id) }),
    }));
    shown = await postOf(post.id);
    assert.equal(shown.likes_count, 1);
    assert.equal(shown.boosts_count, 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a like of a draft, or of no article, counts nowhere', async () => {
    const author = await createUser(server);
    const archived = await createPost(server, author);
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token });
    const bob = await remoteActor();
    await peer.send(bob, sharedInbox(author), new Like({ id: peerId('likes'), actor: peer.actorUri(bob), object: articleUri(archived.id) }));
    await peer.send(bob, sharedInbox(author), new Like({ id: peerId('likes'), actor: peer.actorUri(bob), object: peerId('notes') }));
    assert.equal(await count('SELECT likes_count FROM posts WHERE id = ?', archived.id), 0);
    assert.equal(await count('SELECT count(*) FROM post_reactions WHERE post_id = ?', archived.id), 0);
  });
});

describe('a deleted actor', () => {
  async function traces(author: TestUser, username: string) {
    const post = await createPost(server, author);
    await follow(username, author);
    await reply(username, author, articleUri(post.id), '<p>hello</p>');
    await peer.send(username, sharedInbox(author), new Like({ id: peerId('likes'), actor: peer.actorUri(username), object: articleUri(post.id) }));
    await peer.send(username, sharedInbox(author), new Announce({ id: peerId('announces'), actor: peer.actorUri(username), object: articleUri(post.id) }));
    const shown = await postOf(post.id);
    assert.deepEqual([shown.comments_count, shown.likes_count, shown.boosts_count, (await userOf(author)).remote_followers_count], [1, 1, 1, 1]);
    return post;
  }

  async function assertGone(author: TestUser, post: { id: number }, username: string) {
    const shown = await postOf(post.id);
    assert.deepEqual([shown.comments_count, shown.likes_count, shown.boosts_count, (await userOf(author)).remote_followers_count], [0, 0, 0, 0]);
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', peer.actorUri(username).href), 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  }

  test('Delete(Person) removes their follows, comments and reactions, and every counter they moved', async () => {
    const author = await createUser(server);
    const dan = await remoteActor();
    const post = await traces(author, dan);
    await peer.send(dan, sharedInbox(author), new Delete({ id: peerId('deletes'), actor: peer.actorUri(dan), object: peer.actorUri(dan) }));
    await assertGone(author, post, dan);
  });

  test('a Delete of an account whose key went with it is taken when its server says the actor is gone', async () => {
    const author = await createUser(server);
    const erin = await remoteActor();
    const post = await traces(author, erin);
    const body = await activityJson(new Delete({ id: peerId('deletes'), actor: peer.actorUri(erin), object: peer.actorUri(erin) }));
    const keys = peer.actors.get(erin)!.keys;
    const signed = () => signRequest(new Request(`${server.url}/ap/inbox`, {
      method: 'POST', headers: { 'content-type': 'application/activity+json' }, body,
    }), keys[0]!.privateKey, new URL(`${peer.actorUri(erin).href}#main-key`));
    peer.actors.get(erin)!.gone = true;
    // Beatnik's cached copy of the key forgotten: it asks the peer, which answers 404.
    await server.ctx.db.deleteFrom('federation_kv').execute();
    const res = await fetch(await signed());
    assert.equal(res.status, 202);
    await assertGone(author, post, erin);

    // Anyone else's unverifiable Delete of an actor is still refused.
    const frank = await remoteActor();
    await traces(author, frank);
    const [forged] = await testKeyPairs();
    const bodyForFrank = await activityJson(new Delete({ id: peerId('deletes'), actor: peer.actorUri(frank), object: peer.actorUri(frank) }));
    const request = await signRequest(new Request(`${server.url}/ap/inbox`, {
      method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: bodyForFrank,
    }), forged!.privateKey, new URL(`${peer.origin}/nobody#main-key`));
    assert.equal((await fetch(request)).status, 401);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', peer.actorUri(frank).href), 1);
  });
});

describe('remote authors among local readers', () => {
  test('a reader mutes a remote author by handle: their comments come marked, their replies leave no notice', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const bob = await remoteActor('Bob Remote');
    await reply(bob, author, articleUri(post.id), '<p>one</p>');
    const handle = `@${handleOf(bob)}`;

    assert.equal((await server.api('PUT', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`)).status, 401);
    const muted = await server.api('PUT', `/api/users/me/mutes/remote/${encodeURIComponent(handle.slice(1).toUpperCase())}`, { token: reader.token });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    assert.deepEqual(muted.body, { message: `Muted ${handle}`, muted: true });
    assert.deepEqual((await server.api('PUT', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`, { token: reader.token })).body,
      { message: `You have already muted ${handle}`, muted: true });
    const mutes = await server.api('GET', '/api/users/me/mutes', { token: reader.token });
    assert.deepEqual(mutes.body.remote, [{ handle, name: 'Bob Remote', url: `${peer.origin}/@${bob}`, avatar: `${peer.origin}/avatars/${bob}.png` }]);
    assert.deepEqual((await commentsOf(post.id, reader)).map((c) => c.author_muted), [true]);
    assert.deepEqual((await commentsOf(post.id, author)).map((c) => c.author_muted), [false]);

    // The article's author mutes Bob too: his next reply is a comment, and no notice.
    assert.equal((await server.api('PUT', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`, { token: author.token })).status, 200);
    const noticesBefore = await count('SELECT count(*) FROM notifications WHERE user_id = ?', author.id);
    await reply(bob, author, articleUri(post.id), '<p>two</p>');
    assert.equal((await commentsOf(post.id)).length, 2);
    assert.equal(await count('SELECT count(*) FROM notifications WHERE user_id = ?', author.id), noticesBefore);

    assert.deepEqual((await server.api('DELETE', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`, { token: reader.token })).body,
      { message: `Unmuted ${handle}`, muted: false });
    assert.deepEqual((await server.api('DELETE', `/api/users/me/mutes/remote/${encodeURIComponent(handle)}`, { token: reader.token })).body,
      { message: `You have not muted ${handle}`, muted: false });
    assert.deepEqual((await commentsOf(post.id, reader)).map((c) => c.author_muted), [false, false]);

    const unknown = await server.api('PUT', '/api/users/me/mutes/remote/nobody@nowhere.example', { token: reader.token });
    assert.deepEqual([unknown.status, unknown.body.detail], [404, 'Remote author not found']);
    for (const bad of ['nobody', '@a@b@c', '%20']) {
      const res = await server.api('PUT', `/api/users/me/mutes/remote/${bad}`, { token: reader.token });
      assert.deepEqual([res.status, res.body.detail], [400, 'Please enter a handle such as user@example.org'], bad);
    }
  });

  test('a remote comment is reported like any other, and an admin removes it, sending nothing back', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const bob = await remoteActor('Bob Remote');
    await reply(bob, author, articleUri(post.id), '<p>spam spam spam</p>');
    const [comment] = await commentsOf(post.id);

    const report = await server.api('POST', '/api/reports', { token: reader.token, json: { target_type: 'comment', target_id: comment!.id, reason: 'spam' } });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    assert.equal(await count('SELECT count(*) FROM reports WHERE id = ? AND target_author_id IS NULL', report.body.id), 1);
    const groups = await server.api('GET', '/api/admin/reports', { token: admin.token });
    const group = groups.body.reports.find((g: { target_id: number; target_type: string }) => g.target_type === 'comment' && g.target_id === comment!.id);
    assert.ok(group, JSON.stringify(groups.body));
    assert.equal(group.author, null);
    assert.deepEqual(group.remote_author, { handle: `@${handleOf(bob)}`, name: 'Bob Remote', url: `${peer.origin}/@${bob}` });
    assert.equal(group.content.excerpt, 'spam spam spam');

    // Only an admin, with a reason; the author of the article cannot.
    assert.equal((await server.api('DELETE', `/api/comments/${comment!.id}?reason=spam`, { token: author.token })).status, 403);
    assert.equal((await server.api('PUT', `/api/comments/${comment!.id}`, { token: author.token, json: { content: 'x' } })).status, 403);
    const jobsBefore = await count('SELECT count(*) FROM jobs');
    const removed = await server.api('DELETE', `/api/comments/${comment!.id}?reason=spam`, { token: admin.token });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
    assert.equal(await count("SELECT count(*) FROM moderation_log WHERE action = 'delete_comment' AND comment_id = ?", comment!.id), 1);
    assert.equal(await count("SELECT count(*) FROM reports WHERE id = ? AND status = 'closed'", report.body.id), 1);
    // Nothing for its server: no job queued (the reporter's notice is no job without mail).
    assert.equal(await count("SELECT count(*) FROM jobs WHERE kind = 'federation.send'") <= jobsBefore, true);
    assert.equal(await count('SELECT count(*) FROM jobs'), jobsBefore);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });
});

test('counters never drift under a random mix of what remote servers and local authors do', async () => {
  const rnd = seededRandom(7);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  const authors = [await createUser(server), await createUser(server)];
  const names = [await remoteActor(), await remoteActor(), await remoteActor()];
  const posts: Array<{ id: number; author: TestUser }> = [];
  for (const author of authors) for (let i = 0; i < 2; i += 1) posts.push({ id: (await createPost(server, author)).id, author });
  const notes: Array<{ id: URL; by: string; author: TestUser }> = [];
  const reactions: Activity[] = [];
  const log: string[] = [];
  const operations: Array<() => Promise<void>> = [
    async () => { const [name, author] = [pick(names), pick(authors)]; await follow(name, author); log.push('follow'); },
    async () => {
      const [name, author] = [pick(names), pick(authors)];
      await peer.send(name, sharedInbox(author), new Undo({
        id: peerId('undos'), actor: peer.actorUri(name), object: new Follow({ actor: peer.actorUri(name), object: new URL(actorUri(author)) }),
      }));
      log.push('unfollow');
    },
    async () => {
      const [name, post] = [pick(names), pick(posts)];
      notes.push({ id: await reply(name, post.author, articleUri(post.id), `<p>${name} says ${rnd()}</p>`), by: name, author: post.author });
      log.push('reply');
    },
    async () => {
      const note = notes.length ? pick(notes) : undefined;
      if (!note) return;
      await peer.send(note.by, sharedInbox(note.author), new Delete({ id: peerId('deletes'), actor: peer.actorUri(note.by), object: note.id }));
      log.push('delete note');
    },
    async () => {
      const [name, post] = [pick(names), pick(posts)];
      const activity = rnd() < 0.5
        ? new Like({ id: peerId('likes'), actor: peer.actorUri(name), object: articleUri(post.id) })
        : new Announce({ id: peerId('announces'), actor: peer.actorUri(name), object: articleUri(post.id) });
      await peer.send(name, sharedInbox(post.author), activity);
      reactions.push(activity);
      log.push('react');
    },
    async () => {
      const reaction = reactions.length ? pick(reactions) : undefined;
      if (!reaction) return;
      const name = reaction.actorId!.pathname.split('/').pop()!;
      await peer.send(name, sharedInbox(authors[0]!), new Undo({ id: peerId('undos'), actor: reaction.actorId, object: reaction }));
      log.push('unreact');
    },
    async () => {
      const post = pick(posts);
      const res = await server.api('PUT', `/api/posts/${post.id}/archive`, { token: post.author.token });
      log.push(`archive ${res.status}`);
    },
    async () => {
      const remote = await server.ctx.db.selectFrom('comments').select('id').where('remote_uri', 'is not', null)
        .where('post_id', '=', pick(posts).id).executeTakeFirst();
      if (!remote) return;
      const res = await server.api('DELETE', `/api/comments/${remote.id}?reason=spam`, { token: admin.token });
      log.push(`moderate ${res.status}`);
    },
  ];
  for (let i = 0; i < 60; i += 1) await pick(operations)();
  // And one of them leaves the fediverse.
  const gone = pick(names);
  await peer.send(gone, sharedInbox(authors[0]!), new Delete({ id: peerId('deletes'), actor: peer.actorUri(gone), object: peer.actorUri(gone) }));
  assert.deepEqual(await findCounterDrift(server.ctx.db), [], log.slice(-15).join(', '));
  assert.ok(log.includes('reply') && log.includes('react') && log.includes('follow'), 'the mix exercised the inbox');
});
