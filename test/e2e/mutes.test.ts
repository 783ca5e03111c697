// Mutes in Chromium (DESIGN.md, Mutes): a reader mutes an author from the article's author line
// and sees the front page change; that author's comment elsewhere shows collapsed, and opens on
// request; unmuting in settings brings the article back. Data is made through the API; one server
// for the file. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createPost } from '../api/factories.ts';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let browser: Reader;
let loud: TestUser;
let calm: TestUser;
let reader: TestUser;

/** Resolves once the page's text has `text` in it (shown), or not (hidden). */
const textShown = (page: Page, text: string, shown = true) =>
  page.waitForFunction(([t, want]) => document.body.innerText.includes(t as string) === want, [text, shown] as const);

describe('mutes in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    loud = await createUser(server, { username: 'kerouac_j' });
    calm = await createUser(server, { username: 'snyder_g' });
    reader = await createUser(server, { username: 'diane_p' });
    browser = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('mute an author and see the front page change; unmute in settings and it is back', async () => {
    const loudPost = await createPost(server, loud, { title: 'Three weeks on the road, typed on one roll', hashtags: ['road'] });
    const calmPost = await createPost(server, calm, { title: 'Mountains and rivers without end, again', hashtags: ['trail'] });
    const comment = await server.api('POST', `/api/posts/${calmPost.id}/comments`, { token: loud.token, json: { content: 'Go, go, go, said the loud one.' } });
    assert.equal(comment.status, 201);

    const watched = await browser.open('/', { token: reader.token });
    const { page } = watched;
    await textShown(page, loudPost.title);
    await textShown(page, calmPost.title);

    await page.goto(`/post/${loudPost.id}`);
    await h1(page, loudPost.title).waitFor();
    await page.getByRole('button', { name: 'Mute kerouac_j' }).click();
    await toastSays(page, 'Muted kerouac_j');
    await page.getByRole('button', { name: 'Unmute kerouac_j' }).waitFor();

    // The server renders the front page as every visitor sees it; the reader's own follows.
    await page.goto('/');
    await textShown(page, calmPost.title);
    await textShown(page, loudPost.title, false);
    await screenshot(page, 'mutes-frontpage-desktop');

    // The muted author's comment stays in the thread, folded, and opens on request.
    await page.goto(`/post/${calmPost.id}`);
    await h1(page, calmPost.title).waitFor();
    const folded = page.locator('.comment--muted');
    await folded.getByText('Comment from a muted author').waitFor();
    assert.equal(await page.getByText('Go, go, go, said the loud one.').count(), 0);
    await screenshot(page, 'mutes-comment-desktop');
    await folded.getByRole('button', { name: 'Show comment' }).click();
    await page.getByText('Go, go, go, said the loud one.').waitFor();

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Muted' });
    const authors = section.getByRole('list', { name: 'Muted authors' });
    await authors.getByRole('link', { name: 'kerouac_j' }).waitFor();
    await screenshot(page, 'mutes-settings-desktop');
    await authors.getByRole('button', { name: 'Unmute kerouac_j' }).click();
    await toastSays(page, 'Unmuted kerouac_j');
    await section.getByText('You have muted no authors.').waitFor();

    await page.goto('/');
    await textShown(page, loudPost.title);
    await closeClean(watched);
  });

  it('mute a hashtag from settings and from The Pulse', async () => {
    const tagged = await createPost(server, calm, { title: 'A haiku sequence for the mountain hut', hashtags: ['haiku'] });
    const watched = await browser.open('/ranks?hashtag=haiku', { token: reader.token, allow: ['/api/users/me/mutes/hashtags/Not%20a%20tag'] });
    const { page } = watched;
    await textShown(page, tagged.title);
    await page.getByRole('button', { name: 'Mute #haiku' }).click();
    await toastSays(page, 'Muted #haiku');
    await textShown(page, tagged.title, false);

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Muted' });
    await section.getByRole('list', { name: 'Muted hashtags' }).getByRole('button', { name: 'Unmute #haiku' }).waitFor();
    await section.getByRole('textbox', { name: 'Hashtag to mute' }).fill('Not a tag!');
    await section.getByRole('button', { name: 'Mute', exact: true }).click();
    await toastSays(page, 'Hashtags can only contain letters, numbers, hyphens and underscores');
    await section.getByRole('textbox', { name: 'Hashtag to mute' }).fill('#Trail');
    await section.getByRole('button', { name: 'Mute', exact: true }).click();
    await toastSays(page, 'Muted #trail');
    await section.getByRole('list', { name: 'Muted hashtags' }).getByRole('button', { name: 'Unmute #trail' }).waitFor();
    await section.getByRole('button', { name: 'Unmute #haiku' }).click();
    await toastSays(page, 'Unmuted #haiku');
    await closeClean(watched);
  });
});
