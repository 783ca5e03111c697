// The public pages as the server renders them (DESIGN.md, Reach), in Chromium: with JavaScript on,
// the browser adopts the page without a hydration error and without asking again for the data it
// came with, for a visitor and for a signed-in reader, whose own tools follow; moving around works
// and the tab's title follows. With JavaScript off, every page reads fully and its links lead on.
// Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PAGE_DATA_ID, type PageData } from '../../client/page-data.ts';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, samplePng, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, hydrated, startReader, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let author: TestUser;
let fan: TestUser;
let post: any;
const CONTENT = 'The first line of a long night on the road, told slowly.\n\n'
  + 'A second paragraph, with the city going by the window and the radio playing bop until the morning.';

/** Every API address the page asks for, from its first request on. */
function apiRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
  });
  return asked;
}

/** The addresses the page's embedded data answers. */
async function embedded(page: Page): Promise<string[]> {
  const text = await page.locator(`script#${PAGE_DATA_ID}`).textContent();
  return Object.keys((JSON.parse(text!) as PageData).reads);
}

/** The tab title once the app has run, beside the one the server wrote. */
async function titles(page: Page): Promise<[string, string]> {
  const served = await page.evaluate(async () => (await fetch(location.href)).text());
  const [, title] = /<title>([^<]*)<\/title>/.exec(served) ?? [];
  return [title!.replace(/&#39;/g, "'"), await page.title()];
}

describe('server-rendered pages in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    author = await createUser(server, { username: 'ferlinghetti_sr', bio: 'Runs a bookshop. Writes in the back room.' });
    fan = await createUser(server, { username: 'corso_sr' });
    post = await createPost(server, author, { title: 'A Coney Island of the mind, revisited', content: CONTENT, hashtags: ['poetry', 'city'] },
      await samplePng(900, 600));
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: fan.token, json: { content: 'Read it twice on the ferry.' } });
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: fan.token, json: { rating: 4 } });
    // The moderation log's one entry: an article the desk removed.
    const desk = await createAdmin(server, { username: 'desk_sr' });
    const removed = await createPost(server, author, { title: 'A poem posted twice by mistake' });
    await server.api('DELETE', `/api/admin/delete-post/${removed.id}?reason=Posted%20twice`, { token: desk.token });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  const pages = () => [
    { path: '/', ready: '.hero__title', title: 'FrontPage · Beatnik' },
    { path: `/post/${post.id}`, ready: '.article__title', title: `${post.title} · Beatnik` },
    { path: '/ranks?hashtag=poe', ready: '.rank-row', title: 'The Pulse · Beatnik' },
    { path: '/authors', ready: '.voice-card', title: 'Voices · Beatnik' },
    { path: '/beatnik/ferlinghetti_sr', ready: '.author-list__row', title: 'ferlinghetti_sr · Beatnik' },
    { path: '/moderation', ready: '.moderation-entry', title: 'Moderation log · Beatnik' },
  ];

  it('a visitor: each page is adopted without an error and without asking again for its data', async () => {
    for (const { path, ready, title } of pages()) {
      const watched = await reader.open('about:blank');
      const asked = apiRequests(watched.page);
      await watched.page.goto(path);
      await watched.page.locator(ready).first().waitFor();
      await hydrated(watched.page);
      await watched.page.waitForLoadState('networkidle');
      assert.ok((await embedded(watched.page)).length > 0, path);
      assert.deepEqual(asked, [], `${path}: a visitor's page asks the API for nothing`);
      assert.deepEqual(await titles(watched.page), [title, title], path);
      await closeClean(watched);
    }
  });

  it('a signed-in reader: the visitor’s page first, then their own tools, still without its data again', async () => {
    for (const { path, ready, title } of pages()) {
      const watched = await reader.open('about:blank');
      await watched.context.addInitScript((token) => localStorage.setItem('beatnik.token', token), fan.token);
      const asked = apiRequests(watched.page);
      await watched.page.goto(path);
      await watched.page.locator(ready).first().waitFor();
      await watched.page.locator('.reader-tools__logout').waitFor();
      await watched.page.waitForLoadState('networkidle');
      const data = await embedded(watched.page);
      assert.deepEqual(asked.filter((url) => data.includes(url)), [], `${path}: none of the embedded data is asked again`);
      assert.equal(await watched.page.title(), title, path);
      await closeClean(watched);
    }
  });

  it("a signed-in reader's article shows their own rating and the follow button once they are known", async () => {
    const rated = await createPost(server, author, { title: 'Pictures of the gone world, rated twice' });
    await server.api('POST', `/api/posts/${rated.id}/rate`, { token: fan.token, json: { rating: 4 } });
    const watched = await reader.open(`/post/${rated.id}`, { token: fan.token });
    const { page } = watched;
    await page.getByText('Your rating: 4 of 5').waitFor();
    await page.getByRole('button', { name: 'Follow ferlinghetti_sr' }).waitFor();
    await page.getByLabel('Your comment').waitFor();
    await page.locator('.rate__star', { hasText: '5 stars' }).click();
    await page.getByRole('button', { name: 'Submit rating' }).click();
    await page.getByText('Your rating: 5 of 5').waitFor();
    await page.locator('.article__stats', { hasText: '5.0 (1)' }).waitFor();
    await closeClean(watched);
  });

  it('moving between pages works, each read by the app itself, and the title follows', async () => {
    const watched = await reader.open('/');
    const { page } = watched;
    await hydrated(page);
    const asked = apiRequests(page);
    await page.getByRole('link', { name: post.title, exact: true }).first().click();
    await h1(page, post.title).waitFor();
    await page.locator('.comment', { hasText: 'Read it twice on the ferry.' }).waitFor();
    assert.ok(asked.includes(`/api/posts/${post.id}`), 'the article is read by the app, no longer embedded');
    assert.equal(await page.title(), `${post.title} · Beatnik`);
    await page.locator('.article__byline').getByRole('link', { name: 'ferlinghetti_sr' }).click();
    await h1(page, 'ferlinghetti_sr').waitFor();
    assert.equal(await page.title(), 'ferlinghetti_sr · Beatnik');
    await page.goBack();
    await h1(page, post.title).waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'The Pulse' }).click();
    await h1(page, 'The Pulse').waitFor();
    assert.equal(await page.title(), 'The Pulse · Beatnik');
    await closeClean(watched);
  });

  it('readers far east and far west of the server see their own date once the page is adopted', async () => {
    // One of these two is on another day than UTC at any hour.
    for (const timezoneId of ['Pacific/Kiritimati', 'Etc/GMT+12']) {
      const watched = await reader.open('/', { timezoneId });
      await hydrated(watched.page);
      const today = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: timezoneId }).format(new Date());
      await watched.page.locator('.masthead__dateline', { hasText: today }).waitFor();
      await closeClean(watched);
    }
  });

  describe('with JavaScript off', () => {
    async function openWithoutScript(path: string, token?: string) {
      const context = await reader.browser.newContext({ baseURL: server.url, javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      if (token) await context.addInitScript((t) => localStorage.setItem('beatnik.token', t), token);
      const page = await context.newPage();
      const response = await page.goto(path);
      return { context, page, status: response?.status() };
    }

    it('an article reads fully: title, author, date, picture, content, hashtags, rating and comments', async () => {
      for (const token of [undefined, fan.token]) {
        const { context, page, status } = await openWithoutScript(`/post/${post.id}`, token);
        assert.equal(status, 200);
        await h1(page, post.title).waitFor();
        const article = page.locator('.article');
        assert.equal(await article.locator('.byline__author').innerText(), 'ferlinghetti_sr');
        assert.equal(await article.locator('.article__byline time').getAttribute('datetime'), post.created_at);
        assert.match(await article.locator('.article__byline time').innerText(), /ago|just now/);
        const picture = article.locator('img.article__image');
        assert.equal(await picture.getAttribute('src'), post.image);
        await page.waitForFunction(() => (document.querySelector('img.article__image') as HTMLImageElement | null)?.naturalWidth === 900);
        assert.match(await article.locator('.article__content').innerText(), /told slowly\.\n+A second paragraph.*until the morning\./s);
        assert.deepEqual(await article.locator('.tags a').allInnerTexts(), ['#poetry', '#city']);
        assert.match(await article.locator('.article__stats').innerText(), /4\.0 \(1\)/);
        await page.locator('.comment', { hasText: 'Read it twice on the ferry.' }).waitFor();
        assert.equal(await page.locator('script[type="module"]').count() > 0, true, 'the scripts are there, just not run');
        if (!token) await screenshot(page, 'server-rendered-article-no-js');
        await context.close();
      }
    });

    it('links lead on: author, hashtag, sections, and The Pulse’s hashtag search', async () => {
      const { context, page } = await openWithoutScript(`/post/${post.id}`);
      await page.locator('.article__byline').getByRole('link', { name: 'ferlinghetti_sr' }).click();
      await h1(page, 'ferlinghetti_sr').waitFor();
      await page.getByText('Runs a bookshop. Writes in the back room.').waitFor();
      await page.locator('.author-list__title', { hasText: post.title }).waitFor();
      await page.locator('.author-list').getByRole('link', { name: '#poetry' }).click();
      await h1(page, 'The Pulse').waitFor();
      assert.equal(new URL(page.url()).search, '?hashtag=poetry');
      await page.locator('.rank-row__title', { hasText: post.title }).waitFor();
      await page.getByLabel('Search hashtags').fill('nothing-matches');
      await page.locator('#main').getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL((url) => url.search === '?hashtag=nothing-matches');
      await page.getByText('No articles found with hashtags containing "nothing-matches"').waitFor();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Voices' }).click();
      await page.locator('.voice-card', { hasText: 'ferlinghetti_sr' }).getByRole('link', { name: 'Ver perfil: ferlinghetti_sr' }).waitFor();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'FrontPage' }).click();
      await page.getByRole('link', { name: post.title, exact: true }).first().waitFor();
      await context.close();
    });

    it('the masthead’s search field finds an article by a word without its accent, its words marked', async () => {
      const accented = await createPost(server, author, {
        title: 'Un café au lait at the Beat Hotel', hashtags: ['paris'],
        content: 'Every morning a café au lait, and a poem written on the napkin before the coffee got cold. '.repeat(3),
      });
      const { context, page } = await openWithoutScript('/');
      await page.getByRole('banner').getByLabel('Search articles').fill('cafe lai');
      await page.getByRole('banner').getByRole('button', { name: 'Search' }).click();
      await page.waitForURL((url) => url.pathname === '/search' && url.search === '?q=cafe+lai');
      await h1(page, 'Search: cafe lai').waitFor();
      const row = page.locator('.search-results__row', { hasText: accented.title });
      await row.waitFor();
      const marked = await row.locator('.search-results__snippet mark').allInnerTexts();
      assert.ok(marked.includes('café') && marked.includes('lait'), `marked: ${marked.join(', ')}`);
      await screenshot(page, 'server-rendered-search-no-js');
      await row.getByRole('link', { name: accented.title }).click();
      await h1(page, accented.title).waitFor();
      await context.close();
    });

    it('the moderation log is a link in the footer, and reads: who acted, on what, why and when', async () => {
      const { context, page } = await openWithoutScript('/');
      await page.locator('.colophon').getByRole('link', { name: 'Moderation log' }).click();
      await h1(page, 'Moderation log').waitFor();
      assert.equal(new URL(page.url()).pathname, '/moderation');
      const entry = page.locator('.moderation-entry').first();
      assert.equal(await entry.locator('.moderation-entry__what').innerText(),
        'desk_sr removed the article “A poem posted twice by mistake” by ferlinghetti_sr.');
      assert.equal(await entry.locator('.moderation-entry__reason').innerText(), 'Reason: Posted twice');
      assert.match(await entry.locator('.moderation-entry__when').innerText(), /^\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC$/);
      await screenshot(page, 'server-rendered-moderation-no-js');
      await entry.getByRole('link', { name: 'ferlinghetti_sr' }).click();
      await h1(page, 'ferlinghetti_sr').waitFor();
      await context.close();
    });

    it('a missing article is a 404 that says so', async () => {
      const { context, page, status } = await openWithoutScript('/post/987654');
      assert.equal(status, 404);
      await h1(page, 'Article not found').waitFor();
      await context.close();
    });
  });
});
