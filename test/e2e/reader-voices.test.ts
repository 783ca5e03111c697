// Voices (SPEC §2) in Chromium: the cards, the clipped bio, search, the six sorts and the footer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, startTestServer, type TestServer } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, openInApp, startReader, texts, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
const LONG_BIO = 'I write about the road, the night, jazz clubs and the people who never sleep in this old city.';

describe('Voices in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    const kerouac = await createUser(server, { username: 'kerouac_v', bio: LONG_BIO });
    const ginsberg = await createUser(server, { username: 'ginsberg_v', bio: 'Poet.' });
    const corso = await createUser(server, { username: 'corso_v' });
    await createUser(server, { username: 'silent_v' }); // no articles: not a voice
    for (let i = 0; i < 3; i += 1) await createPost(server, kerouac);
    for (let i = 0; i < 2; i += 1) await createPost(server, ginsberg);
    await createPost(server, corso);
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('lists authors with search and sorts', async () => {
    const watched = await reader.open('/authors');
    const { page } = watched;
    await h1(page, 'Voices').waitFor();
    await page.getByText('Showing 3 of 3 authors').waitFor();
    const card = page.locator('.voice-card', { hasText: 'kerouac_v' });
    assert.equal((await card.locator('.voice-card__bio').innerText()).trim(), `${LONG_BIO.slice(0, 74)}…`);
    assert.equal(await card.getByRole('link', { name: /Ver perfil/ }).textContent(), 'Ver perfil');
    assert.equal(await card.getByRole('link', { name: /Ver perfil/ }).getAttribute('href'), '/beatnik/kerouac_v');

    await page.getByLabel('Sort by').selectOption('posts_desc');
    await page.waitForFunction(() => document.querySelector('.voice-card__name')?.textContent === 'kerouac_v');
    assert.deepEqual(await texts(page, '.voice-card__name'), ['kerouac_v', 'ginsberg_v', 'corso_v']);
    await page.getByLabel('Sort by').selectOption('posts_asc');
    await page.waitForFunction(() => document.querySelector('.voice-card__name')?.textContent === 'corso_v');
    assert.deepEqual(await texts(page, '.voice-card__name'), ['corso_v', 'ginsberg_v', 'kerouac_v']);
    await screenshot(page, 'reader-voices-desktop');

    await page.getByLabel('Search authors').fill('ginsb');
    await page.getByText('Showing 1 of 1 author').waitFor();
    assert.deepEqual(await texts(page, '.voice-card__name'), ['ginsberg_v']);
    await page.getByLabel('Search authors').fill('nobody-like-this');
    await page.getByRole('heading', { name: 'No authors found' }).waitFor();
    await page.getByText('Showing 0 of 0 authors').waitFor();

    await page.getByLabel('Search authors').fill('');
    await page.setViewportSize(PHONE);
    await page.getByText('Showing 3 of 3 authors').waitFor();
    await screenshot(page, 'reader-voices-phone');
    await page.locator('.voice-card', { hasText: 'corso_v' }).getByRole('link', { name: /Ver perfil/ }).click();
    await h1(page, 'corso_v').waitFor();
    await closeClean(watched);
  });

  it("toasts 'Error loading authors'", async () => {
    const watched = await reader.open('/ranks', { allow: ['status of 500'] });
    await watched.page.route('**/api/authors*', (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(watched.page, '/authors');
    await toastSays(watched.page, 'Error loading authors');
    await closeClean(watched);
  });
});
