// Public profile (SPEC §2) in Chromium: the card, follow/unfollow, the followers modal's paging,
// the owner's 'Edit profile', the article filters, and the empty and unknown-user pages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, openInApp, startReader, texts, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let star: TestUser;
let viewer: TestUser;
const posts: any[] = [];

describe('Public profile in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    star = await createUser(server, { username: 'kerouac_p', bio: 'Wrote a scroll once.' });
    viewer = await createUser(server, { username: 'viewer_p' });
    posts.push(await createPost(server, star, { title: 'The first scroll of the long road', hashtags: ['road', 'jazz'] }));
    posts.push(await createPost(server, star, { title: 'Second night in the jazz cellar', hashtags: ['jazz'] }));
    posts.push(await createPost(server, star, { title: 'A poem written on a napkin', hashtags: ['poetry'], content: `Napkin verses. ${'Words on paper, slowly. '.repeat(8)}` }));
    const fans = await Promise.all(Array.from({ length: 21 }, () => createUser(server)));
    for (const fan of fans) assert.equal((await server.api('POST', `/api/follow/${star.id}`, { token: fan.token })).status, 200);
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('shows the author, follows and unfollows, and pages the followers list', async () => {
    const watched = await reader.open('/beatnik/kerouac_p', { token: viewer.token });
    const { page } = watched;
    await h1(page, 'kerouac_p').waitFor();
    await page.getByText('Wrote a scroll once.').waitFor();
    await page.getByText(/Mojo \d+\.\d/).waitFor();
    const followers = page.getByRole('button', { name: /^Followers: / });
    assert.equal(await followers.innerText(), '21');
    await page.getByText(new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric' })).waitFor();
    assert.equal(await page.locator('.author-list__row').count(), 3);
    await screenshot(page, 'reader-author-desktop');

    await page.getByRole('button', { name: 'Follow kerouac_p' }).click();
    await page.waitForFunction(() => document.querySelector('.author__count')?.textContent === '22');
    await page.getByRole('button', { name: 'Unfollow kerouac_p' }).click();
    await toastSays(page, 'Unfollowed kerouac_p');
    await page.waitForFunction(() => document.querySelector('.author__count')?.textContent === '21');

    await followers.click();
    const dialog = page.getByRole('dialog', { name: 'Followers of kerouac_p' });
    await dialog.locator('.follow-list__row').nth(19).waitFor();
    assert.equal(await dialog.locator('.follow-list__row').count(), 20);
    await screenshot(page, 'reader-author-followers-desktop', false);
    await dialog.getByRole('button', { name: 'Load more' }).click();
    await dialog.locator('.follow-list__row').nth(20).waitFor();
    await dialog.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    assert.equal(await dialog.locator('.follow-list__row').count(), 21);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: /^Following: / }).click();
    await page.getByRole('dialog', { name: 'kerouac_p follows' }).getByText('Not following anyone yet.').waitFor();
    await closeClean(watched);
  });

  it('filters the articles by hashtag chip, search, sort and time', async () => {
    const watched = await reader.open('/beatnik/kerouac_p');
    const { page } = watched;
    await page.locator('.author-list__row').nth(2).waitFor();
    assert.equal(await page.getByRole('button', { name: /^(Follow|Unfollow) / }).count(), 0, 'visitors get no follow button');
    assert.deepEqual(await texts(page, '.author-list__title'), [posts[2].title, posts[1].title, posts[0].title]);
    await page.getByRole('button', { name: '#jazz' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.author-list__row').length === 2);
    await page.getByLabel('Sort by').selectOption({ label: 'Oldest' });
    await page.waitForFunction((t) => document.querySelector('.author-list__title')?.textContent === t, posts[0].title);
    await page.getByRole('button', { name: '#jazz' }).click();
    await page.locator('#main').getByLabel('Search articles').fill('napkin');
    await page.waitForFunction(() => document.querySelectorAll('.author-list__row').length === 1);
    await page.locator('#main').getByLabel('Search articles').fill('');
    await page.getByLabel('Published').selectOption({ label: 'Last 24 hours' });
    await page.waitForFunction(() => document.querySelectorAll('.author-list__row').length === 3);
    await page.setViewportSize(PHONE);
    await screenshot(page, 'reader-author-phone');
    await closeClean(watched);
  });

  it("shows the owner 'Edit profile', the bio placeholder and 'No articles yet'", async () => {
    const watched = await reader.open('/beatnik/viewer_p', { token: viewer.token });
    const { page } = watched;
    await h1(page, 'viewer_p').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Edit profile' }).getAttribute('href'), '/profile');
    assert.equal(await page.getByRole('button', { name: /^(Follow|Unfollow) / }).count(), 0);
    await page.getByText('This beatnik has not written a bio yet.').waitFor();
    await page.getByRole('heading', { name: 'No articles yet' }).waitFor();
    await screenshot(page, 'reader-author-empty-desktop');
    await closeClean(watched);
  });

  it("shows 'User not found' and toasts load failures", async () => {
    const watched = await reader.open('/beatnik/nobody_here', { allow: ['status of 404', 'status of 500'] });
    const { page } = watched;
    await h1(page, 'User not found').waitFor();
    await page.route(`**/api/users/${star.id}/posts*`, (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(page, '/beatnik/kerouac_p');
    await toastSays(page, 'Error loading articles');
    await page.route('**/api/users/by-username/**', (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(page, '/authors');
    await openInApp(page, '/beatnik/kerouac_p');
    await toastSays(page, 'Error loading profile');
    await closeClean(watched);
  });
});
