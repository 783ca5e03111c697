// What a reader notices (issue 12, item 18), in Chromium: one h1 per page (the masthead's on the
// front page), file fields drawn as buttons and usable from the keyboard, error toasts that go
// once the mistake is fixed, one rule for relative dates, plurals, and one ellipsis after a cut.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FileChooser } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, samplePng, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { SWEEP_ON_SQLITE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let author: TestUser;
let fan: TestUser;
let admin: TestUser;
let post: { id: number; title: string };
const HOUR = 3_600_000;

/** 140 characters of words, then the writer's own '...' just where a 150-character cut lands. */
const TRAILING_DOTS = `${'Jazz '.repeat(28)}wait... and then the whole band came back in, loud as a freight train at night.`;

describe('small things in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server, { username: 'copy_desk' });
    author = await createUser(server, { username: 'lenore_k' });
    fan = await createUser(server, { username: 'fan_one' });
    post = await createPost(server, author, { title: 'The only article of a careful writer', content: TRAILING_DOTS });
    await createPost(server, fan);
    await server.api('GET', `/api/posts/${post.id}`, { token: fan.token });
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: fan.token, json: { content: 'One letter' } });
    await server.api('POST', `/api/follow/${author.id}`, { token: fan.token });
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('every page has exactly one h1; on the front page it is the masthead', SWEEP_ON_SQLITE, async () => {
    const pages: Array<[string, string, string | undefined]> = [
      ['/', 'Beatnik', undefined], ['/ranks', 'The Pulse', undefined], ['/authors', 'Voices', undefined],
      [`/post/${post.id}`, post.title, undefined], ['/beatnik/lenore_k', 'lenore_k', undefined],
      ['/login', 'Login', undefined], ['/register', 'Register', undefined], ['/no/such/page', 'Page not found', undefined],
      ['/write', 'Write', 'author'], ['/profile', 'My profile', 'author'], ['/notifications', 'Notifications', 'author'],
      ['/admin', 'Admin', 'admin'],
    ];
    for (const [path, heading, who] of pages) {
      // The not-found page comes with a 404, which the browser logs itself: expected there alone.
      const watched = await reader.open(path, {
        token: who === 'admin' ? admin.token : who ? author.token : undefined, allow: path === '/no/such/page' ? [path] : [],
      });
      await h1(watched.page, heading).waitFor();
      await watched.page.waitForLoadState('networkidle');
      assert.equal(await watched.page.locator('h1').count(), 1, `${path}: one h1`);
      const masthead = await watched.page.locator('.masthead__name').evaluate((el) => el.tagName);
      assert.equal(masthead, path === '/' ? 'H1' : 'P', `${path}: the masthead`);
      await closeClean(watched);
    }
  });

  it('the image field is a paper-style button that the keyboard reaches and opens', async () => {
    const watched = await reader.open('/write', { token: author.token });
    const { page } = watched;
    // Listening early turns on Playwright's file chooser interception before any key is pressed.
    const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
    await h1(page, 'Write').waitFor();
    const button = page.locator('label.file-picker__button[for="write-image"]');
    assert.equal((await button.innerText()).trim().toUpperCase(), 'CHOOSE A PICTURE');
    const input = await page.locator('#write-image').boundingBox();
    assert.ok(input && input.width <= 1 && input.height <= 1, 'the native control is not drawn');
    assert.equal(await button.evaluate((el) => getComputedStyle(el).borderTopStyle), 'solid', 'drawn as a button');

    await page.getByLabel('Hashtags').click();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'write-image');
    assert.equal(await button.evaluate((el) => getComputedStyle(el).outlineStyle), 'solid', 'the focus shows on the button');
    await page.keyboard.press('Space');
    await (await chooser).setFiles({ name: 'red.png', mimeType: 'image/png', buffer: await samplePng(120, 80) });
    await toastSays(page, 'Image converted to black and white');
    assert.equal((await button.innerText()).trim().toUpperCase(), 'CHOOSE ANOTHER PICTURE');
    await button.scrollIntoViewIfNeeded();
    await screenshot(page, 'write-image-field', false);
    await closeClean(watched);

    // The avatar field in Edit profile is the same control.
    const profile = await reader.open('/profile', { token: author.token });
    const avatarChooser = new Promise<FileChooser>((resolve) => profile.page.once('filechooser', resolve));
    await profile.page.getByRole('button', { name: 'Edit', exact: true }).click();
    const avatar = profile.page.locator('label.file-picker__button[for="profile-avatar"]');
    await avatar.waitFor();
    await profile.page.getByRole('dialog', { name: 'Edit profile' }).locator('#profile-avatar').focus();
    await profile.page.keyboard.press('Enter');
    await (await avatarChooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: await samplePng(40, 40) });
    await profile.page.getByRole('img', { name: 'New profile picture' }).waitFor();
    await closeClean(profile);
  });

  it('an error toast goes once the mistake is fixed, and a repeated error is not stacked', async () => {
    const watched = await reader.open('/login', { allow: (_text, url) => url.includes('/api/auth/login') });
    const { page } = watched;
    const errorToast = page.locator('[data-rht-toaster] [role="status"]', { hasText: 'Incorrect email or password' });
    await page.getByLabel('Email').fill(author.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await errorToast.waitFor();
    const shownAt = Date.now();
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await errorToast.count(), 1, 'the same error replaces itself');

    await page.getByLabel('Password').fill(author.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await toastSays(page, 'Welcome back, lenore_k!');
    await errorToast.waitFor({ state: 'hidden' });
    assert.ok(Date.now() - shownAt < 4000, 'dismissed by the success, before its 4 s were up');
    await closeClean(watched);
  });

  it('relative dates follow one rule, plurals agree, and a cut ends in one ellipsis', async () => {
    const older = await createPost(server, author);
    const oldest = await createPost(server, author);
    const setCreated = (id: number, ago: number) => server.ctx.db.updateTable('posts')
      .set({ created_at: new Date(Date.now() - ago).toISOString() }).where('id', '=', id).execute();
    await setCreated(post.id, 23.5 * HOUR);
    await setCreated(older.id, 24.5 * HOUR);
    await setCreated(oldest.id, 47 * HOUR);
    // Earlier tests read the article too; one visit is the count this check is about.
    await server.ctx.db.updateTable('posts').set({ visits: 1 }).where('id', '=', post.id).execute();

    const watched = await reader.open('/beatnik/lenore_k', { token: fan.token });
    const { page } = watched;
    await h1(page, 'lenore_k').waitFor();
    await page.locator('.author-list__row').nth(2).waitFor();
    const times = await page.locator('.author-list__row .byline time').allInnerTexts();
    assert.deepEqual(times.map((t) => t.trim()), ['23 hours ago', '1 day ago', '1 day ago']);

    const first = page.locator('.author-list__row', { hasText: post.title });
    assert.equal((await first.locator('.author-list__excerpt').innerText()).trim(), `${'Jazz '.repeat(28)}wait…`);
    await first.getByText('1 visit', { exact: true }).waitFor();
    await first.getByText('1 comment', { exact: true }).waitFor();

    await page.getByRole('button', { name: /^Followers: 1/ }).click();
    const list = page.getByRole('dialog');
    await list.getByText('1 person', { exact: true }).waitFor();
    await list.getByText(/· 1 article$/).waitFor();
    const text = await page.locator('body').innerText();
    assert.doesNotMatch(text, /\b1 (articles|visits|comments|people|ratings)\b/);
    assert.doesNotMatch(text, /yesterday|24 hours ago|\.\.\.…|\.…/);
    await closeClean(watched);
  });
});
