// Home (SPEC §2) in Chromium: the empty edition, then the hero, Top Ranking, Top Rated (hero
// excluded; by average rating, then visits) and Recent Posts (skipping both), and the load failure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, samplePng, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, openInApp, serverAndReader, texts, toastSays } from './reader-support.ts';

const site = serverAndReader();

async function rate(user: TestUser, postId: number, rating: number) {
  const res = await site.server.api('POST', `/api/posts/${postId}/rate`, { token: user.token, json: { post_id: postId, rating } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}
async function visit(user: TestUser, postId: number) {
  assert.equal((await site.server.api('GET', `/api/posts/${postId}`, { token: user.token })).status, 200);
}

describe('Home in Chromium', () => {
  it('shows a friendly empty edition on an empty site', async () => {
    const watched = await site.reader.open('/');
    await h1(watched.page, 'Beatnik').waitFor();
    await watched.page.getByRole('heading', { name: 'The presses are waiting' }).waitFor();
    await watched.page.getByRole('link', { name: 'Write the first article' }).waitFor();
    await screenshot(watched.page, 'reader-home-empty-desktop');
    await closeClean(watched);
  });

  it('picks the hero, Top Rated and Recent Posts from the loaded posts', async () => {
    const ana = await createUser(site.server, { username: 'ana_home' });
    const ben = await createUser(site.server, { username: 'ben_home' });
    const r1 = await createUser(site.server);
    const r2 = await createUser(site.server);
    const image = await samplePng(600, 400);
    const titles = ['Midnight saxophone on Bleecker Street', 'The poets who never slept at all', 'Rain over the Hudson river docks',
      'Notes from a basement reading night', 'A typewriter left on the subway car', 'Road maps drawn on diner napkins',
      'The last bus to Denver, remembered', 'Tonight the whole city is listening'];
    const posts = [];
    for (const [i, title] of titles.entries()) {
      const hashtags = i === 7 ? ['jazz', 'night', 'city'] : i === 2 ? ['rain', 'river', 'docks'] : [i % 2 ? 'poetry' : 'jazz'];
      posts.push(await createPost(site.server, i % 2 ? ben : ana, { title, hashtags }, i % 3 === 0 ? image : undefined));
    }
    const [p1, p2, p3, , p5, , , p8] = posts;
    await rate(r1, p8.id, 5); // the hero: best rated of all, yet not in Top Rated
    await rate(r1, p3.id, 5);
    await rate(r1, p5.id, 4);
    await rate(r1, p2.id, 4);
    await rate(r1, p1.id, 4); // by bayesian rating (m = 3 here) a 3★ would tie the unrated; 4★ puts it after p2's visit
    await visit(r1, p5.id); await visit(r2, p5.id); // p5 outranks p2 on visits at the same rating
    await visit(r1, p2.id);

    const watched = await site.reader.open('/');
    const { page } = watched;
    const hero = page.locator('.hero');
    await hero.getByRole('heading', { name: p8.title }).waitFor();
    assert.equal(await hero.locator('.tag').count(), 3, 'the hero shows 3 hashtags');
    assert.equal(await page.locator('.top-ranking__item').count(), 3);
    const topRated = await texts(page, '#top-rated-title + .story-row .story__title');
    assert.deepEqual(topRated, [p3.title, p5.title, p2.title, p1.title]);
    const recent = await texts(page, '#recent-title + .story-row .story__title');
    assert.deepEqual(recent, [posts[6].title, posts[5].title, posts[3].title]);
    const rainCard = page.locator('.story', { hasText: p3.title });
    assert.equal(await rainCard.locator('.tag').count(), 2, 'other cards show 2 hashtags');
    await page.locator('.topics').getByRole('link', { name: /#jazz/ }).waitFor();
    await screenshot(page, 'reader-home-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'reader-home-phone');
    await hero.getByRole('link', { name: p8.title }).click();
    await h1(page, p8.title).waitFor();
    await closeClean(watched);
  });

  it("toasts 'Error loading homepage' when a load fails", async () => {
    // Reached inside the app, so the page reads its data itself (the server's page has it in).
    const watched = await site.reader.open('/authors', { allow: ['status of 500'] });
    await watched.page.route('**/api/frontpage', (route) => route.fulfill({ status: 500, json: { detail: 'boom' } }));
    await openInApp(watched.page, '/');
    await toastSays(watched.page, 'Error loading homepage');
    await closeClean(watched);
  });
});
