// Writing in Chromium (DESIGN.md, Writing): the Markdown editor's toolbar, shortcuts and tabs, by
// mouse and by keyboard alone, checked by axe; the preview the server makes; unsent text kept over
// a reload and over a send that met an expired session; comments written the same way; the
// article as readers see it, at 1280 and 390 px.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser } from '../helpers.ts';
import { createPost } from '../api/factories.ts';
import { axeViolations, screenshot } from './browser.ts';
import { PHONE, closeClean, h1, hydrated, serverAndReader, toastSays } from './reader-support.ts';

const site = serverAndReader({ timeout: 10_000 });
const FILLER = 'The night went on, the music too, and nobody looked at the clock until the lights came up. ';
const content = (page: Page) => page.getByRole('textbox', { name: 'Content' });

describe('writing in Chromium', () => {
  it('formats with the toolbar and the shortcuts, previews what the server makes, and publishes it', async () => {
    const ana = await createUser(site.server, { username: 'ana_ed' });
    await createUser(site.server, { username: 'bob_ed' });
    const watched = await site.reader.open('/write', { token: ana.token });
    const { page } = watched;
    await h1(page, 'Write').waitFor();
    await page.getByLabel('Title').fill('Markdown arrives at the paper today');
    const field = content(page);

    await field.fill('Hello @bob_ed, this is ');
    await field.press('Control+b');
    await page.keyboard.type('strong');
    await field.press('End');
    await page.keyboard.type(' and ');
    await page.getByRole('button', { name: /^Italic/ }).click();
    await page.keyboard.type('slanted');
    await field.press('End');
    await page.keyboard.type('. See ');
    await field.press('Control+k');
    await page.keyboard.type('the site');
    // The link's text typed, its address is next: select it and type over it.
    await field.evaluate((area: HTMLTextAreaElement) => {
      const at = area.value.indexOf('https://');
      area.setSelectionRange(at, at + 'https://'.length);
    });
    await page.keyboard.type('https://example.com');
    await field.press('End');
    await page.keyboard.type('.\n\nfirst\nsecond');
    await field.evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(area.value.indexOf('first'), area.value.length));
    await page.getByRole('button', { name: 'List' }).click();
    await field.press('End');
    await page.keyboard.type(`\n\n${FILLER}`);
    assert.equal(await field.inputValue(), 'Hello @bob_ed, this is **strong** and *slanted*. See [the site](https://example.com).\n\n'
      + `- first\n- second\n\n${FILLER}`);
    // The browser's undo takes a toolbar change back as it does typing.
    await field.evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(0, 5));
    await page.getByRole('button', { name: 'Heading' }).click();
    assert.match(await field.inputValue(), /^## Hello/);
    await field.press('Control+z');
    assert.match(await field.inputValue(), /^Hello/);
    await screenshot(page, 'writing-editor-desktop');

    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.locator('.md-editor__prose');
    await preview.waitFor();
    assert.equal(await preview.locator('a.mention').getAttribute('href'), '/beatnik/bob_ed');
    assert.equal(await preview.locator('strong').innerText(), 'strong');
    assert.equal(await preview.locator('em').innerText(), 'slanted');
    assert.equal(await preview.locator('a[href="https://example.com"]').getAttribute('rel'), 'ugc nofollow noopener noreferrer');
    assert.deepEqual(await preview.locator('li').allInnerTexts(), ['first', 'second']);
    await screenshot(page, 'writing-preview-desktop');
    await page.getByRole('tab', { name: 'Write' }).click();

    const tags = page.getByLabel('Hashtags', { exact: true });
    await tags.fill('press');
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.waitForURL(/\/post\/\d+$/);
    const article = page.locator('.article__content');
    await article.locator('strong').waitFor();
    assert.equal(await article.locator('a.mention').innerText(), '@bob_ed');
    await page.getByText('1 min read').first().waitFor();
    // A mention link opens the profile inside the app.
    await article.locator('a.mention').click();
    await h1(page, 'bob_ed').waitFor();
    assert.equal(new URL(page.url()).pathname, '/beatnik/bob_ed');
    await closeClean(watched);
  });

  it('is usable from the keyboard alone, and axe finds nothing wrong', async () => {
    const cleo = await createUser(site.server, { username: 'cleo_ed' });
    const watched = await site.reader.open('/write', { token: cleo.token });
    const { page } = watched;
    await h1(page, 'Write').waitFor();
    await page.getByLabel('Title').focus();
    // Title → the tabs (one stop) → the toolbar (one stop) → the field.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Write');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Bold (Ctrl+B)');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Italic (Ctrl+I)');
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Code');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'write-content');
    await page.keyboard.type('A few words, then ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('these');
    assert.equal(await content(page).inputValue(), 'A few words, then *these*');
    // Back to the tabs, and to Preview with an arrow key.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.getByRole('tab', { name: 'Preview' }).getAttribute('aria-selected'), 'true');
    await page.locator('.md-editor__prose em').waitFor();
    assert.deepEqual(await axeViolations(page, '.article-form'), []);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.getByRole('tab', { name: 'Write' }).getAttribute('aria-selected'), 'true');
    assert.deepEqual(await axeViolations(page, '.article-form'), []);
    await closeClean(watched);
  });

  it('keeps unsent text over a reload, and over a publication that met an expired session', async () => {
    const dan = await createUser(site.server, { username: 'dan_ed' });
    // The refused publication is logged by the browser: expected, and only that one.
    const watched = await site.reader.open('/write', { token: dan.token, allow: ['/api/posts'] });
    const { page } = watched;
    await h1(page, 'Write').waitFor();
    const title = 'A text that must survive everything';
    await page.getByLabel('Title').fill(title);
    await content(page).fill(`Kept **safe**. ${FILLER.repeat(2)}`);
    await page.reload();
    await page.getByText(/Your unsent text from .* is back\./).waitFor();
    assert.equal(await page.getByLabel('Title').inputValue(), title);
    assert.match(await content(page).inputValue(), /^Kept \*\*safe\*\*\./);
    await screenshot(page, 'writing-restored-desktop');

    // The session ends elsewhere (sign out everywhere): the publication is refused with a 401.
    assert.equal((await site.server.api('POST', '/api/auth/logout-all', { token: dan.token })).status, 200);
    const tags = page.getByLabel('Hashtags', { exact: true });
    await tags.fill('survival');
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/write');
    await page.getByLabel('Email').fill(dan.email);
    await page.getByLabel('Password').fill(dan.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/write');
    await page.getByText(/Your unsent text from .* is back\./).waitFor();
    assert.equal(await page.getByLabel('Title').inputValue(), title);
    await page.getByLabel('Hashtags', { exact: true }).fill('survival');
    await page.getByLabel('Hashtags', { exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Publicar' }).click();
    await page.waitForURL(/\/post\/\d+$/);
    await toastSays(page, 'Article published successfully!');
    // Sent: nothing is kept any more.
    assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('beatnik.unsent'))), []);
    await closeClean(watched);
  });

  it('comments in Markdown, with the preview, and on a phone', async () => {
    const eve = await createUser(site.server, { username: 'eve_ed' });
    const fay = await createUser(site.server, { username: 'fay_ed' });
    const post = await createPost(site.server, eve, { title: 'An article to write letters about', content: `On *Markdown*.\n\n${FILLER.repeat(2)}` });
    for (const [viewport, name] of [[undefined, 'desktop'], [PHONE, 'phone']] as const) {
      const watched = await site.reader.open(`/post/${post.id}`, { token: fay.token, viewport });
      const { page } = watched;
      await hydrated(page);
      const field = page.getByRole('textbox', { name: 'Your comment' });
      await field.fill(`Thanks @eve_ed, **well put** (${name}).`);
      await page.locator('.comment-form').getByRole('tab', { name: 'Preview' }).click();
      await page.locator('.comment-form .md-editor__prose strong').waitFor();
      await screenshot(page, `writing-comment-preview-${name}`);
      await page.getByRole('button', { name: 'Post comment' }).click();
      await toastSays(page, 'Comment added');
      const comment = page.locator('.comment__body', { hasText: `(${name})` });
      assert.equal(await comment.locator('strong').innerText(), 'well put');
      assert.equal(await comment.locator('a.mention').getAttribute('href'), '/beatnik/eve_ed');
      if (name === 'phone') {
        await page.locator('.article__content').scrollIntoViewIfNeeded();
        await screenshot(page, 'writing-article-phone');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, 'nothing wider than the phone');
      }
      await closeClean(watched);
    }
    const mentions = (await site.server.api('GET', '/api/notifications', { token: eve.token })).body.notifications
      .filter((n: { type: string }) => n.type === 'mention');
    assert.equal(mentions.length, 2);
  });
});
