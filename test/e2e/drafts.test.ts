// Drafts in Chromium (DESIGN.md, Drafts): 'Guardar como borrador' saves a draft with a title
// alone, My profile lists it under Drafts with a count, /write?draft={id} reopens it, and
// publishing it, refused while SPEC §5 is not met, puts it on the front page. Needs the built client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, serverAndReader, toastSays } from './reader-support.ts';

const TITLE = 'Howl, a first draft read at the Six Gallery';
const CONTENT = 'I saw the best minds of my generation reading drafts by lamplight, waiting for the press to roll. '.repeat(2);

const site = serverAndReader({ timeout: 10_000 });

const alertText = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first().waitFor();

describe('drafts in Chromium', () => {
  it('saves a draft, finds it in My profile\'s Drafts, reopens it, publishes it and reads it on the front page', async () => {
    const author = await createUser(site.server, { username: 'ginsberg' });
    const watched = await site.reader.open('/write', { token: author.token });
    const { page } = watched;
    await h1(page, 'Write').waitFor();

    // A draft needs a valid title, and nothing else.
    await page.getByLabel('Title').fill('Too short');
    await page.getByRole('button', { name: 'Guardar como borrador' }).click();
    await alertText(page, 'Title must be between 20 and 80 characters');
    assert.equal((await site.server.api('GET', `/api/users/${author.id}/posts?status=draft`, { token: author.token })).body.total, 0);

    await page.getByLabel('Title').fill(TITLE);
    await page.getByLabel('Content').fill('Half a poem, for now.');
    const tags = page.getByLabel('Hashtags', { exact: true });
    await tags.fill('#Poetry');
    await tags.press('Enter');
    await page.getByRole('button', { name: 'Guardar como borrador' }).click();
    await toastSays(page, 'Draft saved');
    await page.waitForURL(/\/write\?draft=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('draft'));
    await page.getByText('Your draft, saved just now').waitFor();
    assert.equal(await page.getByLabel('Title').inputValue(), TITLE, 'the editor stays on the saved draft');
    const stored = await site.server.api('GET', `/api/posts/${id}`, { token: author.token });
    assert.deepEqual([stored.body.status, stored.body.content, stored.body.hashtags], ['draft', 'Half a poem, for now.', ['poetry']]);
    assert.equal((await site.server.api('GET', `/api/posts/${id}`)).status, 404, 'nobody else sees it');

    // Publishing checks every rule first, here in the browser.
    await page.getByRole('button', { name: 'Publicar' }).click();
    await alertText(page, 'Content must be between 150 and 10,000 characters');
    await screenshot(page, 'draft-editor-desktop');
    await closeClean(watched);

    // My profile: Drafts, with its count, beside the active and archived articles.
    // The browser logs the refused publication below (a 400): expected, and only that one.
    const profile = await site.reader.open('/profile', { token: author.token, allow: [`/api/posts/${id}/publish`] });
    const p = profile.page;
    await h1(p, 'My profile').waitFor();
    await p.getByRole('heading', { name: 'All your articles (0)' }).waitFor();
    await p.getByRole('button', { name: 'Drafts (1)' }).click();
    await p.getByRole('heading', { name: 'Your drafts (1)' }).waitFor();
    const row = p.locator('.my-article', { hasText: TITLE });
    await row.getByText('Draft', { exact: true }).waitFor();
    await row.getByText('Half a poem, for now.').waitFor();
    await p.getByText('1 draft', { exact: true }).waitFor();
    await screenshot(p, 'profile-drafts-desktop');
    // Its Publish is the server's check: the content is still too short.
    await p.getByRole('button', { name: `Publish “${TITLE}”` }).click();
    await toastSays(p, 'Content must be between 150 and 10,000 characters');
    await p.getByRole('heading', { name: 'Your drafts (1)' }).waitFor();

    // Reopened from its row, finished, saved again, then published.
    await p.getByRole('link', { name: `Edit “${TITLE}”` }).click();
    await p.waitForURL(`**/write?draft=${id}`);
    await h1(p, 'Write').waitFor();
    await p.locator('#write-title-count', { hasText: `${TITLE.length}/80` }).waitFor();
    assert.equal(await p.getByLabel('Title').inputValue(), TITLE);
    assert.deepEqual(await p.locator('.hashtag-chip > span').allTextContents(), ['#poetry']);
    await p.getByLabel('Content').fill(CONTENT);
    await p.getByRole('button', { name: 'Guardar como borrador' }).click();
    await toastSays(p, 'Draft saved');
    await p.waitForFunction((text) => (document.querySelector('#write-content') as HTMLTextAreaElement | null)?.value === text, CONTENT.trim());
    assert.equal((await site.server.api('GET', `/api/posts/${id}`, { token: author.token })).body.content, CONTENT.trim());
    await p.getByRole('button', { name: 'Publicar' }).click();
    await toastSays(p, 'Article published successfully!');
    await p.waitForURL(`**/post/${id}`);
    await h1(p, TITLE).waitFor();

    const published = await site.server.api('GET', `/api/posts/${id}`);
    assert.equal(published.body.status, 'published');
    assert.ok(published.body.created_at > stored.body.created_at, 'dated at its publication');

    // On the front page for everyone, and out of the drafts.
    await p.goto('/');
    await p.getByRole('link', { name: TITLE }).first().waitFor();
    await p.goto('/profile');
    await p.getByRole('heading', { name: 'All your articles (1)' }).waitFor();
    await p.getByRole('button', { name: 'Drafts (0)' }).click();
    await p.getByRole('heading', { name: 'Your drafts (0)' }).waitFor();
    await p.getByText('No drafts').waitFor();
    await closeClean(profile);

    const visitor = await site.reader.open('/');
    await visitor.page.getByRole('link', { name: TITLE }).first().waitFor();
    await closeClean(visitor);
  });

  it('deletes a draft from My profile, after asking', async () => {
    const author = await createUser(site.server, { username: 'corso' });
    const saved = await site.server.api('POST', '/api/posts', {
      token: author.token, json: { title: 'Bomb, a draft that went nowhere at all', draft: true },
    });
    assert.equal(saved.status, 201);
    const watched = await site.reader.open('/profile', { token: author.token });
    const { page } = watched;
    await page.getByRole('button', { name: 'Drafts (1)' }).click();
    await page.locator('.my-article', { hasText: 'No text yet.' }).waitFor();
    await page.getByRole('button', { name: 'Delete “Bomb, a draft that went nowhere at all”' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete draft' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastSays(page, 'Draft deleted');
    await page.getByRole('heading', { name: 'Your drafts (0)' }).waitFor();
    await page.getByRole('button', { name: 'Drafts (0)' }).waitFor();
    assert.equal((await site.server.api('GET', `/api/posts/${saved.body.id}`, { token: author.token })).status, 404);
    await closeClean(watched);
  });
});
