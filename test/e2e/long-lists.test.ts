// Lists past 50 rows in Chromium: Voices and the admin Users, Posts and Banned tabs show 50,
// say 'Showing 50 of N', and 'Load more' brings the rest; the Posts tab's count is the 'Active
// Posts' counter. Data is made through the API (RATE_LIMITS off). Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { banInDatabase, createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let admin: TestUser;
const AUTHORS = 57;
const BANNED = 53;

/** Waits until the page shows exactly `count` rows matching the selector. */
async function rows(page: Page, selector: string, count: number): Promise<void> {
  await page.waitForFunction(([s, n]) => document.querySelectorAll(s as string).length === n, [selector, count] as const);
}

describe('long lists in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server, { username: 'night_editor' });
    const authors: TestUser[] = [];
    while (authors.length < AUTHORS) {
      authors.push(...await Promise.all(Array.from({ length: Math.min(10, AUTHORS - authors.length) }, () => createUser(server))));
    }
    for (let i = 0; i < authors.length; i += 10) await Promise.all(authors.slice(i, i + 10).map((a) => createPost(server, a)));
    // Two archived articles: the Posts tab must not count them among the active ones.
    for (const author of authors.slice(0, 2)) {
      const post = await createPost(server, author);
      await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token });
    }
    const quiet: TestUser[] = [];
    while (quiet.length < BANNED) {
      quiet.push(...await Promise.all(Array.from({ length: Math.min(10, BANNED - quiet.length) }, () => createUser(server))));
    }
    for (const user of quiet) await banInDatabase(server, user.id, { permanent: false, days: 5, reason: 'flooding' });
    reader = await startReader(server, { timeout: 15_000 });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('Voices: 50 cards, then the rest with Load more', async () => {
    const watched = await reader.open('/authors');
    const { page } = watched;
    await h1(page, 'Voices').waitFor();
    await page.getByText(`Showing 50 of ${AUTHORS} authors`).waitFor();
    await rows(page, '.voice-card', 50);
    await page.getByRole('button', { name: 'Load more authors' }).click();
    await page.getByText(`Showing ${AUTHORS} of ${AUTHORS} authors`).waitFor();
    await rows(page, '.voice-card', AUTHORS);
    assert.equal(await page.getByRole('button', { name: 'Load more authors' }).count(), 0, 'nothing more to load');
    const names = await page.locator('.voice-card__name').allInnerTexts();
    assert.equal(new Set(names).size, AUTHORS, 'no author twice');

    // A new sort starts from the first page again.
    await page.getByLabel('Sort by').selectOption('posts_asc');
    await page.getByText(`Showing 50 of ${AUTHORS} authors`).waitFor();
    await rows(page, '.voice-card', 50);
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Load more authors' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'long-voices-phone', false);
    await closeClean(watched);
  });

  it('admin: Users, Posts and Banned go past 50; the Posts count is the Active Posts counter', async () => {
    const watched = await reader.open('/admin', { token: admin.token });
    const { page } = watched;
    await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.admin-counter dd')?.textContent !== '—');
    const counter = async (label: string) => Number(await page.locator('.admin-counter', { hasText: label }).locator('dd').innerText());
    const users = await counter('Total Users');
    const activePosts = await counter('Active Posts');
    assert.deepEqual([users, activePosts, await counter('Banned Users')], [1 + AUTHORS + BANNED, AUTHORS, BANNED]);

    await page.getByText(`Showing 50 of ${users} users`).waitFor();
    await rows(page, '.admin-row', 50);
    await page.getByRole('button', { name: 'Load more users' }).click();
    await page.getByText(`Showing 100 of ${users} users`).waitFor();
    await page.getByRole('button', { name: 'Load more users' }).click();
    await page.getByText(`Showing ${users} of ${users} users`).waitFor();
    await rows(page, '.admin-row', users);
    assert.equal(await page.getByRole('button', { name: 'Load more users' }).count(), 0);

    await page.getByRole('tab', { name: 'Posts' }).click();
    await page.getByText(`Showing 50 of ${activePosts} active posts`).waitFor();
    await page.getByRole('button', { name: 'Load more posts' }).click();
    await page.getByText(`Showing ${activePosts} of ${activePosts} active posts`).waitFor();
    await rows(page, '.admin-row', activePosts);
    assert.equal(await page.locator('.admin-row .level-badge', { hasText: 'Archived' }).count(), 0);
    await page.getByLabel('Status').selectOption('archived');
    await page.getByText('Showing 2 of 2 archived posts').waitFor();
    await rows(page, '.admin-row', 2);
    await page.getByLabel('Status').selectOption('all');
    await page.getByText(`Showing 50 of ${activePosts + 2} posts`).waitFor();

    await page.getByRole('tab', { name: 'Banned' }).click();
    await page.getByText(`Showing 50 of ${BANNED} banned users`).waitFor();
    await rows(page, '.admin-row', 50);
    await page.getByRole('button', { name: 'Load more banned users' }).click();
    await page.getByText(`Showing ${BANNED} of ${BANNED} banned users`).waitFor();
    await rows(page, '.admin-row', BANNED);
    const ends = await page.locator('.admin-row time').allInnerTexts();
    assert.ok(ends.every((t) => /^\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d$/.test(t)), `human end dates: ${ends[0]}`);
    await screenshot(page, 'long-admin-banned-desktop', false);
    await closeClean(watched);
  });
});
