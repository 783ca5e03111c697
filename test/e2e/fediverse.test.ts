// The fediverse as readers see it, in Chromium at 1280 and 390 px (DESIGN.md, The fediverse
// (ActivityPub)): replies from other servers under an article, with their author's name linking
// home, @user@server handle and picture (fetched from that server over https only, the initial
// when there is none or it fails); likes and boosts beside the rating; 'Follow on the fediverse'
// with the author's handle to copy; remote followers after the local ones. Readers mute and report
// a remote author's comment, unmute them in Settings; an admin deletes one. What arrives from the
// fediverse is written straight into the database here (remote_actors, comments.remote_actor_id,
// posts.likes_count …), as the inbox would; what the API answers of them (remote_author,
// likes_count, remote_followers_count, the remote-followers list, remote mutes) is the inbox's
// side of the contract (branch fed-inbox). Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, samplePng, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { adjustAuthorStats } from '../../server/users/author-stats.service.ts';
import { screenshot, type WatchedPage } from './browser.ts';
import { PHONE, h1, startReader, toastSays, type Reader } from './reader-support.ts';

const FEDERATING = { FEDERATION: 'on', PUBLIC_URL: 'https://paper.test', FEDERATION_ALLOW_PRIVATE: 'true' };
const REMOTE = 'https://social.example';
const AVATAR = `${REMOTE}/avatars/lucia.png`;
const MISSING = `${REMOTE}/avatars/missing.png`;
const REL = 'ugc nofollow noopener noreferrer';

let server: TestServer;
let browser: Reader;
let author: TestUser;
let reader: TestUser;
let admin: TestUser;
let postId: number;
const comments: Record<'lucia' | 'bob' | 'broken', number> = { lucia: 0, bob: 0, broken: 0 };

/** A fediverse account as the inbox records it; its id. */
async function remoteActor(handle: string, name: string, avatar: string | null): Promise<number> {
  const [user, domain] = handle.split('@') as [string, string];
  const [row] = await sqlRows<{ id: number }>(server.ctx.db,
    `INSERT INTO remote_actors (uri, handle, domain, name, url, avatar_url, inbox, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    `https://${domain}/users/${user}`, handle, domain, name, `https://${domain}/@${user}`, avatar,
    `https://${domain}/users/${user}/inbox`, new Date().toISOString());
  return Number(row!.id);
}

/** A reply from the fediverse under the article, counted as the inbox counts it; its id. */
async function remoteComment(actorId: number, html: string, minutesAgo: number): Promise<number> {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const [row] = await sqlRows<{ id: number }>(server.ctx.db,
    `INSERT INTO comments (post_id, author_id, remote_actor_id, remote_uri, content, content_html, created_at, updated_at)
     VALUES (?, NULL, ?, ?, ?, ?, ?, ?) RETURNING id`,
    postId, actorId, `${REMOTE}/notes/${actorId}-${minutesAgo}`, html.replace(/<[^>]+>/g, ''), html, at, at);
  await sqlRows(server.ctx.db, 'UPDATE posts SET comments_count = comments_count + 1 WHERE id = ?', postId);
  // The article's author received a comment: their counters and mojo move, as for a local one.
  await adjustAuthorStats(server.ctx.db, author.id, { comments: 1 }, { cause: 'comment_new', at, postId });
  return Number(row!.id);
}

/**
 * A page whose pictures from social.example are served by the test (one of them missing), and
 * whose watcher tolerates those requests alone: every other request off the origin, and every
 * other console error, still fails the test.
 */
async function openWithRemotePictures(path: string, options: { token?: string; viewport?: typeof PHONE } = {}): Promise<WatchedPage> {
  const png = await samplePng(48, 48);
  const watched = await browser.open('/login', { ...options, allow: [MISSING] });
  await watched.context.route(`${REMOTE}/**`, (route) => (route.request().url() === AVATAR
    ? route.fulfill({ status: 200, contentType: 'image/png', body: png })
    : route.fulfill({ status: 404, body: '' })));
  await watched.page.goto(path);
  return watched;
}

async function closeAllowingPictures(watched: WatchedPage): Promise<void> {
  await watched.context.close();
  const others = watched.problems.filter((problem) => problem !== `request off the origin: ${AVATAR}` && problem !== `request off the origin: ${MISSING}`);
  assert.deepEqual(others, [], 'only the remote pictures were asked for off the origin');
}

const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the fediverse in Chromium', () => {
  before(async () => {
    server = await startTestServer({ env: FEDERATING });
    author = await createUser(server, { username: 'ginsberg_a' });
    reader = await createUser(server, { username: 'corso_g' });
    admin = await createAdmin(server);
    postId = (await createPost(server, author, { title: 'A supermarket in California, at midnight', hashtags: ['poetry'] })).id;
    assert.equal((await server.api('POST', `/api/follow/${author.id}`, { token: reader.token })).status, 200);

    const lucia = await remoteActor('lucia@social.example', 'Lucía Berlin', AVATAR);
    const bob = await remoteActor('bob@plain.example', '', 'http://plain.example/bob.png');
    const broken = await remoteActor('broken@social.example', 'Broken Picture', MISSING);
    comments.lucia = await remoteComment(lucia, '<p>Read it twice on the bus home. The aisles of peaches!</p>', 30);
    comments.bob = await remoteComment(bob, '<p>Boosted to my whole server.</p>', 20);
    comments.broken = await remoteComment(broken, '<p>My picture never loads, and still I write.</p>', 10);
    await sqlRows(server.ctx.db, 'UPDATE posts SET likes_count = 3, boosts_count = 1 WHERE id = ?', postId);
    const followed = new Date(Date.now() - 60_000).toISOString();
    for (const [actor, at] of [[lucia, followed], [bob, new Date().toISOString()]] as const) {
      await sqlRows(server.ctx.db, 'INSERT INTO remote_followers (user_id, actor_id, follow_uri, created_at) VALUES (?, ?, ?, ?)',
        author.id, actor, `${REMOTE}/follows/${actor}`, at);
    }
    await sqlRows(server.ctx.db, 'UPDATE users SET remote_followers_count = 2 WHERE id = ?', author.id);
    browser = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a visitor the replies from the fediverse, and the likes and boosts, from the server\'s HTML', async () => {
    const html = await (await fetch(`${server.url}/post/${postId}`)).text();
    for (const text of ['@lucia@social.example', 'Lucía Berlin', '@bob@plain.example', '3 likes · 1 boost', 'The aisles of peaches!']) {
      assert.ok(html.includes(text), `the server's page has ${text}`);
    }

    const watched = await openWithRemotePictures(`/post/${postId}`);
    const { page } = watched;
    await h1(page, 'A supermarket in California, at midnight').waitFor();
    assert.equal(await page.locator('.article__stats .stats__fediverse').innerText(), '3 LIKES · 1 BOOST');
    const remote = page.locator('.comment--remote');
    assert.equal(await remote.count(), 3);

    const lucia = remote.nth(0);
    const name = lucia.getByRole('link', { name: 'Lucía Berlin' });
    assert.equal(await name.getAttribute('href'), 'https://social.example/@lucia');
    assert.equal(await name.getAttribute('rel'), REL);
    assert.equal(await name.getAttribute('target'), null, 'opened as the site opens every other link');
    assert.equal(await lucia.locator('.comment__handle').innerText(), '@lucia@social.example');
    assert.equal(await lucia.locator('.comment__body').innerText(), 'Read it twice on the bus home. The aisles of peaches!');
    const picture = lucia.locator('img.avatar--remote');
    await picture.scrollIntoViewIfNeeded();
    await page.waitForFunction((img) => (img as HTMLImageElement).naturalWidth > 0, await picture.elementHandle());
    assert.equal(await picture.getAttribute('src'), AVATAR);
    assert.equal(await picture.getAttribute('referrerpolicy'), 'no-referrer');
    assert.equal(await picture.getAttribute('alt'), "Lucía Berlin's avatar");

    // No display name: the handle stands in. An http picture is never asked for: the initial.
    const bob = remote.nth(1);
    assert.equal(await bob.locator('.comment__author').innerText(), '@bob@plain.example');
    assert.equal(await bob.locator('.comment__handle').count(), 0, 'the handle once');
    assert.equal(await bob.locator('img').count(), 0);
    assert.equal(await bob.locator('.avatar--placeholder').innerText(), 'B');

    // A picture that fails: the initial replaces it.
    const broken = remote.nth(2);
    await broken.scrollIntoViewIfNeeded();
    await broken.locator('.avatar--placeholder').waitFor();
    assert.equal(await broken.locator('img').count(), 0);

    // A visitor can only read.
    assert.equal(await page.locator('.comments').getByRole('button', { name: /Report|Mute|Delete/ }).count(), 0);
    await screenshot(page, 'fediverse-article-desktop');
    await closeAllowingPictures(watched);
  });

  it('offers the author\'s handle to copy on their profile', async () => {
    const watched = await openWithRemotePictures(`/beatnik/${author.username}`);
    const { page, context } = watched;
    await h1(page, author.username).waitFor();
    const follow = page.getByRole('group', { name: 'Follow on the fediverse' });
    assert.equal(await follow.locator('.fediverse__handle').innerText(), '@ginsberg_a@paper.test');

    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await follow.getByRole('button', { name: 'Copy @ginsberg_a@paper.test' }).click();
    await toastSays(page, 'Handle copied');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), '@ginsberg_a@paper.test');
    // The handle is text too, selected whole by a click, for a browser without a clipboard.
    assert.equal(await follow.locator('.fediverse__handle').evaluate((el) => getComputedStyle(el).userSelect), 'all');
    await screenshot(page, 'fediverse-profile-desktop');
    await closeAllowingPictures(watched);
  });

  it('counts the followers from the fediverse, and lists them after the local ones', async () => {
    const watched = await openWithRemotePictures(`/beatnik/${author.username}`);
    const { page } = watched;
    await h1(page, author.username).waitFor();
    assert.equal(await page.locator('.author__remote').innerText(), '+ 2 on the fediverse');
    await page.getByRole('button', { name: 'Followers: 1. Show the list' }).click();
    const dialog = page.getByRole('dialog', { name: `Followers of ${author.username}` });
    await dialog.getByRole('list', { name: 'Followers on the fediverse' }).waitFor();
    assert.equal(await dialog.locator('.follow-list__total').innerText(), '1 person + 2 on the fediverse');
    assert.deepEqual(await dialog.locator('.follow-list__rows').first().locator('.follow-list__name').allInnerTexts(), ['corso_g']);
    const remote = dialog.getByRole('list', { name: 'Followers on the fediverse' });
    // Newest first: bob followed last; his handle is his name.
    assert.deepEqual(await remote.locator('.follow-list__who').allInnerTexts(), ['@bob@plain.example', 'Lucía Berlin\n@lucia@social.example']);
    assert.equal(await remote.getByRole('link', { name: 'Lucía Berlin' }).getAttribute('rel'), REL);
    await remote.locator('img.avatar--remote').waitFor();
    await screenshot(page, 'fediverse-followers-desktop');
    await closeAllowingPictures(watched);
  });

  it('lets a reader mute a remote author from their comment, report one, and unmute in Settings', async () => {
    const watched = await openWithRemotePictures(`/post/${postId}`, { token: reader.token });
    const { page } = watched;
    await h1(page, 'A supermarket in California, at midnight').waitFor();
    const lucia = page.locator('.comment--remote', { hasText: 'Lucía Berlin' });
    await lucia.getByRole('button', { name: 'Mute @lucia@social.example' }).click();
    // Her comment folds away, as a muted local author's does.
    const folded = page.locator('.comment--muted');
    await folded.waitFor();
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM user_remote_mutes WHERE user_id = ?', reader.id), 1);
    await folded.getByRole('button', { name: 'Show comment' }).click();
    await page.getByRole('button', { name: 'Unmute @lucia@social.example' }).waitFor();

    const bob = page.locator('.comment--remote', { hasText: '@bob@plain.example' });
    await bob.getByRole('button', { name: 'Report comment' }).click();
    const report = page.getByRole('dialog', { name: 'Report this comment' });
    await report.getByLabel('Spam').check();
    await report.getByRole('button', { name: 'Send report' }).click();
    await toastSays(page, 'Thank you. The editors will look at it.');
    assert.equal(await sqlNumber(server.ctx.db, "SELECT count(*) FROM reports WHERE target_type = 'comment' AND target_id = ?", comments.bob), 1);
    // Neither edited nor deleted by a reader.
    assert.equal(await bob.getByRole('button', { name: /Edit|Delete/ }).count(), 0);
    await screenshot(page, 'fediverse-article-reader-desktop');

    await page.goto('/settings');
    const muted = page.getByRole('list', { name: 'Muted fediverse accounts' });
    await muted.waitFor();
    assert.equal(await muted.locator('.muted__name').innerText(), 'Lucía Berlin');
    assert.equal(await muted.locator('.muted__handle').innerText(), '@lucia@social.example');
    await muted.scrollIntoViewIfNeeded();
    await screenshot(page, 'fediverse-settings-muted-desktop', false);
    await muted.getByRole('button', { name: 'Unmute @lucia@social.example' }).click();
    await page.getByText('You have muted no fediverse accounts.').waitFor();
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM user_remote_mutes WHERE user_id = ?', reader.id), 0);
    await closeAllowingPictures(watched);
  });

  it('lets an admin delete a remote comment, with a reason', async () => {
    const watched = await openWithRemotePictures(`/post/${postId}`, { token: admin.token });
    const { page } = watched;
    const broken = page.locator('.comment--remote', { hasText: 'Broken Picture' });
    await broken.getByRole('button', { name: 'Delete comment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete comment' });
    await dialog.getByText('Delete this comment by @broken@social.example, from the fediverse?').waitFor();
    await dialog.getByLabel('Reason').fill('Spam from a bot');
    await dialog.getByRole('button', { name: 'Delete comment' }).click();
    await toastSays(page, 'Comment deleted successfully');
    await broken.waitFor({ state: 'detached' });
    assert.equal(await page.locator('.comment--remote').count(), 2);
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM comments WHERE id = ?', comments.broken), 0);
    await closeAllowingPictures(watched);
  });

  it('fits a phone: the article\'s replies and the profile at 390 px', async () => {
    const article = await openWithRemotePictures(`/post/${postId}`, { viewport: PHONE });
    await h1(article.page, 'A supermarket in California, at midnight').waitFor();
    const picture = article.page.locator('img.avatar--remote').first();
    await picture.scrollIntoViewIfNeeded();
    await article.page.waitForFunction((img) => (img as HTMLImageElement).naturalWidth > 0, await picture.elementHandle());
    assert.equal(await noOverflow(article.page), 0, 'nothing wider than the phone');
    await article.page.locator('.comments').scrollIntoViewIfNeeded();
    await screenshot(article.page, 'fediverse-article-phone', false);
    await closeAllowingPictures(article);

    const profile = await openWithRemotePictures(`/beatnik/${author.username}`, { viewport: PHONE });
    await profile.page.getByRole('group', { name: 'Follow on the fediverse' }).waitFor();
    assert.equal(await noOverflow(profile.page), 0, 'nothing wider than the phone');
    await screenshot(profile.page, 'fediverse-profile-phone', false);
    await closeAllowingPictures(profile);
  });
});
