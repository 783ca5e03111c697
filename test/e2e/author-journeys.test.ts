// The author's journeys in Chromium: write and publish with a black-and-white image, manage
// articles and the profile from /profile, and read the notifications other readers cause.
// Data is made through the API; one server for the file. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser, samplePng, startTestServer, type TestServer } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, startReader, toastSays, type Reader } from './reader-support.ts';

const CONTENT = 'The saxophone hung in the smoky air like a question nobody wanted to answer. '.repeat(3);

let server: TestServer;
let browser: Reader;

const alertText = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

describe('author screens in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    browser = await startReader(server, { timeout: 10_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('writes an article with a black-and-white image, publishes it, and finds it on Home and The Pulse', async () => {
    const author = await createUser(server, { username: 'kerouac' });
    const watched = await browser.open('/write', { token: author.token });
    const { page } = watched;
    await page.getByRole('heading', { level: 1, name: 'Write' }).waitFor();

    // Every client check of SPEC §5, before anything is sent.
    await page.getByRole('button', { name: 'Publicar' }).click();
    await alertText(page, 'Title must be between 20 and 80 characters');
    await alertText(page, 'Content must be between 150 and 10,000 characters');
    await alertText(page, 'You must include between 1 and 3 hashtags');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'write-title', 'focus goes to the first invalid field');

    const title = 'On the road again, at night, in Denver';
    await page.getByLabel('Title').fill(title);
    await page.locator('#write-title-count', { hasText: `${title.length}/80` }).waitFor();
    await page.getByLabel('Content').fill(CONTENT);
    await page.locator('#write-content-count', { hasText: `${CONTENT.trim().length}/10,000` }).waitFor();

    // Hashtags: Enter adds, '#' stripped, empty and duplicates ignored, at most 3.
    const tags = page.getByLabel('Hashtags', { exact: true });
    await page.getByText('You can add 3 more').waitFor();
    for (const entry of ['#Jazz', 'jazz', '   ', 'bebop']) {
      await tags.fill(entry);
      await tags.press('Enter');
    }
    await page.getByText('You can add 1 more').waitFor();
    assert.deepEqual(await page.locator('.hashtag-chip > span').allTextContents(), ['#jazz', '#bebop']);
    await tags.fill('denver');
    await tags.press('Enter');
    await page.getByText('Maximum reached', { exact: true }).waitFor();
    assert.ok(await tags.isDisabled(), 'no fourth hashtag');
    await page.getByRole('button', { name: 'Remove #denver' }).click();
    await page.getByText('You can add 1 more').waitFor();
    await tags.fill('denver');
    await tags.press('Enter');
    assert.equal(new URL(page.url()).pathname, '/write', 'Enter never submits the article');

    // Image checks, then the grayscale canvas preview.
    const image = page.getByLabel('Featured image (optional)');
    await image.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await alertText(page, 'Please select a valid image file');
    await image.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    await alertText(page, 'Image cannot exceed 5MB');
    await image.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('garbage, not a PNG') });
    await toastSays(page, 'B&W conversion failed, will use automatic filter');
    await page.getByText('The original picture will be used').waitFor();

    await image.setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: await samplePng(120, 80) });
    await toastSays(page, 'Image converted to black and white');
    const canvas = page.getByTestId('bw-preview');
    await canvas.waitFor();
    const pixels = await canvas.evaluate((el: HTMLCanvasElement) => {
      const data = el.getContext('2d')!.getImageData(0, 0, el.width, el.height).data;
      let gray = true;
      for (let i = 0; i < data.length; i += 4) if (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2]) gray = false;
      return { gray, width: el.width, height: el.height, sample: [data[0], data[1], data[2]] };
    });
    assert.ok(pixels.gray, 'every preview pixel has r = g = b');
    assert.deepEqual([pixels.width, pixels.height], [120, 80]);
    assert.ok(pixels.sample[0]! < 200 && pixels.sample[0]! > 20, `red became a mid gray, got ${pixels.sample}`);
    await page.getByRole('button', { name: 'Reset to original' }).click();
    await page.getByRole('img', { name: 'Original featured image' }).waitFor();
    await page.getByRole('button', { name: 'Convert to black and white' }).click();
    await canvas.waitFor();
    await screenshot(page, 'write-desktop');

    // Publish, holding the request to see the busy label.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let sent: { contentType: string; body: string } | undefined;
    await page.route('**/api/posts', async (route) => {
      const request = route.request();
      if (request.method() === 'POST') {
        sent = { contentType: request.headers()['content-type'] ?? '', body: request.postDataBuffer()?.toString('latin1') ?? '' };
        await held;
      }
      await route.continue();
    });
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.getByRole('button', { name: 'Publicando...' }).waitFor();
    release();
    await toastSays(page, 'Article published successfully!');
    await page.waitForURL(/\/post\/\d+$/);
    assert.match(sent!.contentType, /^multipart\/form-data/);
    assert.ok(sent!.body.includes('["jazz","bebop","denver"]'), 'hashtags go as JSON text');
    assert.ok(sent!.body.includes('filename="red.jpg"') && sent!.body.includes('Content-Type: image/jpeg'), 'the grayscale JPEG is sent');
    const id = Number(new URL(page.url()).pathname.split('/').pop());

    const stored = await server.api('GET', `/api/posts/${id}`);
    assert.equal(stored.body.title, title);
    assert.deepEqual(stored.body.hashtags, ['jazz', 'bebop', 'denver']);
    const served = await fetch(server.url + stored.body.image);
    assert.equal(served.headers.get('content-type'), 'image/jpeg');

    await page.goto('/');
    await page.getByText(title).first().waitFor();
    await page.goto('/ranks');
    await page.getByText(title).first().waitFor();
    await closeClean(watched);

    const phone = await browser.open('/write', { token: author.token, viewport: PHONE });
    await phone.page.getByRole('heading', { level: 1, name: 'Write' }).waitFor();
    await phone.page.getByLabel('Featured image (optional)').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: await samplePng(120, 80) });
    await phone.page.getByTestId('bw-preview').waitFor();
    await screenshot(phone.page, 'write-phone');
    await closeClean(phone);
  });

  it('manages articles and the profile from My profile', async () => {
    const author = await createUser(server, { username: 'cassady', bio: '' });
    const reader = await createUser(server, { username: 'lucien' });
    const first = await createPost(server, author, { title: 'Coffee and pie at the all-night diner', hashtags: ['diner', 'night', 'pie'] }, await samplePng());
    const second = await createPost(server, author, { title: 'Freight trains and the Sierra Nevada', hashtags: ['trains'] });
    await server.api('POST', `/api/posts/${first.id}/rate`, { token: reader.token, json: { post_id: first.id, rating: 4 } });
    await server.api('POST', `/api/posts/${first.id}/comments`, { token: reader.token, json: { content: 'Lovely piece.' } });
    await server.api('GET', `/api/posts/${first.id}`, { token: reader.token });
    await server.api('POST', `/api/follow/${author.id}`, { token: reader.token });

    const watched = await browser.open('/profile', { token: author.token });
    const { page } = watched;
    await page.getByRole('heading', { level: 1, name: 'My profile' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'cassady' }).waitFor();
    await page.getByRole('heading', { name: 'All your articles (2)' }).waitFor();
    const stats = page.locator('.stats-dashboard');
    await stats.getByText('Total visits').waitFor();
    await page.waitForFunction(() => {
      const values = [...document.querySelectorAll('.stats-dashboard__item dd')].map((d) => d.textContent);
      return values.join('|') === '1|4.0|1|1';
    });
    await page.getByText('No biography yet.', { exact: false }).waitFor();
    await page.locator('.my-article', { hasText: first.title }).getByText('#diner').waitFor();
    assert.equal(await page.locator('.my-article', { hasText: first.title }).locator('.my-article__tag').count(), 2, 'two hashtags per row');
    await screenshot(page, 'profile-desktop');

    // Followers list (the shared modal).
    await page.getByRole('button', { name: /Followers/ }).click();
    const followers = page.getByRole('dialog', { name: 'Followers' });
    await followers.getByText('lucien').waitFor();
    await screenshot(page, 'profile-followers-desktop', false);
    await followers.getByRole('button', { name: 'Close' }).click();

    // Edit an article in the modal: validation, then a saved change replaces the row.
    await page.getByRole('button', { name: `Edit “${second.title}”` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit article' });
    const editTitle = edit.getByLabel('Title');
    assert.equal(await editTitle.inputValue(), second.title, 'current values are prefilled');
    await editTitle.fill('Too short');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByRole('alert').filter({ hasText: 'Title must be between 20 and 80 characters' }).waitFor();
    await screenshot(page, 'edit-article-desktop', false);
    await editTitle.fill('Freight trains across the Sierra Nevada');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toastSays(page, 'Article updated successfully!');
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Freight trains across the Sierra Nevada' }).waitFor();

    // Search and sort (server side).
    await page.getByLabel('Search your articles by title, content or hashtags').fill('zebra');
    await page.getByText('No articles found').waitFor();
    await page.getByText('0 articles found for “zebra”').waitFor();
    await page.getByLabel('Search your articles by title, content or hashtags').fill('diner');
    await page.getByText('1 article found for “diner”').waitFor();
    await page.getByLabel('Search your articles by title, content or hashtags').fill('');
    await page.getByLabel('Sort articles').selectOption('best_rated');
    await page.waitForFunction(() => document.querySelector('.my-article__title a')?.textContent === 'Coffee and pie at the all-night diner');

    // Archive, see it among the archived, unarchive.
    await page.getByRole('button', { name: `Archive “${first.title}”` }).click();
    await toastSays(page, 'Article archived successfully');
    await page.getByRole('heading', { name: 'All your articles (1)' }).waitFor();
    await page.getByRole('button', { name: 'Show archived articles' }).click();
    await page.getByRole('heading', { name: 'Your archived articles (1)' }).waitFor();
    await page.locator('.my-article', { hasText: first.title }).getByText('Archived', { exact: true }).waitFor();
    await page.waitForFunction(() => document.querySelector('.stats-dashboard__item dd')?.textContent === '0', undefined, { timeout: 5000 });
    await page.getByRole('button', { name: `Unarchive “${first.title}”` }).click();
    await toastSays(page, 'Article unarchived successfully');
    await page.getByText('No archived articles').waitFor();
    await screenshot(page, 'profile-archived-empty-desktop');
    await page.getByRole('button', { name: 'Show active articles' }).click();
    await page.getByRole('heading', { name: 'All your articles (2)' }).waitFor();

    // Delete with confirmation.
    await page.getByRole('button', { name: `Delete “${first.title}”` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete article' });
    await screenshot(page, 'delete-article-desktop', false);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastSays(page, 'Article deleted successfully');
    await page.getByRole('heading', { name: 'All your articles (1)' }).waitFor();
    assert.equal((await server.api('GET', `/api/posts/${first.id}`)).status, 404);

    // Edit profile: every check, then a change the header shows at once.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const profile = page.getByRole('dialog', { name: 'Edit profile' });
    await profile.getByText('7/35').waitFor();
    await profile.getByText('0/500').waitFor();
    await profile.getByText('Username changes apply immediately to all your posts and comments.').waitFor();
    await profile.getByRole('button', { name: 'Save Changes' }).click();
    await profile.getByRole('alert').filter({ hasText: 'No changes have been made' }).waitFor();
    await profile.getByLabel('Username').fill('ca');
    await profile.getByText('2/35').waitFor();
    await profile.getByLabel('Biography').fill('b'.repeat(501));
    await profile.getByText('501/500').waitFor();
    await profile.getByRole('button', { name: 'Save Changes' }).click();
    await profile.getByRole('alert').filter({ hasText: 'Username must be between 3 and 35 characters' }).waitFor();
    await profile.getByRole('alert').filter({ hasText: 'Biography cannot exceed 500 characters' }).waitFor();
    const avatar = profile.locator('#profile-avatar');
    await avatar.setInputFiles({ name: 'a.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
    await profile.getByRole('alert').filter({ hasText: 'Please select a valid image file' }).waitFor();
    await avatar.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) });
    await profile.getByRole('alert').filter({ hasText: 'Image cannot exceed 2MB' }).waitFor();
    await avatar.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await samplePng(40, 40) });
    await profile.getByRole('img', { name: 'New profile picture' }).waitFor();
    await screenshot(page, 'edit-profile-desktop', false);
    await profile.getByRole('button', { name: 'Cancel image change' }).click();
    await profile.getByRole('img', { name: 'New profile picture' }).waitFor({ state: 'detached' });
    await avatar.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await samplePng(40, 40) });
    await profile.getByLabel('Username').fill('neal_cassady');
    await profile.getByLabel('Biography').fill('Drove across America.');
    let sentFields: string[] = [];
    await page.route('**/api/users/me', async (route) => {
      const request = route.request();
      if (request.method() === 'PUT') {
        const body = request.postDataBuffer()?.toString('latin1') ?? '';
        sentFields = [...body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]!);
      }
      await route.continue();
    });
    await profile.getByRole('button', { name: 'Save Changes' }).click();
    await toastSays(page, 'Profile updated successfully!');
    assert.deepEqual(sentFields.sort(), ['avatar', 'bio', 'username']);
    await page.locator('.reader-tools__username', { hasText: 'neal_cassady' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'neal_cassady' }).waitFor();
    await page.getByText('Drove across America.').waitFor();
    await page.getByRole('img', { name: "neal_cassady's avatar" }).first().waitFor();
    await closeClean(watched);

    const phone = await browser.open('/profile', { token: author.token, viewport: PHONE });
    await phone.page.getByRole('heading', { name: 'All your articles (1)' }).waitFor();
    await screenshot(phone.page, 'profile-phone');
    await phone.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await phone.page.getByRole('dialog', { name: 'Edit profile' }).waitFor();
    await screenshot(phone.page, 'edit-profile-phone', false);
    await phone.page.keyboard.press('Escape');
    await phone.page.getByRole('button', { name: 'Edit “Freight trains across the Sierra Nevada”' }).click();
    await phone.page.getByRole('dialog', { name: 'Edit article' }).waitFor();
    await screenshot(phone.page, 'edit-article-phone', false);
    await closeClean(phone);
  });

  it("shows a new author's empty profile", async () => {
    const author = await createUser(server, { username: 'hunke' });
    const watched = await browser.open('/profile', { token: author.token });
    const { page } = watched;
    await page.getByText("You haven't published yet").waitFor();
    await page.getByRole('link', { name: 'Write my first article' }).click();
    await page.waitForURL('**/write');
    await closeClean(watched);
  });

  it('updates the bell and the notifications page when readers comment and follow', async () => {
    const author = await createUser(server, { username: 'snyder' });
    const reader = await createUser(server, { username: 'whalen' });
    const post = await createPost(server, author, { title: 'Climbing the Matterhorn in the rain' });

    const watched = await browser.open('/notifications', { token: author.token });
    const { page } = watched;
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByText("You're all caught up").waitFor();
    await page.getByText('No notifications yet').waitFor();
    await page.getByRole('button', { name: /Unread/ }).click();
    await page.getByText('No unread notifications').waitFor();
    await screenshot(page, 'notifications-empty-desktop');

    await server.api('POST', `/api/posts/${post.id}/comments`, { token: reader.token, json: { content: 'Great climb.' } });
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: reader.token, json: { post_id: post.id, rating: 5 } });
    await server.api('POST', `/api/follow/${author.id}`, { token: reader.token });

    // The bell refreshes on its 30 s poll or on a new page load: reload rather than wait.
    await page.reload();
    await page.getByRole('link', { name: 'Notifications, 2 unread' }).waitFor();
    await page.getByText('You have 2 unread notifications').waitFor();
    await page.getByRole('button', { name: 'All (2)' }).waitFor();
    await page.getByRole('button', { name: 'Unread (2)' }).waitFor();
    const cards = page.locator('.notice');
    assert.equal(await cards.count(), 2);
    await page.locator('.notice', { hasText: 'Climbing the Matterhorn in the rain' }).getByText('whalen').first().waitFor();
    assert.equal(await page.locator('.notice__marker', { hasText: 'New' }).count(), 2);
    await screenshot(page, 'notifications-desktop');

    await page.locator('.notice').first().getByRole('button', { name: /Mark .* as read/ }).click();
    await toastSays(page, 'Notification marked as read');
    await page.getByText('You have 1 unread notification', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();
    await page.locator('.notice__marker', { hasText: 'Read' }).waitFor();

    await page.getByRole('button', { name: 'Unread (1)' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.notice').length === 1);
    await page.locator('.notice').getByRole('button', { name: /Mark .* as read/ }).click();
    await page.getByText('No unread notifications').waitFor();
    await page.getByText("You're all caught up").waitFor();
    await page.getByRole('link', { name: 'Notifications', exact: true }).first().waitFor();
    assert.equal(await page.locator('.reader-tools__bell .badge').count(), 0, 'no badge at zero');
    await closeClean(watched);

    const phone = await browser.open('/notifications', { token: author.token, viewport: PHONE });
    await phone.page.locator('.notice').first().waitFor();
    await screenshot(phone.page, 'notifications-phone');
    await closeClean(phone);
  });

  it("offers 'Load more' only as a coming-soon message past 50 notifications", async () => {
    const author = await createUser(server, { username: 'ferlinghetti' });
    const readers = await Promise.all([1, 2, 3].map((i) => createUser(server, { username: `reader_lm${i}` })));
    const post = await createPost(server, author);
    for (let i = 0; i < 51; i += 1) {
      const r = readers[i % 3]!;
      await server.api('POST', `/api/posts/${post.id}/comments`, { token: r.token, json: { content: `Comment ${i}` } });
    }
    const watched = await browser.open('/notifications', { token: author.token });
    const { page } = watched;
    await page.getByText('You have 51 unread notifications').waitFor();
    assert.equal(await page.locator('.notice').count(), 50, 'a page of 50');
    await page.getByRole('button', { name: 'Load more' }).click();
    await toastSays(page, 'Loading older notifications is coming soon.');
    assert.equal(await page.locator('.notice').count(), 50);
    await closeClean(watched);
  });
});
