// Cumulative layout shift stays ≤ 0.1 on every page (DESIGN.md, Edges: Layout), at 390 and 1280 px:
// pictures and avatars carry their size, skeletons and rows waiting for data hold their place, the
// footer waits below the fold, the fonts are there for the first paint or stay out (optional).
// Measured in Chromium with a PerformanceObserver (layout-shift entries, buffered, none after
// input) once the page has its data, its pictures and its fonts, and again after scrolling to the
// bottom (lazy pictures).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openLongestSite, type LongestRun, type LongestSite } from './longest-inputs.ts';
import { DESKTOP, PHONE, SWEEP_ON_SQLITE, closeClean } from './reader-support.ts';

const LIMIT = 0.1;

let run: LongestRun;

interface Screen {
  name: string;
  path: (site: LongestSite) => string;
  as?: 'author' | 'admin';
  /** What shows once the page has its data. */
  ready: string[];
}

const SCREENS: Screen[] = [
  { name: 'home', path: () => '/', ready: ['.hero__title', '.story', '.topics .chip'] },
  { name: 'article', path: (s) => `/post/${s.postId}`, ready: ['.article__title', '.comment', '.top-ranking__item'] },
  { name: 'the pulse', path: () => '/ranks', ready: ['.rank-row', '.pulse__popular .chip'] },
  { name: 'voices', path: () => '/authors', ready: ['.voice-card', '.voices__footer'] },
  { name: 'public profile', path: (s) => `/beatnik/${s.author.username}`, ready: ['.author__name', '.author-list__row'] },
  { name: 'moderation log', path: () => '/moderation', ready: ['.moderation-entry__reason'] },
  { name: 'login', path: () => '/login', ready: ['.auth form'] },
  { name: 'register', path: () => '/register', ready: ['.auth form'] },
  { name: 'my profile', path: () => '/profile', as: 'author', ready: ['.profile-head__name', '.my-article'] },
  { name: 'write', path: () => '/write', as: 'author', ready: ['.article-form'] },
  { name: 'notifications', path: () => '/notifications', as: 'author', ready: ['.notice'] },
  { name: 'admin', path: () => '/admin', as: 'admin', ready: ['.admin-row__title'] },
];

/** Every shift is recorded from the first byte; the page is read with takeRecords() so entries not
 * yet delivered to the callback count too. Plain text: tsx would wrap named functions. */
const RECORD_SHIFTS = `(() => {
  window.__layoutShift = 0;
  const add = (entries) => { for (const e of entries) if (!e.hadRecentInput) window.__layoutShift += e.value; };
  window.__shiftObserver = new PerformanceObserver((list) => add(list.getEntries()));
  window.__shiftObserver.observe({ type: 'layout-shift', buffered: true });
  window.__readShift = () => { add(window.__shiftObserver.takeRecords()); return window.__layoutShift; };
})()`;

/** Waits until the pictures in view have loaded, the fonts are in and two frames have been laid out. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((img) => {
    const box = img.getBoundingClientRect();
    return img.complete || box.bottom < 0 || box.top > window.innerHeight;
  }));
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

const shift = (page: Page) => page.evaluate<number>('window.__readShift()');

for (const viewport of [PHONE, DESKTOP]) {
  describe(`layout shift at ${viewport.width} px`, SWEEP_ON_SQLITE, () => {
    before(async () => { run = await openLongestSite(); });
    after(() => run?.close());

    for (const screen of SCREENS) {
      const { name } = screen;
      it(`${name} stays under ${LIMIT}`, async () => {
        const watched = await run.reader.open('about:blank', { viewport });
        const { page } = watched;
        await page.addInitScript(RECORD_SHIFTS);
        if (screen.as) await page.addInitScript((token) => localStorage.setItem('beatnik.token', token), run.site[screen.as].token);
        await page.goto(screen.path(run.site));
        for (const selector of screen.ready) await page.locator(selector).first().waitFor({ state: 'attached' });
        await settle(page);
        const loaded = await shift(page);
        assert.ok(loaded <= LIMIT, `layout shift ${loaded.toFixed(3)} while ${name} loaded`);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await settle(page);
        const scrolled = await shift(page);
        assert.ok(scrolled <= LIMIT, `layout shift ${scrolled.toFixed(3)} once ${name} was scrolled to the end`);
        await closeClean(watched);
      });
    }
  });
}
