// What a reader's first visit downloads, and when (docs/performance.md, Lighthouse): the reader
// pages' code only, every script asked for at once from the page, the page's content and data in
// the page itself (server-rendered), the author and admin screens loaded on first use, the fonts
// of the first paint preloaded, the main picture first. Needs the built client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { createAdmin, samplePng } from '../helpers.ts';
import { closeClean, h1, hydrated, serverAndReader } from './reader-support.ts';

const site = serverAndReader();

/** Every same-origin request the page makes, by path, in order. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname + new URL(request.url()).search));
  return paths;
}

describe('a first visit', () => {
  it('names in the page every script Home needs, and none of the other screens', async () => {
    const html = await (await fetch(`${site.server.url}/`)).text();
    const named = [...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(named.some((p) => p.startsWith('/assets/chunk-')), 'the entry imports a shared chunk, preloaded');

    const watched = await site.reader.open('about:blank');
    const requests = recordRequests(watched.page);
    await watched.page.goto('/');
    await watched.page.locator('.hero__title, .empty-edition').first().waitFor();
    const scripts = requests.filter((p) => p.endsWith('.js'));
    assert.deepEqual(scripts.filter((p) => !named.includes(p)), [], 'no script is found only once another has run');
    assert.ok(!scripts.some((p) => p.startsWith('/assets/screens-')), 'the author and admin screens are not loaded');
    await closeClean(watched);
  });

  it("shows a public page's content before the app's script has run, and asks the API for nothing", async () => {
    const author = await createAdmin(site.server);
    const post = await createPost(site.server, author);
    const pages: Array<[string, string]> = [
      ['/', '.hero__title'], [`/post/${post.id}`, '.article__title'], ['/ranks', '.rank-row'], ['/authors', '.voice-card'],
    ];
    for (const [path, content] of pages) {
      const watched = await site.reader.open('about:blank');
      const { page } = watched;
      const reads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) reads.push(url.pathname + url.search);
      });
      // The app's script waits until the page's content is on screen: it must not need it.
      let shown!: () => void;
      const onScreen = new Promise<void>((resolve) => { shown = resolve; });
      await page.route('**/assets/main-*.js', async (route) => { await onScreen; await route.continue(); });
      await page.goto(path, { waitUntil: 'commit' });
      await page.locator(content).first().waitFor();
      shown();
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      assert.deepEqual(reads, [], `${path}: its data came with it`);
      await closeClean(watched);
    }
  });

  it('has the fonts of the first paint preloaded, each downloaded once', async () => {
    const author = await createAdmin(site.server);
    await createPost(site.server, author);
    const html = await (await fetch(`${site.server.url}/`)).text();
    const preloaded = [...html.matchAll(/<link rel="preload" href="([^"]+\.woff2)" as="font" type="font\/woff2" crossorigin>/g)].map((m) => m[1]!);
    assert.deepEqual(preloaded.map((p) => p.replace(/-\w+\.woff2$/, '')).sort(), [
      '/assets/libre-baskerville-latin-400-italic', '/assets/libre-baskerville-latin-wght-normal',
      '/assets/playfair-display-latin-wght-normal', '/assets/unifrakturmaguntia-latin-400-normal',
    ]);

    const watched = await site.reader.open('about:blank');
    const requests = recordRequests(watched.page);
    await watched.page.goto('/');
    await watched.page.locator('.hero__title').waitFor();
    await watched.page.evaluate(() => document.fonts.ready);
    const fonts = requests.filter((p) => p.endsWith('.woff2'));
    assert.deepEqual(fonts.filter((p, i) => fonts.indexOf(p) !== i), [], 'a preload the page could not use is downloaded twice');
    for (const font of preloaded) assert.ok(fonts.includes(font), `${font} is preloaded`);
    const used = await watched.page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family} ${f.style}`));
    for (const face of ['Playfair Display normal', 'Libre Baskerville normal', 'Libre Baskerville italic', 'UnifrakturMaguntia normal']) {
      assert.ok(used.includes(face), `${face} is in use: ${used.join(', ')}`);
    }
    await closeClean(watched);
  });

  it('fetches the main picture of Home and of an article first, the others as they near the screen', async () => {
    const author = await createAdmin(site.server);
    const pictured = await createPost(site.server, author, { title: 'The newest article, with a picture' }, await samplePng(600, 400));
    const watched = await site.reader.open('/');
    const hero = watched.page.locator('.hero img');
    await hero.waitFor();
    assert.deepEqual(await hero.evaluate((img) => [img.getAttribute('fetchpriority'), img.getAttribute('loading')]), ['high', 'eager']);
    const others = watched.page.locator('.story img');
    for (const img of await others.all()) assert.equal(await img.getAttribute('loading'), 'lazy');
    await watched.page.goto(`/post/${pictured.id}`);
    assert.equal(await watched.page.locator('.article__image').getAttribute('fetchpriority'), 'high');
    await closeClean(watched);
  });

  it('loads the other screens when one is opened', async () => {
    const admin = await createAdmin(site.server);
    await createPost(site.server, admin);
    const watched = await site.reader.open('about:blank');
    await watched.page.addInitScript((token) => localStorage.setItem('beatnik.token', token), admin.token);
    const requests = recordRequests(watched.page);
    await watched.page.goto('/admin');
    await h1(watched.page, 'Admin').waitFor();
    assert.equal(requests.filter((p) => p.startsWith('/assets/screens-')).length, 1);
    await watched.page.getByRole('link', { name: 'Write' }).first().click();
    await h1(watched.page, 'Write').waitFor();
    await closeClean(watched);
  });
});
