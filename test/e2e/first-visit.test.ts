// What a reader's first visit downloads (docs/performance.md, Lighthouse): the reader pages' code
// only, every script the page needs asked for at once from index.html, the author and admin screens
// loaded on first use. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { createAdmin, startTestServer, type TestServer } from '../helpers.ts';
import { closeClean, h1, startReader, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;

/** Every same-origin request the page makes, by path, in order. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname + new URL(request.url()).search));
  return paths;
}

describe('a first visit', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('asks index.html for every script Home needs, and for none of the other screens', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!);
    assert.ok(preloaded.length > 0, 'the entry imports a shared chunk, preloaded');

    const watched = await reader.open('about:blank');
    const requests = recordRequests(watched.page);
    await watched.page.goto('/');
    await h1(watched.page, 'FrontPage').waitFor({ state: 'attached' });
    await watched.page.getByRole('heading', { name: 'The presses are waiting' }).waitFor();
    const scripts = requests.filter((p) => p.endsWith('.js'));
    assert.deepEqual(scripts.filter((p) => !preloaded.includes(p)).map((p) => p.replace(/-\w+\.js$/, '')), ['/assets/main'],
      'no script is found only once another has run');
    assert.ok(!scripts.some((p) => p.startsWith('/assets/screens-')), 'the author and admin screens are not loaded');
    await closeClean(watched);
  });

  it('loads the other screens when one is opened', async () => {
    const admin = await createAdmin(server);
    await createPost(server, admin);
    const watched = await reader.open('about:blank');
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
