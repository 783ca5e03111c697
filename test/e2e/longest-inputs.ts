// A site filled through the API with the longest unbroken words the server accepts: usernames,
// emails, titles, whole articles, hashtags, bios, comments, ban reasons, notices and report notes, each a single
// word of wide letters at its limit. Shared by the layout tests (overflow at 390 and 1280 px, and
// layout shift), which open every page on it. Pictures of several shapes and avatars included.
import assert from 'node:assert/strict';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, multipart, samplePng, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { startReader, type Reader } from './reader-support.ts';

/** A word of `length` wide letters, with no place to break it. */
export const word = (length: number, letters = 'W') => letters.repeat(Math.ceil(length / letters.length)).slice(0, length);

export const LIMITS = { username: 35, title: 80, content: 10_000, hashtag: 20, bio: 500, comment: 1000, reason: 500, subject: 200, message: 2000, note: 500 };

export interface LongestSite {
  /** Writes, comments, follows and is followed; has notifications and a picture. */
  author: TestUser;
  reader: TestUser;
  admin: TestUser;
  /** An article with a picture and comments, by `author`. */
  postId: number;
}

async function api(server: TestServer, method: string, urlPath: string, options: Parameters<TestServer['api']>[2]) {
  const res = await server.api(method, urlPath, options);
  assert.ok(res.status < 300, `${method} ${urlPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function setAvatar(server: TestServer, user: TestUser): Promise<void> {
  const body = multipart({ bio: word(LIMITS.bio) }, { field: 'avatar', data: await samplePng(300, 200) });
  await api(server, 'PUT', '/api/users/me', { token: user.token, body });
}

export async function createLongestSite(server: TestServer): Promise<LongestSite> {
  // Names differ in their last letters only: every one is LIMITS.username wide letters long.
  const name = (tail: string) => word(LIMITS.username - tail.length) + tail;
  const email = (tail: string) => `${word(64, 'w').slice(0, 60)}${tail}@${word(60, 'w')}.example`;
  const author = await createUser(server, { username: name('a1'), email: email('a'), bio: word(LIMITS.bio) });
  const reader = await createUser(server, { username: name('b2'), email: email('b'), bio: word(LIMITS.bio) });
  const admin = await createAdmin(server, { username: name('c3'), email: email('c') });
  const banned = await createUser(server, { username: name('d4'), email: email('d'), bio: word(LIMITS.bio) });
  await setAvatar(server, author);

  const hashtags = [word(LIMITS.hashtag, 'w'), word(LIMITS.hashtag, 'm'), word(LIMITS.hashtag, 'wm')];
  const article = { title: word(LIMITS.title), content: word(LIMITS.content), hashtags };
  // A tall picture, a wide one and none: the layout holds whatever the shape.
  const post = await createPost(server, author, article, await samplePng(600, 900));
  await createPost(server, author, { ...article, title: word(LIMITS.title, 'M') }, await samplePng(1200, 300));
  // Enough for every section of Home, its feed included.
  for (let i = 0; i < 10; i += 1) await createPost(server, reader, { ...article, title: word(LIMITS.title - 1) + i });
  await createPost(server, banned, article);
  const removed = await createPost(server, author, article);
  await api(server, 'DELETE', `/api/admin/delete-post/${removed.id}?reason=${word(LIMITS.reason)}`, { token: admin.token });

  for (const who of [reader, admin]) {
    await api(server, 'POST', `/api/posts/${post.id}/comments`, { token: who.token, json: { content: word(LIMITS.comment) } });
    await api(server, 'POST', `/api/posts/${post.id}/rate`, { token: who.token, json: { post_id: post.id, rating: 5 } });
    await api(server, 'POST', `/api/follow/${author.id}`, { token: who.token });
  }
  await api(server, 'POST', `/api/follow/${reader.id}`, { token: author.token });
  await api(server, 'POST', '/api/admin/send-notification', {
    token: admin.token,
    json: { user_id: author.id, subject: word(LIMITS.subject), message: word(LIMITS.message), notification_type: 'general' },
  });
  await api(server, 'POST', '/api/admin/ban-user', {
    token: admin.token, json: { user_id: banned.id, ban_type: 'permanent', ban_reason: word(LIMITS.reason) },
  });
  // Reports with the longest notes, on the article and on a comment: the admin's Reports tab.
  await api(server, 'POST', '/api/reports', { token: reader.token, json: { target_type: 'post', target_id: post.id, reason: 'off-topic', note: word(LIMITS.note) } });
  const [comment] = (await api(server, 'GET', `/api/posts/${post.id}/comments`, {})) as Array<{ id: number }>;
  await api(server, 'POST', '/api/reports', { token: author.token, json: { target_type: 'comment', target_id: comment!.id, reason: 'harassment', note: word(LIMITS.note) } });
  return { author, reader, admin, postId: post.id };
}

export interface LongestRun {
  site: LongestSite;
  reader: Reader;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/** For a suite's before(): its own server filled with the longest site, and a Chromium on it. */
export async function openLongestSite(): Promise<LongestRun> {
  const server = await startTestServer();
  const site = await createLongestSite(server);
  const reader = await startReader(server, { timeout: 15_000 });
  return {
    site, reader,
    async close() {
      await reader.close();
      await server.stop();
    },
  };
}
