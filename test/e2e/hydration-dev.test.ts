// Hydration checked by React's development build, which says what the production build keeps to
// itself: a text, an attribute or an element of the browser's first render that differs from the
// server's HTML is a console warning or error there. Every public page, for a visitor and for a
// signed-in reader, on both sides of the date line, must log none. Builds its own development
// client beside dist/client (a few seconds); the server renders with React from source as always.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { clientBuildOptions, writePage } from '../../scripts/build.ts';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, samplePng, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { launchBrowser } from './browser.ts';
import { SWEEP_ON_SQLITE, hydrated } from './reader-support.ts';

let clientDir: string;
let server: TestServer;
let browser: Browser;
let author: TestUser;
let fan: TestUser;
let post: any;

describe("hydration, as React's development build sees it", SWEEP_ON_SQLITE, () => {
  before(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'beatnik-dev-client-'));
    const result = await esbuild.build(clientBuildOptions(true, clientDir));
    writePage(result.metafile!, clientDir);
    server = await startTestServer({ clientDir });
    browser = await launchBrowser();
    author = await createUser(server, { username: 'snyder_dev', bio: 'Mountains and rivers.' });
    fan = await createUser(server, { username: 'whalen_dev' });
    post = await createPost(server, author, { title: 'Riprap, laid down on the trail', hashtags: ['poetry'] }, await samplePng(600, 400));
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: fan.token, json: { content: 'Cobble of words.' } });
    await server.api('POST', `/api/posts/${post.id}/rate`, { token: fan.token, json: { rating: 5 } });
    // The moderation log with a dated ban in it, told in each reader's zone once hydrated.
    const desk = await createAdmin(server, { username: 'desk_dev' });
    const banned = await createUser(server, { username: 'kerouac_dev' });
    await server.api('POST', '/api/admin/ban-user', {
      token: desk.token, json: { user_id: banned.id, ban_type: 'temporary', ban_reason: 'Cooling off', ban_until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('logs no warning and no error on any public page, for a visitor or a signed-in reader', async () => {
    const paths = ['/', `/post/${post.id}`, '/ranks?hashtag=poe&time_period=7d', '/authors', '/beatnik/snyder_dev', '/post/987654', '/beatnik/nobody_dev',
      '/search?q=%20Ripra', '/search', '/moderation'];
    for (const timezoneId of ['Pacific/Kiritimati', 'Etc/GMT+12']) {
      for (const token of [undefined, fan.token]) {
        // One reader going from page to page: each a whole load and hydration of its own, the
        // development client's code from the browser's cache after the first page.
        const context = await browser.newContext({ baseURL: server.url, timezoneId });
        if (token) await context.addInitScript((t) => localStorage.setItem('beatnik.token', t), token);
        const page = await context.newPage();
        let said: string[] = [];
        page.on('console', (message) => {
          // The 404 of a missing page's own document is the browser's line, not React's.
          if (/^(warning|error)$/.test(message.type()) && !message.text().includes('status of 404')) said.push(`${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => said.push(`uncaught: ${error.message}`));
        for (const urlPath of paths) {
          await page.goto(urlPath);
          await hydrated(page);
          if (token) await page.locator('.reader-tools__logout').waitFor();
          await page.waitForLoadState('networkidle');
          assert.deepEqual(said, [], `${urlPath} (${timezoneId}${token ? ', signed in' : ''})`);
          said = [];
        }
        await context.close();
      }
    }
  });
});
