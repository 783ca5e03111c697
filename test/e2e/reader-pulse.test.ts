// The Pulse (SPEC §2) in Chromium: empty states, the numbered list, hashtag suggestions, the sort
// and time selectors, and the URL kept in sync so a reload keeps the filters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, openInApp, serverAndReader, texts, toastSays } from './reader-support.ts';

const site = serverAndReader();
const query = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('The Pulse in Chromium', () => {
  it('says so when nothing has been published', async () => {
    const watched = await site.reader.open('/ranks');
    await h1(watched.page, 'The Pulse').waitFor();
    await watched.page.getByRole('heading', { name: 'No articles found' }).waitFor();
    await watched.page.getByText('No articles have been published yet').waitFor();
    await watched.page.getByText('Rankings refresh every 24 hours.', { exact: false }).waitFor();
    await closeClean(watched);
  });

  it('filters by hashtag, sorts, and keeps it all in the URL', async () => {
    const author = await createUser(site.server);
    const readers = await Promise.all([1, 2, 3].map(() => createUser(site.server)));
    const tags = [['jazz'], ['jazzfusion', 'night'], ['poetry'], ['bebop'], ['road'], ['city'], ['rain'], ['dawn']];
    const posts = [];
    for (const [i, hashtags] of tags.entries()) posts.push(await createPost(site.server, author, { title: `Pulse story number ${i + 1} of the night`, hashtags }));
    // Visits: poetry 3, jazzfusion 2, jazz 1.
    for (const [post, n] of [[posts[2], 3], [posts[1], 2], [posts[0], 1]] as const) {
      for (const r of readers.slice(0, n)) await site.server.api('GET', `/api/posts/${post.id}`, { token: r.token });
    }

    const watched = await site.reader.open('/ranks');
    const { page } = watched;
    await page.locator('.rank-row').first().waitFor();
    assert.equal(await page.locator('.rank-row').count(), 8);
    assert.deepEqual((await texts(page, '.rank-row__number')).slice(0, 3), ['#1', '#2', '#3']);
    assert.ok(await page.locator('.pulse__popular .chip').count() <= 6);

    // Suggestions: partial match, highlighted, with counts.
    await page.getByLabel('Search hashtags').fill('jazz');
    const options = page.getByRole('option');
    await options.nth(1).waitFor();
    assert.deepEqual(await texts(page, '.suggestions mark'), ['jazz', 'jazz']);
    await page.getByRole('option', { name: /#jazzfusion/ }).getByText('1 post').waitFor();
    await screenshot(page, 'reader-pulse-suggestions-desktop', false);
    await page.getByRole('option', { name: /#jazzfusion/ }).click();
    await page.waitForURL((url) => query(url.href).hashtag === 'jazzfusion');
    await page.locator('.rank-row').nth(0).waitFor();
    assert.deepEqual(await texts(page, '.rank-row__title'), [posts[1].title]);

    // Sort by visits with a partial hashtag: criteria enters the URL; a reload keeps everything.
    await page.getByLabel('Search hashtags').fill('');
    await page.getByRole('button', { name: 'Clear hashtag' }).click();
    await page.waitForURL((url) => !url.search);
    await page.getByLabel('Sort by').selectOption({ label: 'Most visited' });
    await page.waitForURL((url) => query(url.href).criteria === 'visits');
    await page.getByLabel('Time period').selectOption({ label: 'Last 7 days' });
    await page.waitForURL((url) => query(url.href).time_period === '7d');
    await page.locator('.rank-row__title', { hasText: posts[2].title }).first().waitFor();
    await page.waitForFunction((title) => document.querySelector('.rank-row__title')?.textContent === title, posts[2].title);
    assert.deepEqual((await texts(page, '.rank-row__title')).slice(0, 3), [posts[2].title, posts[1].title, posts[0].title]);
    await page.reload();
    await page.locator('.rank-row').first().waitFor();
    assert.equal(await page.getByLabel('Sort by').inputValue(), 'visits');
    assert.equal(await page.getByLabel('Time period').inputValue(), '7d');
    assert.equal((await texts(page, '.rank-row__title'))[0], posts[2].title);
    await screenshot(page, 'reader-pulse-desktop');

    // Back to ranking: criteria leaves the URL.
    await page.getByLabel('Sort by').selectOption({ label: 'Higher ranking' });
    await page.waitForURL((url) => !('criteria' in query(url.href)) && query(url.href).time_period === '7d');

    // A hashtag nothing matches.
    await page.getByLabel('Search hashtags').fill('zzz');
    await page.getByLabel('Search hashtags').press('Enter');
    await page.getByText('No articles found with hashtags containing "zzz"').waitFor();
    assert.equal(query(page.url()).hashtag, 'zzz');
    await page.goto('/ranks');
    await page.setViewportSize(PHONE);
    await page.locator('.rank-row').first().waitFor();
    await screenshot(page, 'reader-pulse-phone');
    await closeClean(watched);
  });

  it("toasts 'Error loading rankings' when the list fails", async () => {
    const watched = await site.reader.open('/authors', { allow: ['status of 500'] });
    await watched.page.route('**/api/ranks*', (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(watched.page, '/ranks');
    await toastSays(watched.page, 'Error loading rankings');
    await closeClean(watched);
  });
});
