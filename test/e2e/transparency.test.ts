// The scores explained, in Chromium (DESIGN.md, Transparency): the article's rating histogram,
// 'Ranked #N on The Pulse' with the score's split, and The Pulse's refresh times; a reader's
// rating moves the bars at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser } from '../helpers.ts';
import { recomputeRanks } from '../../server/ranks/ranks.service.ts';
import { screenshot } from './browser.ts';
import { closeClean, h1, hydrated, serverAndReader } from './reader-support.ts';

const site = serverAndReader();

describe('Scores explained in Chromium', () => {
  it('the article shows its ratings star by star and its place on The Pulse; The Pulse its refresh', async () => {
    const author = await createUser(site.server);
    const raters = await Promise.all([1, 2, 3].map(() => createUser(site.server)));
    const first = await createPost(site.server, author, { title: 'The most talked about story of the week' });
    await createPost(site.server, author, { title: 'A quieter story, still worth a read' });
    for (const [i, r] of raters.entries()) {
      await site.server.api('POST', `/api/posts/${first.id}/rate`, { token: r.token, json: { rating: i === 0 ? 4 : 5 } });
    }
    await site.server.api('POST', `/api/posts/${first.id}/comments`, { token: raters[0]!.token, json: { content: 'Well said.' } });
    await recomputeRanks(site.server.ctx.db);
    site.server.ctx.readCache?.invalidate();
    const rank = (await site.server.api('GET', `/api/posts/${first.id}/rank`)).body;
    assert.equal(rank.position, 1);

    const me = await createUser(site.server);
    const watched = await site.reader.open(`/post/${first.id}`, { token: me.token });
    const { page } = watched;
    await h1(page, first.title).waitFor();
    await page.getByText('Ranked #1 on The Pulse').waitFor();
    const split = await page.locator('.rank-note__split').innerText();
    for (const part of [`visits ${rank.parts.visits.toFixed(2)}`, `ratings ${rank.parts.ratings.toFixed(2)}`,
      `comments ${rank.parts.comments.toFixed(2)}`, `decay ${rank.decay.toFixed(2)}`]) assert.ok(split.includes(part), `${part} in ${split}`);
    assert.deepEqual(await page.locator('.histogram__label').allInnerTexts(), ['5★ 2', '4★ 1', '3★ 0', '2★ 0', '1★ 0']);
    await hydrated(page);
    await screenshot(page, 'transparency-article', false);
    // Rating it moves the bars at once.
    await page.getByText('You have not rated this article yet.').waitFor();
    await page.locator('.rate__star').nth(2).click();
    await page.getByRole('button', { name: 'Submit rating' }).click();
    await page.getByText('Your rating: 3 of 5').waitFor();
    await page.locator('.histogram__label', { hasText: '3★ 1' }).waitFor();
    await closeClean(watched);

    const pulse = await site.reader.open('/ranks');
    await h1(pulse.page, 'The Pulse').waitFor();
    const refresh = pulse.page.locator('.pulse__refresh');
    await refresh.waitFor();
    assert.match(await refresh.innerText(), /^Last refreshed .+; next refresh in .+\.$/);
    assert.equal(await refresh.locator('time').first().getAttribute('datetime'), rank.refreshed_at);
    assert.equal(await refresh.locator('time').nth(1).getAttribute('datetime'), rank.next_refresh_at);
    await closeClean(pulse);
  });

  it('an article published since the refresh shows the place The Pulse lists it at', async () => {
    const author = await createUser(site.server);
    const fresh = await createPost(site.server, author, { title: 'Published after the last refresh' });
    const ids: number[] = (await site.server.api('GET', '/api/ranks?limit=100')).body.posts.map((p: any) => p.id);
    const place = ids.indexOf(fresh.id) + 1;
    assert.ok(place > 1, `below the rated article: ${place}`);
    const opened = await site.reader.open(`/post/${fresh.id}`);
    await h1(opened.page, fresh.title).waitFor();
    await opened.page.getByText(`Ranked #${place} on The Pulse`).waitFor();
    await closeClean(opened);
  });
});
