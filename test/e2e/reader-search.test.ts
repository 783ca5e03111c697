// Search (DESIGN.md, Reach: search) in Chromium, as a reader uses it: the masthead's field, a word
// with an accent typed without it, the snippets' matches marked, paging on, back and forward, the
// empty states, and on a phone the icon bar's search.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, startTestServer, type TestServer } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, hydrated, startReader, texts, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
const FILLER = ' The night went on, the music too, and nobody looked at the clock until the lights came up.';
let titled: { id: number };

describe('Search in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    const author = await createUser(server, { username: 'mingus_s' });
    for (let i = 0; i < 22; i += 1) {
      await createPost(server, author, {
        title: `Evening number ${i} in the old quarter`,
        content: `${FILLER.repeat(2)} We met again at the Café Bohème, table ${i}, <b>loud</b> as ever.${FILLER}`,
        hashtags: ['nights'],
      });
    }
    titled = await createPost(server, author, { title: 'The Café Bohème closes its doors', content: `A farewell.${FILLER.repeat(3)}` });
    await createPost(server, author, { title: 'Nothing to do with coffee places', content: `Only trains.${FILLER.repeat(3)}` });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('finds "Café" typed as "cafe" from the masthead, marks it in the snippets and pages on', async () => {
    const watched = await reader.open('/');
    const { page } = watched;
    await h1(page, 'Beatnik').waitFor();
    const field = page.locator('#masthead-search');
    await field.fill('cafe');
    await field.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'cafe');
    await h1(page, 'Search: cafe').waitFor();
    await page.getByText('23 articles for “cafe”').waitFor();
    assert.equal(await field.inputValue(), 'cafe', 'the field keeps the query');

    const rows = page.locator('.search-results__row');
    assert.equal(await rows.count(), 20);
    assert.equal((await texts(page, '.search-results__title'))[0], 'The Café Bohème closes its doors', 'the title match first');
    assert.deepEqual(await texts(page, '.search-results__title mark'), ['Café'], 'the title\'s matching word marked, the others\' titles have none');
    const marks = await texts(page, '.search-results__snippet mark');
    assert.ok(marks.length >= 19, `${marks.length} marks`);
    assert.ok(marks.every((mark) => mark === 'Café'), marks.join(', '));
    // The writer's <b> is text in the snippet, not markup.
    const snippet = page.locator('.search-results__snippet').nth(1);
    assert.match(await snippet.innerText(), /Café Bohème, table \d+, <b>loud<\/b> as ever/);
    assert.equal(await snippet.locator('b').count(), 0);
    await page.getByText('Showing 20 of 23 articles').waitFor();
    await screenshot(page, 'reader-search-desktop');

    await page.getByRole('button', { name: 'Load more results' }).click();
    await page.getByText('Showing 23 of 23 articles').waitFor();
    assert.equal(await rows.count(), 23);
    assert.equal(await page.getByRole('button', { name: 'Load more results' }).count(), 0);

    // Another search, then back and forward through both.
    await field.fill('bohème closes');
    await field.press('Enter');
    await page.getByText('1 article for “bohème closes”').waitFor();
    assert.deepEqual(await texts(page, '.search-results__title'), ['The Café Bohème closes its doors']);
    await page.goBack();
    await page.getByText('23 articles for “cafe”').waitFor();
    assert.equal(await field.inputValue(), 'cafe');
    await page.goForward();
    await page.getByText('1 article for “bohème closes”').waitFor();
    assert.equal(await field.inputValue(), 'bohème closes');

    await page.locator('.search-results__title a').first().click();
    await page.waitForURL(`**/post/${titled.id}`);
    await h1(page, 'The Café Bohème closes its doors').waitFor();
    assert.equal(await field.inputValue(), '', 'elsewhere the field is empty');
    await closeClean(watched);
  });

  it('keeps the words a reader typed before the page\'s script ran', async () => {
    const watched = await reader.open('about:blank');
    const { page } = watched;
    let typed!: () => void;
    const done = new Promise<void>((resolve) => { typed = resolve; });
    await page.route('**/assets/main-*.js', async (route) => { await done; await route.continue(); });
    await page.goto('/', { waitUntil: 'commit' });
    const field = page.locator('#masthead-search');
    await field.fill('bohème closes');
    typed();
    await hydrated(page);
    assert.equal(await field.inputValue(), 'bohème closes', 'hydration leaves the field as typed');
    await field.press('Enter');
    await page.getByText('1 article for “bohème closes”').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('q'), 'bohème closes');
    await closeClean(watched);
  });

  it('says so when nothing matches, and asks for words when there are none', async () => {
    const watched = await reader.open('/search?q=%22zebra%22%20AND%20(');
    const { page } = watched;
    await page.getByRole('heading', { name: 'No articles found' }).waitFor();
    await page.getByText('Nothing matches “"zebra" AND (”. Try fewer words, or the beginning of a word.').waitFor();
    await page.goto('/search');
    await h1(page, 'Search').waitFor();
    await page.getByRole('heading', { name: 'What are you looking for?' }).waitFor();
    await closeClean(watched);
  });

  it('on a phone, the icon bar opens the search page and its own field', async () => {
    const watched = await reader.open('/', { viewport: PHONE });
    const { page } = watched;
    await h1(page, 'Beatnik').waitFor();
    assert.equal(await page.locator('#masthead-search').isVisible(), false, 'the masthead keeps its field for wide screens');
    await page.getByRole('navigation', { name: 'Sections and account' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL('**/search');
    const field = page.locator('#search-page-field');
    await field.waitFor();
    await field.fill('CAFÉ BOHEME');
    await field.press('Enter');
    await page.getByText('23 articles for “CAFÉ BOHEME”').waitFor();
    assert.ok((await texts(page, '.search-results__snippet mark')).includes('Bohème'));
    await screenshot(page, 'reader-search-phone', false);
    await closeClean(watched);
  });
});
