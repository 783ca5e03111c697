// The reader pages' pure helpers: Home's story choice, the Pulse's URL query, suggestion highlights
// and the author's hashtag chips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  feedExcerptLength, pickHero, pickRecent, pickTopRated, uniquePosts,
} from '../../client/components/posts/frontpage.ts';
import { tagsByUse } from '../../client/components/reader/authorArticles.ts';
import { commentProblem } from '../../shared/articles.ts';
import { splitMatch } from '../../client/components/reader/highlight.ts';
import { parsePulseQuery, pulseSearch } from '../../client/components/reader/pulseQuery.ts';
import type { Post } from '../../client/types.ts';

function post(id: number, fields: Partial<Post> = {}): Post {
  return {
    id, title: `Title ${id}`, content: 'x', content_html: '<p>x</p>', image: null, image_alt: '', reading_minutes: 1, hashtags: [], created_at: `2026-01-${String(id).padStart(2, '0')}T00:00:00.000Z`,
    updated_at: '2026-01-01T00:00:00.000Z', archived: false, status: 'published', visits: 0, ratings_count: 0, average_rating: 0, bayesian_rating: 3,
    comments_count: 0, likes_count: 0, boosts_count: 0, author_id: 1, author_username: 'ana', author_avatar: null, ...fields,
  };
}

test('hero: the newest ranked post, else the first front page post, else the first latest', () => {
  assert.equal(pickHero([post(3), post(9), post(5)], [post(1)], [post(2)])?.id, 9);
  assert.equal(pickHero([], [post(4), post(8)], [post(2)])?.id, 4);
  assert.equal(pickHero([], [], [post(2), post(7)])?.id, 2);
  assert.equal(pickHero([], [], []), undefined);
});

test('top rated: excludes the hero, by bayesian rating then visits, at most 4', () => {
  const posts = [
    post(1, { bayesian_rating: 5, visits: 1 }), post(2, { bayesian_rating: 4, visits: 9 }),
    post(3, { bayesian_rating: 4, visits: 20 }), post(4, { bayesian_rating: 5, visits: 3 }),
    post(5, { bayesian_rating: 1 }), post(6, { bayesian_rating: 3 }),
  ];
  assert.deepEqual(pickTopRated(posts, posts[3]).map((p) => p.id), [1, 3, 2, 6]);
  assert.deepEqual(pickTopRated(posts, undefined).map((p) => p.id), [4, 1, 3, 2]);
});

test('top rated: one 5-star vote loses to twenty votes averaging 4.5 (m = 3)', () => {
  const one = post(1, { ratings_count: 1, average_rating: 5, bayesian_rating: (5 * 3 + 5) / 6 });
  const twenty = post(2, { ratings_count: 20, average_rating: 4.5, bayesian_rating: (5 * 3 + 90) / 25 });
  assert.deepEqual(pickTopRated([one, twenty], undefined).map((p) => p.id), [2, 1]);
});

test('recent: newest first, skipping the hero and the top rated, at most 3', () => {
  const posts = [1, 2, 3, 4, 5, 6, 7].map((id) => post(id));
  assert.deepEqual(pickRecent(posts, [posts[6], posts[5], posts[3]]).map((p) => p.id), [5, 3, 2]);
});

test('uniquePosts keeps the first copy of each id', () => {
  const a = post(1, { visits: 1 });
  assert.deepEqual(uniquePosts([a, post(2)], [post(1, { visits: 9 }), post(3)]).map((p) => [p.id, p.visits]), [[1, 1], [2, 0], [3, 0]]);
});

test('front page feed teaser: 200, or 85 under a short headline', () => {
  assert.equal(feedExcerptLength('Short and sweet headline'), 85);
  assert.equal(feedExcerptLength('A much longer headline that runs well beyond forty characters'), 200);
});

test('pulse query: parse with defaults, write criteria only when not ranking', () => {
  assert.deepEqual(parsePulseQuery(''), { hashtag: '', time_period: '', criteria: 'ranking' });
  assert.deepEqual(parsePulseQuery('?hashtag=%23jazz&time_period=7d&criteria=visits'), { hashtag: 'jazz', time_period: '7d', criteria: 'visits' });
  assert.deepEqual(parsePulseQuery('?time_period=1y&criteria=bogus'), { hashtag: '', time_period: '', criteria: 'ranking' });
  assert.equal(pulseSearch({ hashtag: '', time_period: '', criteria: 'ranking' }), '');
  assert.equal(pulseSearch({ hashtag: 'jazz', time_period: '24h', criteria: 'ranking' }), '?hashtag=jazz&time_period=24h');
  assert.equal(pulseSearch({ hashtag: '', time_period: '', criteria: 'visits' }), '?criteria=visits');
});

test('splitMatch: the first case-insensitive match, ignoring a leading #', () => {
  assert.deepEqual(splitMatch('bebop', 'BOP'), { before: 'be', match: 'bop', after: '' });
  assert.deepEqual(splitMatch('jazz', '#az'), { before: 'j', match: 'az', after: 'z' });
  assert.deepEqual(splitMatch('jazz', 'rock'), { before: 'jazz', match: '', after: '' });
  assert.deepEqual(splitMatch('jazz', '  '), { before: 'jazz', match: '', after: '' });
});

test('tagsByUse: most used first, then alphabetical', () => {
  const posts = [post(1, { hashtags: ['poetry', 'jazz'] }), post(2, { hashtags: ['jazz'] }), post(3, { hashtags: ['beat'] })];
  assert.deepEqual(tagsByUse(posts), ['jazz', 'beat', 'poetry']);
  assert.deepEqual(tagsByUse(posts, 1), ['jazz']);
});

test('comment rule: trimmed, required, at most 1000 characters', () => {
  assert.equal(commentProblem('   ', 'Write a comment'), 'Write a comment');
  assert.equal(commentProblem('', 'Comment cannot be empty'), 'Comment cannot be empty');
  assert.equal(commentProblem(`  ${'a'.repeat(1000)}  `, 'Write a comment'), undefined);
  assert.equal(commentProblem('a'.repeat(1001), 'Write a comment'), 'Comment cannot exceed 1000 characters');
});
