// My profile's dashboard comes from one server call (GET /api/users/me/stats), not from paging
// the author's articles in the browser; its numbers follow an archive. Needs the built client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser } from '../helpers.ts';
import { closeClean, h1, serverAndReader, toastSays } from './reader-support.ts';

const site = serverAndReader({ timeout: 10_000 });

describe('the stats dashboard in Chromium', () => {
  it('reads one call and shows what it counts', async () => {
    const author = await createUser(site.server, { username: 'gregory_c' });
    const fan = await createUser(site.server);
    const posts = [await createPost(site.server, author), await createPost(site.server, author)];
    for (const post of posts) {
      await site.server.api('GET', `/api/posts/${post.id}`, { token: fan.token });
      await site.server.api('POST', `/api/posts/${post.id}/rate`, { token: fan.token, json: { rating: post === posts[0] ? 5 : 2 } });
    }
    await site.server.api('POST', `/api/posts/${posts[0].id}/comments`, { token: fan.token, json: { content: 'Yes.' } });

    const watched = await site.reader.open('/login', { token: author.token });
    const { page } = watched;
    const calls: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/api/users/')) calls.push(new URL(r.url()).pathname + new URL(r.url()).search); });
    await page.goto('/profile');
    await h1(page, 'My profile').waitFor();
    const values = () => page.evaluate(() => [...document.querySelectorAll('.stats-dashboard__item dd')].map((d) => d.textContent).join('|'));
    await page.waitForFunction(() => document.querySelector('.stats-dashboard__item dd')?.textContent !== '—');
    assert.equal(await values(), '2|3.5|1|2');
    await page.waitForLoadState('networkidle');
    assert.equal(calls.filter((c) => c === '/api/users/me/stats').length, 1, calls.join('\n'));
    assert.equal(calls.filter((c) => c.includes('/posts')).length, 1, `only the article list reads posts:\n${calls.join('\n')}`);

    // Archiving an article takes its numbers off the dashboard, from a fresh call.
    await page.getByRole('button', { name: `Archive “${posts[0].title}”` }).click();
    await toastSays(page, 'Article archived successfully');
    await page.waitForFunction(() => document.querySelector('.stats-dashboard__item dd')?.textContent === '1');
    assert.equal(await values(), '1|2.0|0|1');
    await closeClean(watched);
  });
});
