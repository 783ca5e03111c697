// Two Beatnik instances federating with each other over https on loopback (DESIGN.md, The
// fediverse): a reader on B follows an author on A, A's article reaches B's inbox, the reader's
// reply, like and deletion reach A, the author's deletion reaches B, and A's admin blocks B.
// Beatnik has no screen for following someone elsewhere (its readers follow each other at home),
// so B's side acts through B's own federation — its keys, its actor, its WebFinger, served by B —
// exactly as another server would; everything A does is what A does for any server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Create, Delete, Follow, Like, Note, PUBLIC_COLLECTION, Tombstone, type Actor } from '@fedify/vocab';
import type { RunningFederation } from '../../server/federation/federation.service.ts';
import { createPost } from './factories.ts';
import { startFederatedServer } from '../federation-servers.ts';
import { createAdmin, createSeasonedUser, sqlNumber, sqlRows, type TestServer, type TestUser } from '../helpers.ts';
import { waitFor } from '../wait-for.ts';

let a: TestServer;
let b: TestServer;
let author: TestUser;
let admin: TestUser;
let reader: TestUser;

before(async () => {
  [a, b] = await Promise.all([startFederatedServer(), startFederatedServer()]);
  [author, admin, reader] = await Promise.all([createSeasonedUser(a), createAdmin(a), createSeasonedUser(b)]);
});
after(async () => { await Promise.all([a?.stop(), b?.stop()]); });

/** B's federation, acting for its reader as any other server would. */
function asReaderOnB() {
  const fed = (b.ctx.federation as RunningFederation).federation.createContext(new URL(b.url), b.ctx);
  const identifier = String(reader.id);
  return { fed, identifier, actor: fed.getActorUri(identifier) };
}

async function authorOnA(): Promise<Actor> {
  const { fed } = asReaderOnB();
  const found = await fed.lookupObject(`acct:${author.username}@${new URL(a.url).host}`);
  assert.ok(found && 'inboxId' in found, `A's author found by WebFinger: ${found}`);
  return found as Actor;
}

/** A's deliveries of one type to B that went through. */
function deliveredToB(type: string): Promise<number> {
  return sqlNumber(a.ctx.db, `SELECT count(*) FROM federation_deliveries WHERE activity_type = ? AND ok = 1 AND inbox LIKE ?`, type, `${b.url}/%`);
}

test('a reader on B follows an author on A: A keeps the follower, counts it, and its Accept reaches B', async () => {
  const { fed, identifier, actor } = asReaderOnB();
  const target = await authorOnA();
  await fed.sendActivity({ identifier }, target, new Follow({ id: new URL(`${actor.href}#follows/1`), actor, object: target.id }), { immediate: true });

  const rows = await sqlRows<{ uri: string; handle: string }>(a.ctx.db,
    `SELECT a.uri, a.handle FROM remote_followers f JOIN remote_actors a ON a.id = f.actor_id WHERE f.user_id = ?`, author.id);
  assert.deepEqual(rows, [{ uri: actor.href, handle: `${reader.username}@${new URL(b.url).host}` }]);
  const profile = await a.api('GET', `/api/users/${author.id}`);
  assert.equal(profile.body.remote_followers_count, 1);
  await waitFor(async () => await deliveredToB('Accept') === 1, { what: "A's Accept delivered to B" });
});

test("an article published on A arrives in B's inbox, and B's reader's reply shows under it on A", async () => {
  const post = await createPost(a, author, { title: 'Across the wire, to every follower', content: 'Sent to **every** follower. '.repeat(10), hashtags: ['wire'] });
  await waitFor(async () => await deliveredToB('Create') >= 1, { what: "A's Create(Article) delivered to B", timeout: 20_000 });
  // B verified A's signature and handled it: Fedify keeps the activity id it has seen.
  const seen = await sqlNumber(b.ctx.db, `SELECT count(*) FROM federation_kv WHERE key LIKE ?`, `%${new URL(a.url).host}/ap/posts/${post.id}%`);
  assert.ok(seen >= 1, "B's inbox took A's Create");

  const { fed, identifier, actor } = asReaderOnB();
  const articleId = new URL(`${a.url}/ap/posts/${post.id}`);
  const note = new Note({
    id: new URL(`${actor.href}/notes/1`), attribution: actor, replyTarget: articleId,
    content: '<p>Read it <b>twice</b>.<script>alert(1)</script></p>', to: PUBLIC_COLLECTION,
  });
  await fed.sendActivity({ identifier }, await authorOnA(), new Create({ id: new URL(`${note.id!.href}#create`), actor, object: note, to: PUBLIC_COLLECTION }), { immediate: true });

  const comments = await a.api('GET', `/api/posts/${post.id}/comments`);
  assert.equal(comments.status, 200);
  const reply = comments.body.find((comment: any) => comment.remote_author);
  assert.ok(reply, JSON.stringify(comments.body));
  assert.equal(reply.author_id, null);
  assert.equal(reply.remote_author.handle, `@${reader.username}@${new URL(b.url).host}`);
  assert.match(reply.content_html, /<strong>twice<\/strong>/); // Writing's allowlist has strong, not b
  assert.doesNotMatch(reply.content_html, /script/);
  assert.equal((await a.api('GET', `/api/posts/${post.id}`)).body.comments_count, 1);

  await fed.sendActivity({ identifier }, await authorOnA(), new Like({ id: new URL(`${actor.href}#likes/1`), actor, object: articleId }), { immediate: true });
  assert.equal((await a.api('GET', `/api/posts/${post.id}`)).body.likes_count, 1);

  await fed.sendActivity({ identifier }, await authorOnA(), new Delete({ id: new URL(`${note.id!.href}#delete`), actor, object: new Tombstone({ id: note.id }) }), { immediate: true });
  assert.equal((await a.api('GET', `/api/posts/${post.id}/comments`)).body.filter((comment: any) => comment.remote_author).length, 0);
  assert.equal((await a.api('GET', `/api/posts/${post.id}`)).body.comments_count, 0);
});

test("the author's deletion on A reaches B, and A answers 410 for the article", async () => {
  const post = await createPost(a, author, { title: 'Gone soon: deleted by its author' });
  await waitFor(async () => await deliveredToB('Create') >= 2, { what: 'the second Create delivered', timeout: 20_000 });
  assert.equal((await a.api('DELETE', `/api/posts/${post.id}`, { token: author.token })).status, 200);
  await waitFor(async () => await deliveredToB('Delete') >= 1, { what: "A's Delete delivered to B", timeout: 20_000 });
  const gone = await fetch(`${a.url}/ap/posts/${post.id}`, { headers: { accept: 'application/activity+json' } });
  assert.equal(gone.status, 410);
  assert.equal((await gone.json() as { type: string }).type, 'Tombstone');
});

test("A's admin blocks B's server: B's follower goes, B's next activity is refused with 403, nothing more is sent to B", async () => {
  const hostB = new URL(b.url).hostname;
  const blocked = await a.api('PUT', `/api/admin/federation/blocks/${encodeURIComponent(hostB)}`, { token: admin.token });
  assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
  assert.equal(await sqlNumber(a.ctx.db, `SELECT count(*) FROM remote_followers WHERE user_id = ?`, author.id), 0);
  assert.equal((await a.api('GET', `/api/users/${author.id}`)).body.remote_followers_count, 0);

  const { fed, identifier, actor } = asReaderOnB();
  const target = await authorOnA();
  await assert.rejects(
    fed.sendActivity({ identifier }, target, new Follow({ id: new URL(`${actor.href}#follows/2`), actor, object: target.id }), { immediate: true }),
    (err: any) => err.statusCode === 403,
  );
  assert.equal(await sqlNumber(a.ctx.db, `SELECT count(*) FROM remote_followers WHERE user_id = ?`, author.id), 0, 'nothing stored');
  const log = await a.api('GET', '/api/moderation');
  assert.ok(JSON.stringify(log.body).includes(hostB), 'the moderation log records the block');
});
