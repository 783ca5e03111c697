// Shared by the browser tests: one Chromium per file, pages watched for console errors and
// off-origin requests, sign-in by a stored token, and the two viewports of the screenshots.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers.ts';
import { onPostgres } from '../postgres-databases.ts';
import { launchBrowser, openPage, type WatchOptions, type WatchedPage } from './browser.ts';

const BUILT_INDEX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/client/index.html');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** For the sweeps that open every page to measure what the browser does with it (layout, shift,
 * hydration, headings): they run once, on SQLite. Each page's HTML and data come from the same
 * code on either database, and what each page shows from PostgreSQL is checked there by its own
 * screen's tests and server-rendered.test.ts. */
export const SWEEP_ON_SQLITE = { skip: onPostgres && 'a sweep of the browser over every page: run on SQLite' };

type AllowConsoleError = NonNullable<WatchOptions['allowConsoleError']>;

export interface Reader {
  browser: Browser;
  opened: WatchedPage[];
  /** Opens a page, signed in when a token is given; `allow` tolerates console errors containing one
   *  of its strings (in the message or the failing resource's URL), or those it returns true for. */
  open(urlPath: string, options?: {
    token?: string; viewport?: typeof DESKTOP; allow?: string[] | AllowConsoleError; timezoneId?: string;
  }): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** `timeout`, when given, is every opened page's default for waits and actions (ms). */
export async function startReader(server: TestServer, { timeout }: { timeout?: number } = {}): Promise<Reader> {
  assert.ok(existsSync(BUILT_INDEX), 'dist/client is missing: run `npm run build` first');
  const browser = await launchBrowser();
  const opened: WatchedPage[] = [];
  return {
    browser,
    opened,
    async open(urlPath, options = {}) {
      const allow = options.allow ?? [];
      const watched = await openPage(browser, server.url, {
        viewport: options.viewport ?? DESKTOP,
        timezoneId: options.timezoneId,
        allowConsoleError: typeof allow === 'function' ? allow
          : (text, url) => allow.some((a) => text.includes(a) || url.includes(a)),
      });
      if (timeout !== undefined) watched.page.setDefaultTimeout(timeout);
      if (options.token) {
        await watched.context.addInitScript((token) => localStorage.setItem('beatnik.token', token), options.token);
      }
      opened.push(watched);
      await watched.page.goto(urlPath);
      return watched;
    },
    async close() {
      await Promise.all(opened.map((w) => w.context.close().catch(() => {})));
      await browser.close();
    },
  };
}

/** A test server and a Chromium on it: `server` and `reader` are set once the `before` hooks ran. */
export interface Site {
  readonly server: TestServer;
  readonly reader: Reader;
}

/**
 * One server and one Chromium for the tests of the file or suite it is called in: started before
 * them (a later `before` of the caller's may then seed what they share), closed after them, also
 * when a start failed.
 */
export function serverAndReader(options: { timeout?: number } = {}): Site {
  const site = {} as { server: TestServer; reader: Reader };
  before(async () => {
    site.server = await startTestServer();
    site.reader = await startReader(site.server, options);
  });
  after(async () => {
    await site.reader?.close();
    await site.server?.stop();
  });
  return site;
}

export async function closeClean(watched: WatchedPage): Promise<void> {
  await watched.context.close();
  assert.deepEqual(watched.problems, [], 'the page logged errors or made requests off its origin');
}

export const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/** Waits for a toast with exactly this text. */
export async function toastSays(page: Page, text: string): Promise<void> {
  await page.locator('[data-rht-toaster] [role="status"]', { hasText: text }).first().waitFor();
}

/** The visible text of every element matching the selector, in order. */
export function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).allInnerTexts().then((all) => all.map((t) => t.trim()));
}

/** Resolves once React has taken over the page the server sent (or rendered the shell's). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const sheet = document.querySelector('#root .sheet');
    return sheet !== null && Object.keys(sheet).some((key) => key.startsWith('__reactFiber'));
  });
}

/**
 * Moves to `urlPath` inside the app, as a click on one of its links does: the page then reads its
 * data from the API itself, as no server-rendered page does on arrival (its data comes with it).
 */
export async function openInApp(page: Page, urlPath: string): Promise<void> {
  await hydrated(page);
  await page.evaluate((to) => history.pushState(null, '', to), urlPath);
}
