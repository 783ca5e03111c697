// No page is wider than the screen (DESIGN.md, Edges: Layout): every page and modal, at 390 and
// 1280 px, on a site whose names, titles, articles, hashtags, bios, comments, reasons, notices and report notes
// are single words as long as the server allows. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { LIMITS, openLongestSite, word, type LongestRun, type LongestSite } from './longest-inputs.ts';
import { DESKTOP, PHONE, SWEEP_ON_SQLITE, closeClean } from './reader-support.ts';

let run: LongestRun;

interface Screen {
  name: string;
  path: (site: LongestSite) => string;
  as?: 'author' | 'reader' | 'admin';
  /** What shows once the page has its data. */
  ready: string[];
  /** Console errors the page is expected to log (an unknown author's 404). */
  allow?: string[];
  /** Brings up the part under test (a modal, a tab, typed input) and waits for it. */
  then?: (page: Page) => Promise<void>;
}

const profileOf = (s: LongestSite) => `/beatnik/${s.author.username}`;
const openDialog = (button: (page: Page) => ReturnType<Page['getByRole']>, ready: string) => async (page: Page) => {
  await button(page).first().click();
  await page.locator(`dialog[open] ${ready}`).first().waitFor();
};

const SCREENS: Screen[] = [
  { name: 'home', path: () => '/', ready: ['.hero__title', '.story', '.feed__item', '.topics .chip'] },
  { name: 'article', path: (s) => `/post/${s.postId}`, ready: ['.article__title', '.comment', '.article__image'] },
  { name: 'article, its author', path: (s) => `/post/${s.postId}`, as: 'author', ready: ['.author-tools', '.comment'] },
  { name: 'article, a reader', path: (s) => `/post/${s.postId}`, as: 'reader', ready: ['.rate', '.comment__body', '.article__byline .button'] },
  {
    name: 'edit article modal', path: (s) => `/post/${s.postId}`, as: 'author', ready: ['.author-tools'],
    then: openDialog((page) => page.getByRole('button', { name: 'Edit article' }), '.hashtag-chip'),
  },
  { name: 'the pulse', path: () => '/ranks', ready: ['.rank-row', '.pulse__popular .chip'] },
  {
    name: 'the pulse, one hashtag and its suggestions', path: () => `/ranks?hashtag=${word(LIMITS.hashtag, 'w')}`, ready: ['.pulse__active', '.rank-row'],
    then: async (page) => {
      await page.getByRole('combobox', { name: 'Search hashtags' }).fill(word(LIMITS.hashtag, 'wm').slice(0, 6));
      await page.locator('.suggestions__item').first().waitFor();
    },
  },
  { name: 'voices', path: () => '/authors', ready: ['.voice-card'] },
  // A query of a thousand letters: the heading and the line below it repeat it, the snippets are one word.
  { name: 'search', path: () => `/search?q=${word(1000)}`, ready: ['.search-results__row', '.search-results__snippet mark'] },
  { name: 'search, an admin (every icon in the bar)', path: () => '/search', as: 'admin', ready: ['.reader-empty'] },
  {
    name: 'report modal', path: (s) => `/post/${s.postId}`, as: 'reader', ready: ['.comment__body'],
    then: async (page) => {
      await page.getByRole('button', { name: 'Report this article' }).click();
      await page.locator('dialog[open] .choice').waitFor();
      await page.getByLabel('Note for the editors (optional)').fill(word(LIMITS.note));
    },
  },
  { name: 'moderation log', path: () => '/moderation', ready: ['.moderation-entry__reason'] },
  { name: 'public profile', path: profileOf, ready: ['.author__name', '.author-list__row', '.author-articles .chip'] },
  { name: 'public profile, signed in', path: (s) => `/beatnik/${s.reader.username}`, as: 'author', ready: ['.author__name', '.author-list__row'] },
  {
    name: 'followers modal', path: profileOf, ready: ['.author__name'],
    then: openDialog((page) => page.getByRole('button', { name: /^Followers: / }), '.follow-list__row'),
  },
  { name: 'unknown author', path: () => `/beatnik/${word(LIMITS.username)}x`, ready: ['.page--notice'], allow: ['status of 404'] },
  { name: 'login', path: () => '/login', ready: ['.auth form'] },
  { name: 'register', path: () => '/register', ready: ['.auth form'] },
  { name: 'my profile', path: () => '/profile', as: 'author', ready: ['.profile-head__name', '.my-article'] },
  {
    name: 'edit profile modal', path: () => '/profile', as: 'author', ready: ['.profile-head__name'],
    then: openDialog((page) => page.getByRole('button', { name: 'Edit', exact: true }), '.avatar-edit'),
  },
  {
    name: 'my followers modal', path: () => '/profile', as: 'author', ready: ['.profile-head__name'],
    then: openDialog((page) => page.getByRole('button', { name: /Followers/ }), '.follow-list__row'),
  },
  {
    name: 'write', path: () => '/write', as: 'author', ready: ['.article-form'],
    then: async (page) => {
      await page.getByLabel('Title').fill(word(LIMITS.title));
      for (const tag of [word(LIMITS.hashtag, 'w'), word(LIMITS.hashtag, 'm')]) {
        await page.getByRole('textbox', { name: 'Hashtags' }).fill(tag);
        await page.getByRole('textbox', { name: 'Hashtags' }).press('Enter');
      }
      await page.locator('.hashtag-chip').nth(1).waitFor();
    },
  },
  { name: 'notifications', path: () => '/notifications', as: 'author', ready: ['.notice__message'] },
  { name: 'admin, users', path: () => '/admin', as: 'admin', ready: ['.admin-row__title'] },
  {
    name: 'admin, posts', path: () => '/admin', as: 'admin', ready: ['.admin-row__title'],
    then: async (page) => {
      await page.getByRole('tab', { name: 'Posts' }).click();
      await page.locator('.admin-row__excerpt').first().waitFor();
    },
  },
  {
    name: 'admin, banned', path: () => '/admin', as: 'admin', ready: ['.admin-row__title'],
    then: async (page) => {
      await page.getByRole('tab', { name: 'Banned' }).click();
      await page.locator('#admin-panel-banned .admin-row').first().waitFor();
    },
  },
  {
    name: 'admin, reports', path: () => '/admin', as: 'admin', ready: ['.admin-row__title'],
    then: async (page) => {
      await page.getByRole('tab', { name: 'Reports' }).click();
      await page.locator('.report-notes').first().waitFor();
    },
  },
];

/** What sticks out: the page wider than the window, or anything wider than its open modal. Run
 * in the page as plain text: tsx would wrap named functions in a helper the page lacks. */
const OVERFLOW = `(() => {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + [...el.classList].map((c) => '.' + c).join('');
  // The innermost elements whose box ends right of the edge: the ones to fix.
  const sticking = (root, edge) => {
    const out = [...root.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > edge + 0.5);
    return out.filter((el) => !out.some((other) => other !== el && el.contains(other))).slice(0, 4).map(name).join(', ');
  };
  const width = window.innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width) problems.push('the page is ' + scrollWidth + ' px wide in a ' + width + ' px window: ' + sticking(document.body, width));
  for (const dialog of document.querySelectorAll('dialog[open]')) {
    const box = dialog.getBoundingClientRect();
    if (box.left < 0 || box.right > width) problems.push('the modal spans ' + box.left + ' to ' + box.right + ' px');
    const wide = sticking(dialog, box.right);
    if (wide) problems.push('wider than the modal: ' + wide);
  }
  return problems;
})()`;

const overflow = (page: Page) => page.evaluate<string[]>(OVERFLOW);

for (const viewport of [PHONE, DESKTOP]) {
  describe(`nothing is wider than a ${viewport.width} px screen`, SWEEP_ON_SQLITE, () => {
    before(async () => { run = await openLongestSite(); });
    after(() => run?.close());

    for (const screen of SCREENS) {
      it(screen.name, async () => {
        const token = screen.as ? run.site[screen.as].token : undefined;
        const watched = await run.reader.open(screen.path(run.site), { token, viewport, allow: screen.allow });
        const { page } = watched;
        for (const selector of screen.ready) await page.locator(selector).first().waitFor();
        await screen.then?.(page);
        await page.evaluate(() => document.fonts.ready);
        const problems = await overflow(page);
        if (problems.length > 0) await screenshot(page, `overflow-${viewport.width}-${screen.name.replace(/\W+/g, '-')}`, false);
        assert.deepEqual(problems, []);
        await closeClean(watched);
      });
    }
  });
}
