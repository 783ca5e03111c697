// The inbox (DESIGN.md, The fediverse: Inbox), driven by the Fedify server standing in for
// Mastodon (test/federation-peer.ts) against a Beatnik instance over https: every activity signed
// by Fedify and delivered for real, Beatnik fetching its actor and key back. Follows are stored
// and answered by an Accept queued as a job (never sent in the request); replies become comments
// with their remote author, sanitized, counted and notified; edits and deletions by their author
// are honoured, nobody else's; likes and boosts are counted; a deleted actor takes everything of
// theirs along; unsigned or badly signed posts are refused (401) and change nothing. Every
// counter recounts to what is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Add, Announce, Create, Delete, Follow, Like, Note, PUBLIC_COLLECTION, Undo, Update } from '@fedify/vocab';
import { findCounterDrift } from '../../server/maintenance/counters.ts';
import { seededRandom } from '../../scripts/seed/corpus.ts';
import { startFediversePeer, type FediversePeer } from '../federation-peer.ts';
import { startFederatedServer } from '../federation-servers.ts';
import { createAdmin, createUser, sqlNumber, type TestServer, type TestUser } from '../helpers.ts';
import { createPost } from './factories.ts';

/** The peer's accounts: each test takes fresh ones, so that none sees another's traces. */
const POOL = 40;

let server: TestServer;
let peer: FediversePeer;
let admin: TestUser;

before(async () => {
  [server, peer] = await Promise.all([
    // Jobs stay in the table, to be seen there: nothing is sent while these tests run.
    startFederatedServer({ jobs: { pollMs: 3_600_000, wakeOnQueue: false } }),
    startFediversePeer({ actors: Array.from({ length: POOL }, (_, i) => ({ username: `writer${i + 1}`, name: `Remote Writer ${i + 1}` })) }),
  ]);
  admin = await createAdmin(server);
});
after(async () => {
  await server?.stop();
  await peer?.close();
  assert.deepEqual(peer?.errors ?? [], []);
});

let taken = 0;
/** A fresh account of the peer, for one test. */
function remoteActor(): string {
  taken += 1;
  assert.ok(taken <= POOL, 'the pool of remote accounts is large enough');
  return `writer${taken}`;
}
const handleOf = (username: string) => peer.actors[username]!.handle;
const idOf = (username: string) => peer.actors[username]!.id;
let sequence = 0;
/** A fresh id on the peer for an activity or a Note built by a test. */
const peerId = (actor: URL, kind: string) => new URL(`${actor.href}/${kind}/t${(sequence += 1)}`);

const actorUri = (user: TestUser) => `${server.url}/ap/users/${user.id}`;
const articleUri = (postId: number) => `${server.url}/ap/posts/${postId}`;

const count = (text: string, ...params: unknown[]) => sqlNumber(server.ctx.db, text, ...params);

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

/** The copies of an actor's picture queued (federation.avatar), which this file's server never runs. */
const avatarJobs = async (actorId: number) => (await server.ctx.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation.avatar').execute())
  .map((row) => JSON.parse(String(row.payload))).filter((p) => p.actorId === actorId);

const acceptJobs = async (user: TestUser) => (await server.ctx.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation.send').execute())
  .map((row) => JSON.parse(String(row.payload))).filter((p) => p.type === 'accept' && p.userId === user.id);

/** A Note by `by` answering `replyTo`, as a test builds one (to send it under another's name, say). */
const noteOf = (by: string, html: string, replyTo: string, id: URL) =>
  new Note({ id, attribution: new URL(idOf(by)), content: html, replyTarget: new URL(replyTo), to: PUBLIC_COLLECTION });

describe('follows', () => {
  test('a Follow is stored, counted once, and answered by an Accept queued as a job; Undo takes it back', async () => {
    const author = await createUser(server);
    const bob = remoteActor();
    const first = await peer.follow(bob, actorUri(author));

    const actor = await server.ctx.db.selectFrom('remote_actors').selectAll().where('uri', '=', idOf(bob)).executeTakeFirstOrThrow();
    assert.equal(`@${actor.handle}`, handleOf(bob));
    assert.equal(actor.domain, peer.host);
    assert.equal(actor.name, peer.actors[bob]!.name);
    assert.equal(actor.url, peer.actors[bob]!.url);
    assert.equal(actor.avatar_url, peer.actors[bob]!.icon);
    // Its picture is copied by a job queued with the follow; until it has run, none is shown.
    assert.equal(actor.avatar, null);
    assert.deepEqual(await avatarJobs(actor.id), [{ actorId: actor.id, url: peer.actors[bob]!.icon }]);
    assert.equal(actor.inbox, peer.actors[bob]!.inbox);
    assert.equal(actor.shared_inbox, `${peer.url}/inbox`);
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 1);
    assert.equal((await userOf(author)).remote_followers_count, 1);
    assert.deepEqual(await acceptJobs(author), [{ type: 'accept', userId: author.id, actorUri: idOf(bob), followUri: first }]);

    // Again (its server never had the Accept): one follower still, and the new Follow accepted.
    const second = await peer.follow(bob, actorUri(author));
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 1);
    assert.equal((await userOf(author)).remote_followers_count, 1);
    assert.deepEqual((await acceptJobs(author)).map((job) => job.followUri), [first, second]);
    assert.equal((await avatarJobs(actor.id)).length, 1, 'the same picture is not copied again');

    const list = await server.api('GET', `/api/users/${author.id}/remote-followers`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, {
      remote_followers: [{ handle: handleOf(bob), name: peer.actors[bob]!.name, url: peer.actors[bob]!.url, avatar: null }],
      total: 1,
    });

    await peer.undo(second);
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.equal((await userOf(author)).remote_followers_count, 0);
    assert.deepEqual((await server.api('GET', `/api/users/${author.id}/remote-followers`)).body, { remote_followers: [], total: 0 });
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('the list of remote followers is newest first and paged; an unknown user is a 404', async () => {
    const author = await createUser(server);
    const names = [remoteActor(), remoteActor(), remoteActor()];
    for (const name of names) await peer.follow(name, actorUri(author));
    const page = await server.api('GET', `/api/users/${author.id}/remote-followers?skip=1&limit=1`);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body.remote_followers.map((f: { handle: string }) => f.handle), [handleOf(names[1]!)]);
    assert.equal(page.body.total, 3);
    assert.equal((await server.api('GET', '/api/users/999999/remote-followers')).status, 404);
    assert.equal((await server.api('GET', `/api/users/${author.id}/remote-followers?limit=0`)).status, 400);
  });

  test('a banned user\'s would-be followers get nothing: no follower, no Accept', async () => {
    const author = await createUser(server);
    const someone = await createUser(server);
    const eve = remoteActor();
    const banned = await server.api('POST', '/api/admin/ban-user', {
      token: admin.token, json: { user_id: author.id, ban_type: 'permanent', ban_reason: 'spam' },
    });
    assert.equal(banned.status, 200, JSON.stringify(banned.body));
    // A banned user is no actor to be found; a Follow of theirs reaches the shared inbox (through
    // another user's actor), which accepts it and stores nothing.
    assert.equal(await peer.lookup(actorUri(author)), null);
    await peer.send(eve, actorUri(someone), (_ctx, actor) => new Follow({ id: peerId(actor, 'follows'), actor, object: new URL(actorUri(author)) }));
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.deepEqual(await acceptJobs(author), []);
  });
});

describe('signatures', () => {
  test('an unsigned post is refused with 401 and stores nothing', async () => {
    const author = await createUser(server);
    const mallory = remoteActor();
    const follow = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${idOf(mallory)}/follows/unsigned`, type: 'Follow', actor: idOf(mallory), object: actorUri(author) };
    for (const inbox of [`${actorUri(author)}/inbox`, `${server.url}/ap/inbox`]) {
      assert.equal((await peer.postUnsigned(inbox, follow)).status, 401, inbox);
    }
    assert.equal(await count('SELECT count(*) FROM remote_followers WHERE user_id = ?', author.id), 0);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', idOf(mallory)), 0);
  });

  test('a post signed by a key that is not the actor\'s, or over another body, is refused with 401', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const mallory = remoteActor();
    const like = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${idOf(mallory)}/likes/forged`, type: 'Like', actor: idOf(mallory), object: articleUri(post.id) };
    for (const how of ['wrong-key', 'altered-body'] as const) {
      assert.equal((await peer.postBadlySigned(mallory, `${server.url}/ap/inbox`, like, how)).status, 401, how);
    }
    assert.equal((await postOf(post.id)).likes_count, 0);
    assert.equal(await count('SELECT count(*) FROM post_reactions WHERE post_id = ?', post.id), 0);
  });

  test('a post soundly signed by a key of another server than its actor\'s is refused with 401, however the actor is written', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const mallory = remoteActor();
    // Fedify believes a key document's `owner`: a key served by mallory's server could claim alice.
    const alice = 'https://victim.example/users/alice';
    const likes = [
      { actor: alice },
      { actor: { id: alice, type: 'Person' } },
      { actor: { '@id': alice } },
      { 'https://www.w3.org/ns/activitystreams#actor': alice },
    ].map((actor, n) => ({ '@context': 'https://www.w3.org/ns/activitystreams', id: `https://victim.example/likes/${n}`, type: 'Like', ...actor, object: articleUri(post.id) }));
    for (const like of likes) {
      const answer = await peer.postBadlySigned(mallory, `${server.url}/ap/inbox`, like, 'as-is');
      assert.equal(answer.status, 401, JSON.stringify(like));
      assert.match(answer.body, /is not one of https:\/\/victim\.example's/);
    }
    // Signed, and no actor to be read: refused too.
    const nobody = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${idOf(mallory)}/likes/nobody`, type: 'Like', object: articleUri(post.id) };
    assert.equal((await peer.postBadlySigned(mallory, `${server.url}/ap/inbox`, nobody, 'as-is')).status, 401);
    assert.equal((await postOf(post.id)).likes_count, 0);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', alice), 0);
  });

  test('an activity Beatnik does not act on is accepted and ignored', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const someone = remoteActor();
    // Delivered means 2xx: the peer's send rejects anything else.
    await peer.send(someone, actorUri(author), (_ctx, actor) => new Add({
      id: peerId(actor, 'adds'), actor, object: new URL(articleUri(post.id)), target: peerId(actor, 'collections'),
    }));
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', idOf(someone)), 0);
  });
});

describe('replies', () => {
  test('a reply\'s control and invisible characters, raw or as entities, are dropped, on either database', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const bob = remoteActor();
    await peer.reply(bob, articleUri(post.id), '<p>nul\u0000 here, &#0; there, and \u202Eturned\u202C or hid\u200Bden&#x202E;&zwj;</p>');
    const [comment] = await commentsOf(post.id);
    assert.ok(comment, 'stored');
    assert.equal(comment.content, 'nul here,  there, and turned or hidden');
    assert.doesNotMatch(comment.content_html, /[\u0000\u202E\u202C\u200B]/);
    assert.equal(comment.content_html, '<p>nul here,  there, and turned or hidden</p>', 'no reference to one either');
  });

  test('an activity whose id is longer than 2,048 characters is refused with 400, before anything is stored', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const mallory = remoteActor();
    const like = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${idOf(mallory)}/likes/${'x'.repeat(3_000)}`, type: 'Like', actor: idOf(mallory), object: articleUri(post.id) };
    const answer = await peer.postBadlySigned(mallory, `${server.url}/ap/inbox`, like, 'as-is');
    assert.deepEqual([answer.status, JSON.parse(answer.body)], [400, { detail: 'Ids longer than 2048 characters are not taken' }]);
    assert.equal((await postOf(post.id)).likes_count, 0);
  });

  test('a reply to an article is a comment by its remote author, sanitized, counted and notified; once', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const before = await userOf(author);
    const bob = remoteActor();
    const html = '<p>Lovely piece <span class="h-card"><a href="https://elsewhere.example/@x" class="u-url mention" onclick="steal()">@<span>x</span></a></span></p>'
      + '<script>alert(1)</script><p><a href="javascript:alert(1)">click</a> <img src="x" onerror="alert(2)"><b>bold</b></p>';
    const noteId = await peer.reply(bob, articleUri(post.id), html);

    const [comment] = await commentsOf(post.id);
    assert.ok(comment);
    assert.equal(comment.author_id, null);
    assert.equal(comment.author_username, null);
    assert.equal(comment.author_avatar, null);
    assert.deepEqual(comment.remote_author, {
      handle: handleOf(bob), name: peer.actors[bob]!.name, url: peer.actors[bob]!.url, avatar: null,
    });
    assert.equal(comment.content_html,
      '<p>Lovely piece <a href="https://elsewhere.example/@x" rel="ugc nofollow noopener noreferrer">@x</a></p><p><a>click</a> <strong>bold</strong></p>');
    for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<img', '<span']) assert.ok(!comment.content_html.includes(bad), bad);
    assert.equal(comment.content, 'Lovely piece @x\n\nclick bold');
    assert.equal(await count('SELECT count(*) FROM comments WHERE remote_uri = ?', noteId), 1);

    assert.equal((await postOf(post.id)).comments_count, 1);
    assert.equal((await userOf(author)).mojo > before.mojo, true, 'a comment received moves mojo as a local one does');
    const notices = await server.api('GET', '/api/notifications', { token: author.token });
    assert.ok(notices.body.notifications.some((n: { message: string; post_id: number }) =>
      n.message === `${handleOf(bob)} commented on "${post.title}"` && n.post_id === post.id), JSON.stringify(notices.body));

    // The same Note delivered again, in another Create: still one comment, counted once.
    await peer.send(bob, actorUri(author), (_ctx, actor) => new Create({
      id: peerId(actor, 'creates'), actor, object: noteOf(bob, html, articleUri(post.id), new URL(noteId)), to: PUBLIC_COLLECTION,
    }));
    assert.equal((await commentsOf(post.id)).length, 1);
    assert.equal((await postOf(post.id)).comments_count, 1);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('its author edits and deletes it; nobody else can', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const bob = remoteActor();
    const carol = remoteActor();
    const noteId = await peer.reply(bob, articleUri(post.id), '<p>first words</p>');

    // Carol's Update of Bob's Note (attributed to Bob, or to herself), her Delete of it: nothing changes.
    for (const by of [bob, carol]) {
      await peer.send(carol, actorUri(author), (_ctx, actor) => new Update({
        id: peerId(actor, 'updates'), actor, object: noteOf(by, '<p>words put in his mouth</p>', articleUri(post.id), new URL(noteId)),
      }));
    }
    assert.equal((await commentsOf(post.id))[0]!.content, 'first words');
    await peer.send(carol, actorUri(author), (_ctx, actor) => new Delete({ id: peerId(actor, 'deletes'), actor, object: new URL(noteId) }));
    assert.equal((await commentsOf(post.id)).length, 1);

    await peer.updateNote(noteId, '<p>second <em>thoughts</em></p>');
    const [edited] = await commentsOf(post.id);
    assert.equal(edited!.content_html, '<p>second <em>thoughts</em></p>');
    assert.equal(edited!.content, 'second thoughts');
    assert.ok(edited!.updated_at > edited!.created_at);

    await peer.deleteNote(noteId);
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a Note attributed to someone other than its sender is ignored', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author);
    const [bob, carol] = [remoteActor(), remoteActor()];
    await peer.send(carol, actorUri(author), (_ctx, actor) => new Create({
      id: peerId(actor, 'creates'), actor, object: noteOf(bob, '<p>not mine</p>', articleUri(post.id), peerId(actor, 'notes')),
    }));
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
  });

  test('a reply to a draft or an archived article is refused; one too long or empty too', async () => {
    const author = await createUser(server);
    const form = new FormData();
    form.append('title', 'A draft nobody has read yet');
    form.append('draft', 'true');
    const draft = await server.api('POST', '/api/posts', { token: author.token, body: form });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    const archived = await createPost(server, author);
    assert.equal((await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token })).status, 200);
    const active = await createPost(server, author);
    const bob = remoteActor();
    const to = { to: actorUri(author) };
    await peer.reply(bob, articleUri(draft.body.id), '<p>early</p>', to);
    await peer.reply(bob, articleUri(archived.id), '<p>late</p>', to);
    await peer.reply(bob, articleUri(active.id), `<p>${'long '.repeat(250)}</p>`, to);
    await peer.reply(bob, articleUri(active.id), '<p><img src="x"></p>', to);
    await peer.reply(bob, articleUri(999_999), '<p>nowhere</p>', to);
    assert.equal(await count('SELECT count(*) FROM comments WHERE post_id IN (?, ?, ?)', draft.body.id, archived.id, active.id), 0);
    assert.equal(await count('SELECT comments_count FROM posts WHERE id = ?', archived.id), 0);
    assert.equal(await count('SELECT comments_count FROM posts WHERE id = ?', draft.body.id), 0);
    assert.equal(await count('SELECT comments_count FROM posts WHERE id = ?', active.id), 0);
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
    assert.equal(note.id, `${server.url}/ap/comments/${local.body.id}`);
    assert.equal(note.inReplyTo, articleUri(post.id));
    assert.equal(note.attributedTo, actorUri(reader));

    const [bob, carol] = [remoteActor(), remoteActor()];
    // Sent to the comment's author, as Mastodon does.
    const bobsNote = await peer.reply(bob, `${server.url}/ap/comments/${local.body.id}`, '<p>answering the reader</p>');
    await peer.reply(carol, bobsNote, '<p>answering Bob</p>', { to: actorUri(author) });
    assert.deepEqual((await commentsOf(post.id)).map((c) => c.content), ['A *local* word', 'answering the reader', 'answering Bob']);
    assert.equal((await postOf(post.id)).comments_count, 3);
    // A reply to something elsewhere that nothing here answers is no comment.
    await peer.reply(carol, `${peer.url}/users/${carol}/notes/elsewhere`, '<p>off topic</p>', { to: actorUri(author) });
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
    const [bob, carol] = [remoteActor(), remoteActor()];
    const like = await peer.like(bob, articleUri(post.id));
    await peer.like(bob, articleUri(post.id));
    const carolsLike = await peer.like(carol, articleUri(post.id));
    const boost = await peer.announce(carol, articleUri(post.id));
    let shown = await postOf(post.id);
    assert.equal(shown.likes_count, 2);
    assert.equal(shown.boosts_count, 1);
    // Neither moves mojo (nor its ledger) nor the article's ranking inputs.
    assert.equal((await userOf(author)).mojo, before.mojo);
    assert.equal(await count('SELECT count(*) FROM mojo_events WHERE user_id = ?', author.id), eventsBefore);
    assert.deepEqual([shown.visits, shown.ratings_count, shown.comments_count], [read.visits, 0, 0]);

    await peer.undo(like);
    // Named by its id alone.
    await peer.send(carol, actorUri(author), (_ctx, actor) => new Undo({ id: peerId(actor, 'undos'), actor, object: new URL(boost) }));
    // Bob cannot take back Carol's like.
    await peer.send(bob, actorUri(author), (_ctx, actor) => new Undo({
      id: peerId(actor, 'undos'), actor, object: new Like({ id: new URL(carolsLike), actor: new URL(idOf(carol)), object: new URL(articleUri(post.id)) }),
    }));
    shown = await postOf(post.id);
    assert.equal(shown.likes_count, 1);
    assert.equal(shown.boosts_count, 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });

  test('a like of an archived article, or of nothing here, counts nowhere', async () => {
    const author = await createUser(server);
    const archived = await createPost(server, author);
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token });
    const bob = remoteActor();
    for (const object of [articleUri(archived.id), `${peer.url}/users/${bob}/notes/elsewhere`]) {
      await peer.send(bob, actorUri(author), (_ctx, actor) => new Like({ id: peerId(actor, 'likes'), actor, object: new URL(object) }));
    }
    assert.equal(await count('SELECT likes_count FROM posts WHERE id = ?', archived.id), 0);
    assert.equal(await count('SELECT count(*) FROM post_reactions WHERE post_id = ?', archived.id), 0);
  });
});

describe('a deleted actor', () => {
  async function traces(author: TestUser, username: string) {
    const post = await createPost(server, author);
    await peer.follow(username, actorUri(author));
    await peer.reply(username, articleUri(post.id), '<p>hello</p>');
    await peer.like(username, articleUri(post.id));
    await peer.announce(username, articleUri(post.id));
    const shown = await postOf(post.id);
    assert.deepEqual([shown.comments_count, shown.likes_count, shown.boosts_count, (await userOf(author)).remote_followers_count], [1, 1, 1, 1]);
    return post;
  }

  async function assertGone(author: TestUser, post: { id: number }, username: string) {
    const shown = await postOf(post.id);
    assert.deepEqual([shown.comments_count, shown.likes_count, shown.boosts_count, (await userOf(author)).remote_followers_count], [0, 0, 0, 0]);
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', idOf(username)), 0);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  }

  test('Delete(Person) removes their follows, comments and reactions, and every counter they moved', async () => {
    const author = await createUser(server);
    const dan = remoteActor();
    const post = await traces(author, dan);
    await peer.deleteActor(dan);
    await assertGone(author, post, dan);
  });

  test('the Delete of an account whose key went with it is taken when its own server says the actor is gone', async () => {
    const author = await createUser(server);
    const erin = remoteActor();
    const post = await traces(author, erin);
    // Beatnik's copy of the key forgotten, and the account gone (410) before its Delete arrives.
    await server.ctx.db.deleteFrom('federation_kv').execute();
    await peer.deleteActor(erin, { goneFirst: true });
    await assertGone(author, post, erin);

    // Anyone else's unverifiable Delete of an actor is still refused.
    const frank = remoteActor();
    await traces(author, frank);
    const remove = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${idOf(frank)}#delete`, type: 'Delete', actor: idOf(frank), object: idOf(frank) };
    assert.equal((await peer.postBadlySigned(frank, `${server.url}/ap/inbox`, remove, 'wrong-key')).status, 401);
    assert.equal(await count('SELECT count(*) FROM remote_actors WHERE uri = ?', idOf(frank)), 1);
  });
});

describe('remote authors among local readers', () => {
  test('a reader mutes a remote author by handle: their comments come marked, their replies leave no notice', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const bob = remoteActor();
    await peer.reply(bob, articleUri(post.id), '<p>one</p>');
    const handle = handleOf(bob);
    const path = (h: string) => `/api/users/me/mutes/remote/${encodeURIComponent(h)}`;

    assert.equal((await server.api('PUT', path(handle))).status, 401);
    const muted = await server.api('PUT', path(handle.slice(1).toUpperCase()), { token: reader.token });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    assert.deepEqual(muted.body, { message: `Muted ${handle}`, muted: true });
    assert.deepEqual((await server.api('PUT', path(handle), { token: reader.token })).body, { message: `You have already muted ${handle}`, muted: true });
    const mutes = await server.api('GET', '/api/users/me/mutes', { token: reader.token });
    assert.deepEqual(mutes.body.remote, [{ handle, name: peer.actors[bob]!.name, url: peer.actors[bob]!.url, avatar: null }]);
    assert.deepEqual((await commentsOf(post.id, reader)).map((c) => c.author_muted), [true]);
    assert.deepEqual((await commentsOf(post.id, author)).map((c) => c.author_muted), [false]);

    // The article's author mutes Bob too: his next reply is a comment, and no notice.
    assert.equal((await server.api('PUT', path(handle), { token: author.token })).status, 200);
    const noticesBefore = await count('SELECT count(*) FROM notifications WHERE user_id = ?', author.id);
    await peer.reply(bob, articleUri(post.id), '<p>two</p>');
    assert.equal((await commentsOf(post.id)).length, 2);
    assert.equal(await count('SELECT count(*) FROM notifications WHERE user_id = ?', author.id), noticesBefore);

    assert.deepEqual((await server.api('DELETE', path(handle), { token: reader.token })).body, { message: `Unmuted ${handle}`, muted: false });
    assert.deepEqual((await server.api('DELETE', path(handle), { token: reader.token })).body, { message: `You have not muted ${handle}`, muted: false });
    assert.deepEqual((await commentsOf(post.id, reader)).map((c) => c.author_muted), [false, false]);

    const unknown = await server.api('PUT', path('nobody@nowhere.example'), { token: reader.token });
    assert.deepEqual([unknown.status, unknown.body.detail], [404, 'Remote author not found']);
    for (const bad of ['nobody', '@a@b@c', ' ']) {
      const res = await server.api('PUT', path(bad), { token: reader.token });
      assert.deepEqual([res.status, res.body.detail], [400, 'Please enter a handle such as user@example.org'], bad);
    }
  });

  test('a remote comment is reported like any other, and an admin removes it, sending nothing back', async () => {
    const author = await createUser(server);
    const reader = await createUser(server);
    const post = await createPost(server, author);
    const bob = remoteActor();
    await peer.reply(bob, articleUri(post.id), '<p>spam spam spam</p>');
    const [comment] = await commentsOf(post.id);

    const report = await server.api('POST', '/api/reports', { token: reader.token, json: { target_type: 'comment', target_id: comment!.id, reason: 'spam' } });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    assert.equal(await count('SELECT count(*) FROM reports WHERE id = ? AND target_author_id IS NULL', report.body.id), 1);
    const groups = await server.api('GET', '/api/admin/reports', { token: admin.token });
    const group = groups.body.reports.find((g: { target_id: number; target_type: string }) => g.target_type === 'comment' && g.target_id === comment!.id);
    assert.ok(group, JSON.stringify(groups.body));
    assert.equal(group.author, null);
    assert.deepEqual(group.remote_author, { handle: handleOf(bob), name: peer.actors[bob]!.name, url: peer.actors[bob]!.url });
    assert.equal(group.content.excerpt, 'spam spam spam');

    // Only an admin, with a reason; not the article's author, and nobody edits it.
    assert.equal((await server.api('DELETE', `/api/comments/${comment!.id}?reason=spam`, { token: author.token })).status, 403);
    assert.equal((await server.api('PUT', `/api/comments/${comment!.id}`, { token: author.token, json: { content: 'x' } })).status, 403);
    const jobsBefore = await count('SELECT count(*) FROM jobs');
    const removed = await server.api('DELETE', `/api/comments/${comment!.id}?reason=spam`, { token: admin.token });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(await commentsOf(post.id), []);
    assert.equal((await postOf(post.id)).comments_count, 0);
    assert.equal(await count("SELECT count(*) FROM moderation_log WHERE action = 'delete_comment' AND comment_id = ?", comment!.id), 1);
    assert.equal(await count("SELECT count(*) FROM reports WHERE id = ? AND status = 'closed'", report.body.id), 1);
    // Nothing for its server: no job queued at all.
    assert.equal(await count('SELECT count(*) FROM jobs'), jobsBefore);
    assert.deepEqual(await findCounterDrift(server.ctx.db), []);
  });
});

test('counters never drift under a random mix of what remote servers and local authors do', async () => {
  const rnd = seededRandom(7);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  const authors = [await createUser(server), await createUser(server)];
  const names = [remoteActor(), remoteActor(), remoteActor()];
  const posts: Array<{ id: number; author: TestUser }> = [];
  for (const author of authors) for (let i = 0; i < 2; i += 1) posts.push({ id: (await createPost(server, author)).id, author });
  const notes: string[] = [];
  const undoable: string[] = [];
  const log: string[] = [];
  const listed = async (post: { id: number }) => await count('SELECT count(*) FROM posts WHERE id = ? AND archived = 0', post.id) === 1;
  const operations: Array<() => Promise<void>> = [
    async () => { undoable.push(await peer.follow(pick(names), actorUri(pick(authors)))); log.push('follow'); },
    async () => {
      const post = pick(posts);
      notes.push(await peer.reply(pick(names), articleUri(post.id), `<p>says ${rnd()}</p>`, { to: actorUri(post.author) }));
      log.push('reply');
    },
    async () => {
      const note = notes.length ? notes.splice(Math.floor(rnd() * notes.length), 1)[0]! : undefined;
      if (note) await peer.deleteNote(note);
      log.push('delete note');
    },
    async () => {
      const post = pick(posts);
      // The peer finds the author through the article: an archived one answers 410.
      if (!await listed(post)) return;
      undoable.push(rnd() < 0.5 ? await peer.like(pick(names), articleUri(post.id)) : await peer.announce(pick(names), articleUri(post.id)));
      log.push('react');
    },
    async () => {
      const activity = undoable.length ? undoable.splice(Math.floor(rnd() * undoable.length), 1)[0]! : undefined;
      if (activity) await peer.undo(activity);
      log.push('undo');
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
  for (let i = 0; i < 50; i += 1) await pick(operations)();
  // And one of them leaves the fediverse.
  await peer.deleteActor(pick(names));
  assert.deepEqual(await findCounterDrift(server.ctx.db), [], log.slice(-15).join(', '));
  assert.ok(log.includes('reply') && log.includes('react') && log.includes('follow'), 'the mix exercised the inbox');
});
