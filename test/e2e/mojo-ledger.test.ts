// 'How this mojo was earned' in Chromium (DESIGN.md, Transparency; issue 17's "Done"): three
// readers rate, comment and follow through the pages; the author's profile then shows exactly
// those three events, adding up to the mojo shown, and the line of mojo over time, server-rendered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, startReader, texts, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let author: TestUser;
let post: { id: number; title: string };

describe('The mojo ledger on a profile in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    author = await createUser(server, { username: 'ginsberg_m' });
    post = await createPost(server, author, { title: 'Howl, read aloud in a cellar' });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('rated, commented and followed by three readers: exactly those events, adding up to the mojo shown', async () => {
    const [rater, commenter, follower] = [
      await createUser(server, { username: 'rater_m' }), await createUser(server, { username: 'commenter_m' }),
      await createUser(server, { username: 'follower_m' })];

    // Rating and commenting count a visit each too (a reader's read): those are the ledger's as well.
    const rating = await reader.open(`/post/${post.id}`, { token: rater.token });
    await rating.page.locator('label.rate__star').nth(4).click();
    await rating.page.getByRole('button', { name: 'Submit rating' }).click();
    await rating.page.getByText('Your rating: 5 of 5').waitFor();
    await closeClean(rating);

    const commenting = await reader.open(`/post/${post.id}`, { token: commenter.token });
    await commenting.page.getByLabel('Your comment').fill('Read it twice, aloud.');
    await commenting.page.getByRole('button', { name: 'Post comment' }).click();
    await toastSays(commenting.page, 'Comment added');
    await closeClean(commenting);

    const following = await reader.open('/beatnik/ginsberg_m', { token: follower.token });
    await following.page.getByRole('button', { name: 'Follow ginsberg_m' }).click();
    await toastSays(following.page, 'You are now following ginsberg_m');
    await closeClean(following);

    // What the database holds, to compare the page with.
    const ledger = (await server.api('GET', `/api/users/${author.id}/mojo`)).body;
    const causes = ledger.events.map((e: { cause: string }) => e.cause);
    assert.deepEqual(causes.filter((c: string) => c !== 'visits'), ['follower_new', 'comment_new', 'rating_new']);

    // A visitor's first read of the profile: the server's HTML, then hydrated.
    const watched = await reader.open('/beatnik/ginsberg_m');
    const { page } = watched;
    await h1(page, 'ginsberg_m').waitFor();
    const section = page.getByRole('region', { name: 'How this mojo was earned' });
    await section.waitFor();
    const rows = section.locator('.mojo-ledger__event');
    assert.equal(await rows.count(), ledger.total);
    const words = await texts(page, '.mojo-ledger__what');
    assert.deepEqual(words.filter((w) => !w.startsWith('Readers')), [
      'New follower by follower_m',
      'New comment by commenter_m on Howl, read aloud in a cellar',
      'New rating by rater_m on Howl, read aloud in a cellar',
    ]);
    for (const w of words.filter((t) => t.startsWith('Readers'))) assert.equal(w, 'Readers on Howl, read aloud in a cellar', 'readers are never named');
    await section.getByRole('link', { name: 'commenter_m' }).waitFor();
    await section.getByRole('link', { name: 'Howl, read aloud in a cellar' }).first().waitFor();

    // The deltas shown add up to the mojo shown on the card.
    const deltas = (await texts(page, '.mojo-ledger__delta')).map((d) => Number(d.replace('−', '-')));
    const total = deltas.reduce((s, d) => s + Math.round(d * 100), 0) / 100;
    const shown = Number(/Mojo (-?\d+\.\d)/.exec(await page.locator('.author__mojo').innerText())![1]);
    assert.equal(total.toFixed(1), shown.toFixed(1));
    assert.equal(total, ledger.mojo);

    // The chart: an inline SVG line through every point, with its words.
    const svg = section.locator('svg.mojo-chart__svg');
    assert.equal(await svg.getAttribute('data-points'), String(ledger.total + 1));
    assert.equal(await section.locator('svg polyline').count(), 1);
    assert.equal(((await section.locator('svg polyline').getAttribute('points')) ?? '').trim().split(/\s+/).length, ledger.total + 1);
    assert.equal(await section.locator('figcaption').innerText(),
      `Mojo went from 0.00 to ${ledger.mojo.toFixed(2)} over ${ledger.total} changes; lowest 0.00, highest ${ledger.mojo.toFixed(2)}.`);
    await screenshot(page, 'mojo-ledger-desktop');
    await closeClean(watched);

    // Without JavaScript the server's HTML already holds the events and the chart.
    const html = await (await fetch(`${server.url}/beatnik/ginsberg_m`)).text();
    assert.match(html, /How this mojo was earned/);
    assert.match(html, /<polyline/);
    assert.match(html, /New comment(<!-- -->)? by/);
  });
});
