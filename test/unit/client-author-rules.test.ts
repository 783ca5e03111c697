// Pure rules behind the author and admin screens: article checks and hashtags, the grayscale
// conversion, profile changes, the search count line, ban payloads and notification texts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addHashtag, hashtagCounterText, validateArticle, validateDraft } from '../../client/components/article-form/articleRules.ts';
import { fitWithin, jpegName, toGray } from '../../client/components/article-form/grayscale.ts';
import { banDaysOf, banPayload, banSuccessText } from '../../client/components/admin/adminRules.ts';
import { resultCountText } from '../../client/components/author/authorStats.ts';
import { unreadHeadline } from '../../client/components/notifications/notificationText.ts';
import { profileChanges } from '../../client/components/profile/profileRules.ts';
import { checkImageFile } from '../../client/validation.ts';
import { draftContentProblem, hashtagProblem, normalizeHashtag } from '../../shared/articles.ts';

const TITLE = 'x'.repeat(20);
const CONTENT = 'y'.repeat(150);

test('article checks use the SPEC §5 messages and bounds, on trimmed text', () => {
  assert.deepEqual(validateArticle({ title: TITLE, content: CONTENT, hashtags: ['a'], imageAlt: '' }), {});
  assert.deepEqual(validateArticle({ title: 'x'.repeat(80), content: 'y'.repeat(10_000), hashtags: ['a', 'b', 'c'], imageAlt: '' }), {});
  const errors = validateArticle({ title: ` ${'x'.repeat(19)} `, content: 'y'.repeat(10_001), hashtags: [], imageAlt: 'x'.repeat(201) });
  assert.equal(errors.title, 'Title must be between 20 and 80 characters');
  assert.equal(errors.content, 'Content must be between 150 and 10,000 characters');
  assert.equal(errors.hashtags, 'You must include between 1 and 3 hashtags');
  assert.equal(errors.imageAlt, 'Alt text cannot exceed 200 characters');
  assert.equal(validateArticle({ title: 'x'.repeat(81), content: ` ${'y'.repeat(149)} `, hashtags: ['a', 'b', 'c', 'd'], imageAlt: '' }).hashtags,
    'You must include between 1 and 3 hashtags');
});

test('a draft needs only a valid title: short or empty content and no hashtags pass, an article\'s maximums do not', () => {
  assert.deepEqual(validateDraft({ title: TITLE, content: '', hashtags: [], imageAlt: '' }), {});
  assert.deepEqual(validateDraft({ title: TITLE, content: 'A start.', hashtags: ['a'], imageAlt: '' }), {});
  assert.deepEqual(validateDraft({ title: 'Too short', content: 'y'.repeat(10_001), hashtags: ['a', 'b', 'c', 'd'], imageAlt: '' }), {
    title: 'Title must be between 20 and 80 characters',
    content: 'Content must be between 150 and 10,000 characters',
    hashtags: 'You must include between 1 and 3 hashtags',
  });
  // The server's rule is the same shared one.
  assert.equal(draftContentProblem('y'.repeat(10_000)), undefined);
  assert.equal(draftContentProblem(''), undefined);
});

test('hashtags: # stripped, empty and duplicates ignored, never more than 3', () => {
  assert.equal(normalizeHashtag('  ##Jazz '), 'jazz');
  let tags: string[] = [];
  for (const entry of ['#Jazz', 'jazz', '', '   ', '#', 'bebop', 'cool', 'fourth']) tags = addHashtag(tags, entry);
  assert.deepEqual(tags, ['jazz', 'bebop', 'cool']);
  assert.equal(hashtagProblem('a'.repeat(21)), 'Each hashtag can have at most 20 characters');
  assert.equal(hashtagProblem('no spaces'), 'Hashtags can only contain letters, numbers, hyphens and underscores');
  assert.equal(hashtagProblem('año_2-b'), undefined);
  assert.deepEqual(addHashtag([], 'bad tag'), []);
  assert.deepEqual([0, 1, 2, 3].map(hashtagCounterText), ['You can add 3 more', 'You can add 2 more', 'You can add 1 more', 'Maximum reached']);
});

test('image checks: type first, then size (5MB article, 2MB avatar)', () => {
  assert.equal(checkImageFile({ type: 'text/plain', size: 1 }, 5 * 1024 * 1024), 'Please select a valid image file');
  assert.equal(checkImageFile({ type: 'image/png', size: 5 * 1024 * 1024 }, 5 * 1024 * 1024), undefined);
  assert.equal(checkImageFile({ type: 'image/png', size: 5 * 1024 * 1024 + 1 }, 5 * 1024 * 1024), 'Image cannot exceed 5MB');
  assert.equal(checkImageFile({ type: 'image/jpeg', size: 2 * 1024 * 1024 + 1 }, 2 * 1024 * 1024), 'Image cannot exceed 2MB');
});

test('grayscale: r = g = b by luma, alpha kept; sizes fit 1600 without upscaling', () => {
  const data = new Uint8ClampedArray([255, 0, 0, 255, 0, 255, 0, 128, 10, 10, 10, 0]);
  toGray(data);
  assert.deepEqual([...data], [76, 76, 76, 255, 150, 150, 150, 128, 10, 10, 10, 0]);
  assert.deepEqual(fitWithin(120, 80), { width: 120, height: 80 });
  assert.deepEqual(fitWithin(3200, 1600), { width: 1600, height: 800 });
  assert.deepEqual(fitWithin(1000, 4000), { width: 400, height: 1600 });
  assert.equal(jpegName('My Photo.PNG'), 'My Photo.jpg');
  assert.equal(jpegName('noext'), 'noext.jpg');
});

test('profile edits send only what changed, and say when nothing did', () => {
  const before = { username: 'neal', bio: 'Driver' };
  assert.deepEqual(profileChanges(before, { username: 'neal', bio: 'Driver ' }, false).errors, { form: 'No changes have been made' });
  assert.deepEqual(profileChanges(before, { username: 'neal', bio: 'Driver' }, true), { changes: {}, errors: {} });
  assert.deepEqual(profileChanges(before, { username: ' neal_c ', bio: 'Driver' }, false), { changes: { username: 'neal_c' }, errors: {} });
  assert.deepEqual(profileChanges(before, { username: 'neal', bio: '' }, false).changes, { bio: '' });
  const bad = profileChanges(before, { username: 'ne', bio: 'b'.repeat(501) }, false).errors;
  assert.equal(bad.username, 'Username must be between 3 and 35 characters');
  assert.equal(bad.bio, 'Biography cannot exceed 500 characters');
  assert.equal(bad.form, undefined);
  assert.equal(profileChanges(before, { username: 'n'.repeat(36), bio: '' }, false).errors.username, 'Username must be between 3 and 35 characters');
  assert.equal(profileChanges(before, { username: 'n\u00e9al', bio: '' }, false).errors.username,
    'Username can only contain letters, numbers, dots, hyphens and underscores');
  // A name chosen before the ASCII rule is not checked again while it stays as it is.
  assert.deepEqual(profileChanges({ username: 'Ren\u00e9e', bio: '' }, { username: 'Ren\u00e9e', bio: 'hi' }, false),
    { changes: { bio: 'hi' }, errors: {} });
});

test('the article search count line', () => {
  assert.equal(resultCountText(1, 'jazz'), '1 article found for “jazz”');
  assert.equal(resultCountText(0, 'x'), '0 articles found for “x”');
  assert.equal(resultCountText(3, ''), '3 articles');
  assert.equal(resultCountText(2, 'snow', 'draft'), '2 drafts found for “snow”');
});

test('bans: reason required, days 1–365 (non-numeric → 1), until = now + days', () => {
  assert.deepEqual([banDaysOf(''), banDaysOf('abc'), banDaysOf('0'), banDaysOf('-4'), banDaysOf('7'), banDaysOf('999'), banDaysOf('2.9')],
    [1, 1, 1, 1, 7, 365, 2]);
  assert.deepEqual(banPayload(3, 'temporary', '5', '   '), { error: 'Please complete all fields' });
  const now = Date.parse('2026-01-01T00:00:00.000Z');
  assert.deepEqual(banPayload(3, 'temporary', 'x', ' spam ', now),
    { user_id: 3, ban_type: 'temporary', ban_reason: 'spam', ban_until: '2026-01-02T00:00:00.000Z' });
  assert.deepEqual(banPayload(3, 'permanent', '5', 'spam', now), { user_id: 3, ban_type: 'permanent', ban_reason: 'spam' });
  assert.equal(banSuccessText('temporary', 7), 'User banned for 7 days');
  assert.equal(banSuccessText('permanent', 1), 'User permanently banned successfully');
});

test('the notifications headline', () => {
  assert.equal(unreadHeadline(0), "You're all caught up");
  assert.equal(unreadHeadline(-2), "You're all caught up");
  assert.equal(unreadHeadline(1), 'You have 1 unread notification');
  assert.equal(unreadHeadline(12), 'You have 12 unread notifications');
});
