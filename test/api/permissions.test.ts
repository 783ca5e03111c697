// Who may do what: every endpoint that needs a session or a role, as anonymous, another user, the
// owner, an admin, and the owner temporarily and permanently banned (test/api/permissions.ts).
import { generateSync } from 'otplib';
import { createUser, multipart, samplePng } from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';
import { ADMINS_ONLY, SIGN_IN, permissionSuite, scenarios, type Cast } from './permissions.ts';

const NOT_RANKED: [number, string] = [404, 'This article is not ranked on The Pulse'];

const ARTICLE_NOT_FOUND: [number, string] = [404, 'Article not found'];
const AUTHOR_ONLY: [number, string] = [403, 'Only the author can see their archived articles'];

/** The owner themself is what the request is about: followed, promoted, banned, written to. */
async function theOwner({ owner }: Cast) {
  return { owner };
}

/** An article of the owner's. */
async function ownArticle({ server, owner }: Cast) {
  return { post: await createPost(server, owner) };
}

/** An article of the owner's that they archived: only they and admins can see it. */
async function archivedArticle(cast: Cast) {
  const { post } = await ownArticle(cast);
  const res = await cast.server.api('PUT', `/api/posts/${post.id}/archive`, { token: cast.owner.token });
  if (res.status !== 200) throw new Error(`archive: ${res.status}`);
  return { post };
}

/** A draft of the owner's, with all an article needs, so that publishing it can succeed. */
async function ownDraft({ server, owner }: Cast) {
  const res = await server.api('POST', '/api/posts', { token: owner.token, body: multipart({ ...articleFields(), draft: 'true' }) });
  if (res.status !== 201) throw new Error(`draft: ${res.status}`);
  return { post: res.body };
}

const DRAFTS_AUTHOR_ONLY: [number, string] = [403, 'Only the author can see their drafts'];
const AS_VISITOR_404 = { 'temporarily banned': ARTICLE_NOT_FOUND, 'permanently banned': ARTICLE_NOT_FOUND } as const;

// A draft is its author's to read, edit, publish and delete; admins read it; anyone else finds
// no such article. Publishing someone else's draft is refused and changes nothing.
permissionSuite('drafts', [
  ...scenarios({ name: 'save a draft', method: 'POST', url: () => '/api/posts', body: () => multipart({ title: 'A headline to finish later on', draft: 'true' }) },
    { anonymous: SIGN_IN, user: 201, owner: 201, admin: 201 }),
  ...scenarios({ name: 'read a draft', method: 'GET', url: (f) => `/api/posts/${f.post.id}`, arrange: ownDraft },
    { anonymous: ARTICLE_NOT_FOUND, user: ARTICLE_NOT_FOUND, owner: 200, admin: 200, ...AS_VISITOR_404 }),
  ...scenarios({
    name: 'edit a draft', method: 'PUT', url: (f) => `/api/posts/${f.post.id}`, arrange: ownDraft,
    body: () => multipart({ title: 'Somebody changed this draft headline' }),
  }, { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: 200, admin: [403, 'You can only edit your own articles'] }),
  ...scenarios({ name: 'publish a draft', method: 'POST', url: (f) => `/api/posts/${f.post.id}/publish`, arrange: ownDraft },
    { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: 200, admin: [403, 'You can only publish your own articles'] }),
  ...scenarios({
    name: 'publish a draft with changes', method: 'POST', url: (f) => `/api/posts/${f.post.id}/publish`, arrange: ownDraft,
    body: () => multipart({ title: 'Somebody else published this one' }),
  }, { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: 200, admin: [403, 'You can only publish your own articles'] }),
  ...scenarios({ name: 'publish an article', method: 'POST', url: (f) => `/api/posts/${f.post.id}/publish`, arrange: ownArticle },
    { anonymous: SIGN_IN, user: [403, 'You can only publish your own articles'], owner: [409, 'This article is already published'],
      admin: [403, 'You can only publish your own articles'] }),
  ...scenarios({ name: "list an author's drafts", method: 'GET', url: (f) => `/api/users/${f.post.author_id}/posts?status=draft`, arrange: ownDraft },
    { anonymous: DRAFTS_AUTHOR_ONLY, user: DRAFTS_AUTHOR_ONLY, owner: 200, admin: 200,
      'temporarily banned': DRAFTS_AUTHOR_ONLY, 'permanently banned': DRAFTS_AUTHOR_ONLY }),
  ...scenarios({ name: 'delete a draft', method: 'DELETE', url: (f) => `/api/posts/${f.post.id}`, arrange: ownDraft },
    { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: 200, admin: [403, 'You can only delete your own articles'] }),
  ...scenarios({ name: 'delete a draft with a reason', method: 'DELETE', url: (f) => `/api/admin/delete-post/${f.post.id}?reason=spam`, arrange: ownDraft },
    { anonymous: SIGN_IN, user: ADMINS_ONLY, owner: ADMINS_ONLY, admin: [403, 'Only its author can delete a draft'] }),
  ...scenarios({ name: 'archive a draft', method: 'PUT', url: (f) => `/api/posts/${f.post.id}/archive`, arrange: ownDraft },
    { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: [409, 'A draft cannot be archived: publish it or delete it'],
      admin: [409, 'A draft cannot be archived: publish it or delete it'] }),
  // A draft has no rank for anyone, its author included: the answer tells nothing of it.
  ...scenarios({ name: "read a draft's rank", method: 'GET', url: (f) => `/api/posts/${f.post.id}/rank`, arrange: ownDraft },
    { anonymous: NOT_RANKED, user: NOT_RANKED, owner: NOT_RANKED, admin: NOT_RANKED, 'temporarily banned': NOT_RANKED, 'permanently banned': NOT_RANKED }),
  ...scenarios({ name: 'rate a draft', method: 'POST', url: (f) => `/api/posts/${f.post.id}/rate`, arrange: ownDraft, body: () => ({ rating: 4 }) },
    { anonymous: [401, 'You must sign in to rate articles'], user: ARTICLE_NOT_FOUND, owner: [403, 'You cannot rate your own articles'], admin: ARTICLE_NOT_FOUND }),
  ...scenarios({ name: 'comment on a draft', method: 'POST', url: (f) => `/api/posts/${f.post.id}/comments`, arrange: ownDraft, body: () => ({ content: 'Early word' }) },
    { anonymous: [401, 'You must sign in to comment'], user: ARTICLE_NOT_FOUND, owner: ARTICLE_NOT_FOUND, admin: ARTICLE_NOT_FOUND }),
  ...scenarios({ name: "read a draft's comments", method: 'GET', url: (f) => `/api/posts/${f.post.id}/comments`, arrange: ownDraft },
    { anonymous: ARTICLE_NOT_FOUND, user: ARTICLE_NOT_FOUND, owner: 200, admin: 200, ...AS_VISITOR_404 }),
]);

permissionSuite('articles and ratings', [
  ...scenarios({ name: 'publish an article', method: 'POST', url: () => '/api/posts', body: () => multipart(articleFields()) },
    { anonymous: SIGN_IN, user: 201, owner: 201, admin: 201 }),
  ...scenarios({
    name: 'edit an article', method: 'PUT', url: (f) => `/api/posts/${f.post.id}`, arrange: ownArticle,
    body: () => multipart(articleFields({ title: 'Somebody changed this headline' })),
  }, { anonymous: SIGN_IN, user: [403, 'You can only edit your own articles'], owner: 200, admin: [403, 'You can only edit your own articles'] }),
  ...scenarios({ name: 'archive an article', method: 'PUT', url: (f) => `/api/posts/${f.post.id}/archive`, arrange: ownArticle },
    { anonymous: SIGN_IN, user: [403, 'You can only archive your own articles'], owner: 200, admin: 200 }),
  ...scenarios({ name: 'delete an article', method: 'DELETE', url: (f) => `/api/posts/${f.post.id}`, arrange: ownArticle },
    { anonymous: SIGN_IN, user: [403, 'You can only delete your own articles'], owner: 200, admin: [403, 'You can only delete your own articles'] }),
  // Reads open to visitors: a banned token reads as a visitor's.
  ...scenarios({ name: 'read an archived article', method: 'GET', url: (f) => `/api/posts/${f.post.id}`, arrange: archivedArticle },
    { anonymous: ARTICLE_NOT_FOUND, user: ARTICLE_NOT_FOUND, owner: 200, admin: 200, 'temporarily banned': ARTICLE_NOT_FOUND, 'permanently banned': ARTICLE_NOT_FOUND }),
  ...scenarios({ name: "read an archived article's comments", method: 'GET', url: (f) => `/api/posts/${f.post.id}/comments`, arrange: archivedArticle },
    { anonymous: ARTICLE_NOT_FOUND, user: ARTICLE_NOT_FOUND, owner: 200, admin: 200, 'temporarily banned': ARTICLE_NOT_FOUND, 'permanently banned': ARTICLE_NOT_FOUND }),
  ...scenarios({
    name: "list an author's archived articles", method: 'GET', url: (f) => `/api/users/${f.post.author_id}/posts?archived=true`, arrange: archivedArticle,
  }, { anonymous: AUTHOR_ONLY, user: AUTHOR_ONLY, owner: 200, admin: 200, 'temporarily banned': AUTHOR_ONLY, 'permanently banned': AUTHOR_ONLY }),
  ...scenarios({ name: 'rate an article', method: 'POST', url: (f) => `/api/posts/${f.post.id}/rate`, arrange: ownArticle, body: () => ({ rating: 4 }) },
    { anonymous: [401, 'You must sign in to rate articles'], user: 200, owner: [403, 'You cannot rate your own articles'], admin: 200 }),
  ...scenarios({ name: "read one's own rating", method: 'GET', url: (f) => `/api/posts/${f.post.id}/rating`, arrange: ownArticle },
    { anonymous: SIGN_IN, user: 200, owner: 200, admin: 200 }),
  ...scenarios({ name: "read one's own rating of an archived article", method: 'GET', url: (f) => `/api/posts/${f.post.id}/rating`, arrange: archivedArticle },
    { anonymous: SIGN_IN, user: ARTICLE_NOT_FOUND, owner: 200, admin: 200 }),
]);

/** The owner's comment on an article by `user`: writing an article gives no say over its comments. */
async function ownComment({ server, owner, user }: Cast) {
  const post = await createPost(server, user);
  const res = await server.api('POST', `/api/posts/${post.id}/comments`, { token: owner.token, json: { content: 'The first word' } });
  if (res.status !== 201) throw new Error(`comment: ${res.status}`);
  return { post, comment: res.body };
}

permissionSuite('comments', [
  ...scenarios({ name: 'comment', method: 'POST', url: (f) => `/api/posts/${f.post.id}/comments`, arrange: ownComment, body: () => ({ content: 'Another word' }) },
    { anonymous: [401, 'You must sign in to comment'], user: 201, owner: 201, admin: 201 }),
  ...scenarios({ name: 'edit a comment', method: 'PUT', url: (f) => `/api/comments/${f.comment.id}`, arrange: ownComment, body: () => ({ content: 'Changed' }) },
    { anonymous: SIGN_IN, user: [403, 'You can only edit your own comments'], owner: 200, admin: [403, 'You can only edit your own comments'] }),
  ...scenarios({ name: 'delete a comment', method: 'DELETE', url: (f) => `/api/comments/${f.comment.id}?reason=Off+topic`, arrange: ownComment },
    { anonymous: SIGN_IN, user: [403, 'You can only delete your own comments'], owner: 200, admin: 200 }),
  // An admin removing someone else's comment says why (the author is told, the moderation log keeps it).
  ...scenarios({ name: 'delete a comment without a reason', method: 'DELETE', url: (f) => `/api/comments/${f.comment.id}`, arrange: ownComment },
    { anonymous: SIGN_IN, user: [403, 'You can only delete your own comments'], owner: 200, admin: [400, 'Please enter a reason for deleting the comment'] }),
]);

const FOLLOW_SIGN_IN: [number, string] = [401, 'You must sign in to follow users'];
const FOLLOW_SELF: [number, string] = [400, 'You cannot follow yourself'];

/** The owner is the one followed; `user` and `admin` already follow them. */
async function followedOwner({ server, owner, user, admin }: Cast) {
  for (const follower of [user, admin]) {
    const res = await server.api('POST', `/api/follow/${owner.id}`, { token: follower.token });
    if (res.status !== 200) throw new Error(`follow: ${res.status}`);
  }
  return { owner };
}

permissionSuite('follows', [
  ...scenarios({ name: 'follow', method: 'POST', url: (f) => `/api/follow/${f.owner.id}`, arrange: theOwner },
    { anonymous: FOLLOW_SIGN_IN, user: 200, owner: FOLLOW_SELF, admin: 200 }),
  ...scenarios({ name: 'unfollow', method: 'DELETE', url: (f) => `/api/follow/${f.owner.id}`, arrange: followedOwner },
    { anonymous: FOLLOW_SIGN_IN, user: 200, owner: FOLLOW_SELF, admin: 200 }),
  ...scenarios({ name: 'toggle following by name', method: 'POST', url: (f) => `/api/users/by-username/${f.owner.username}/follow`, arrange: theOwner },
    { anonymous: FOLLOW_SIGN_IN, user: 200, owner: FOLLOW_SELF, admin: 200 }),
]);

const SIGNED_IN = { anonymous: SIGN_IN, user: 200, owner: 200, admin: 200 } as const;

const MUTE_SIGN_IN: [number, string] = [401, 'You must sign in to mute'];
const MUTE_SELF: [number, string] = [400, 'You cannot mute yourself'];

/** The owner is the one muted; `user` and `admin` muted them already. */
async function mutedOwner({ server, owner, user, admin }: Cast) {
  for (const muter of [user, admin]) {
    const res = await server.api('PUT', `/api/users/me/mutes/users/${owner.id}`, { token: muter.token });
    if (res.status !== 200) throw new Error(`mute: ${res.status}`);
  }
  return { owner };
}

let mutedTags = 0;
/** A hashtag of the row's own that `user`, `admin` and the owner muted. */
async function mutedTag({ server, owner, user, admin }: Cast) {
  mutedTags += 1;
  const tag = `scenario${mutedTags}`;
  for (const muter of [user, admin, owner]) {
    const res = await server.api('PUT', `/api/users/me/mutes/hashtags/${tag}`, { token: muter.token });
    if (res.status !== 200) throw new Error(`mute #${tag}: ${res.status}`);
  }
  return { tag };
}

permissionSuite('mutes', [
  ...scenarios({ name: 'read my mutes', method: 'GET', url: () => '/api/users/me/mutes' }, SIGNED_IN),
  ...scenarios({ name: 'mute an author', method: 'PUT', url: (f) => `/api/users/me/mutes/users/${f.owner.id}`, arrange: theOwner },
    { anonymous: MUTE_SIGN_IN, user: 200, owner: MUTE_SELF, admin: 200 }),
  ...scenarios({ name: 'unmute an author', method: 'DELETE', url: (f) => `/api/users/me/mutes/users/${f.owner.id}`, arrange: mutedOwner },
    { anonymous: MUTE_SIGN_IN, user: 200, owner: MUTE_SELF, admin: 200 }),
  ...scenarios({ name: 'mute a hashtag', method: 'PUT', url: () => `/api/users/me/mutes/hashtags/fresh${++mutedTags}` },
    { anonymous: MUTE_SIGN_IN, user: 200, owner: 200, admin: 200 }),
  ...scenarios({ name: 'unmute a hashtag', method: 'DELETE', url: (f) => `/api/users/me/mutes/hashtags/${f.tag}`, arrange: mutedTag },
    { anonymous: MUTE_SIGN_IN, user: 200, owner: 200, admin: 200 }),
]);

permissionSuite('one\'s own account', [
  ...scenarios({ name: 'read my account', method: 'GET', url: () => '/api/users/me' }, SIGNED_IN),
  ...scenarios({ name: 'read my statistics', method: 'GET', url: () => '/api/users/me/stats' }, SIGNED_IN),
  ...scenarios({ name: 'edit my biography', method: 'PUT', url: () => '/api/users/me', body: () => ({ bio: 'Written by the scenario table' }) }, SIGNED_IN),
  ...scenarios({
    name: 'change my avatar', method: 'PUT', url: () => '/api/users/me', arrange: async () => ({ png: await samplePng() }),
    body: (f) => multipart({}, { field: 'avatar', data: f.png }),
  }, SIGNED_IN),
  // Visitors and banned users are refused before their upload is read: 401/403, not 413.
  ...scenarios({
    name: 'upload an avatar over 2MB', method: 'PUT', url: () => '/api/users/me',
    body: () => multipart({}, { field: 'avatar', data: Buffer.alloc(2 * 1024 * 1024 + 1, 7) }),
  }, { anonymous: SIGN_IN, user: [413, 'Image cannot exceed 2MB'], owner: [413, 'Image cannot exceed 2MB'], admin: [413, 'Image cannot exceed 2MB'] }),
]);

/** An unread notification for each of owner, user and admin; the owner's is the one acted on. */
async function unreadNotifications({ server, owner, user, admin }: Cast) {
  for (const recipient of [owner, user, admin]) {
    const res = await server.api('POST', '/api/admin/send-notification', {
      token: admin.token, json: { user_id: recipient.id, subject: 'For the table', message: 'Unread' },
    });
    if (res.status !== 200) throw new Error(`notify: ${res.status}`);
  }
  const list = await server.api('GET', '/api/notifications?limit=1', { token: owner.token });
  return { notification: list.body.notifications[0].id as number };
}

const NOTIFICATION_NOT_FOUND: [number, string] = [404, 'Notification not found'];

permissionSuite('notifications', [
  ...scenarios({ name: 'list my notifications', method: 'GET', url: () => '/api/notifications', arrange: unreadNotifications }, SIGNED_IN),
  ...scenarios({ name: 'mark all read', method: 'POST', url: () => '/api/notifications/mark-all-read', arrange: unreadNotifications }, SIGNED_IN),
  ...scenarios({ name: 'mark one read', method: 'POST', url: (f) => `/api/notifications/${f.notification}/mark-read`, arrange: unreadNotifications },
    { anonymous: SIGN_IN, user: NOTIFICATION_NOT_FOUND, owner: 200, admin: NOTIFICATION_NOT_FOUND }),
]);

const ADMIN = { anonymous: SIGN_IN, user: ADMINS_ONLY, owner: ADMINS_ONLY, admin: 200 } as const;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Someone already banned, whom an admin may unban. */
async function bannedSomeone({ server, admin }: Cast) {
  const someone = await createUser(server);
  const res = await server.api('POST', '/api/admin/ban-user', {
    token: admin.token, json: { user_id: someone.id, ban_type: 'permanent', ban_reason: 'earlier' },
  });
  if (res.status !== 200) throw new Error(`ban: ${res.status}`);
  return { someone };
}

// The owner is the account the admin acts on: acting on oneself is no way around the role.
permissionSuite('administration', [
  ...scenarios({ name: 'list users', method: 'GET', url: () => '/api/admin/users' }, ADMIN),
  ...scenarios({ name: 'site statistics', method: 'GET', url: () => '/api/admin/stats' }, ADMIN),
  ...scenarios({ name: 'list banned users', method: 'GET', url: () => '/api/admin/banned-users' }, ADMIN),
  ...scenarios({ name: 'list every article', method: 'GET', url: () => '/api/admin/posts' }, ADMIN),
  ...scenarios({ name: 'promote a user', method: 'POST', url: () => '/api/admin/update-user-level', arrange: theOwner,
    body: (f) => ({ user_id: f.owner.id, level: 'admin' }) }, ADMIN),
  ...scenarios({ name: 'ban a user', method: 'POST', url: () => '/api/admin/ban-user', arrange: theOwner,
    body: (f) => ({ user_id: f.owner.id, ban_type: 'temporary', ban_reason: 'spam', ban_until: inDays(2) }) }, ADMIN),
  ...scenarios({ name: 'unban a user', method: 'POST', url: (f) => `/api/admin/unban-user/${f.someone.id}`, arrange: bannedSomeone }, ADMIN),
  ...scenarios({ name: 'send a notification', method: 'POST', url: () => '/api/admin/send-notification', arrange: theOwner,
    body: (f) => ({ user_id: f.owner.id, subject: 'Hello', message: 'From the desk' }) }, ADMIN),
  ...scenarios({ name: 'delete an article with a reason', method: 'DELETE', url: (f) => `/api/admin/delete-post/${f.post.id}?reason=spam`, arrange: ownArticle }, ADMIN),
]);

// Settings (DESIGN.md, Accounts: settings). Each endpoint on a server of its own: a row that
// succeeds ends the shared user's (or admin's) session or account, which no later row of the
// same endpoint uses. The owner's password is the factory's.
const PASSWORD = 'password123';
let freshEmails = 0;

permissionSuite('settings: password', scenarios({
  name: 'change my password', method: 'PUT', url: () => '/api/users/me/password',
  body: () => ({ current_password: PASSWORD, new_password: 'another password' }),
}, SIGNED_IN));

permissionSuite('settings: email', scenarios({
  name: 'change my email', method: 'PUT', url: () => '/api/users/me/email',
  arrange: async () => ({ email: `fresh${process.pid}-${(freshEmails += 1)}@example.org` }),
  body: (f) => ({ email: f.email, password: PASSWORD }),
}, SIGNED_IN));

permissionSuite('settings: export', scenarios({ name: 'download my data', method: 'GET', url: () => '/api/users/me/export' }, SIGNED_IN));

permissionSuite('settings: sessions', [
  // A banned user may still end their own session on the server.
  ...scenarios({ name: 'sign out', method: 'POST', url: () => '/api/auth/logout' },
    { ...SIGNED_IN, 'temporarily banned': 200, 'permanently banned': 200 }),
]);

permissionSuite('settings: every session', scenarios({ name: 'sign out everywhere', method: 'POST', url: () => '/api/auth/logout-all' }, SIGNED_IN));

// The suite's admin is its only one.
permissionSuite('settings: delete', scenarios({
  name: 'delete my account', method: 'DELETE', url: () => '/api/users/me', arrange: ownArticle, body: () => ({ password: PASSWORD }),
}, { anonymous: SIGN_IN, user: 200, owner: 200, admin: [403, 'The last administrator cannot delete their account. Make another user an admin first.'] }));

// Settings → Security: two-factor sign-in. The codes come from one secret every actor of a row
// is given (set up through the API, then the same secret written for all), each on its own server.
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const totpNow = (offset = 0) => generateSync({ secret: TOTP_SECRET, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** A set-up waiting for its code, for the owner, the user and the admin. */
async function twoFactorWaiting({ server, owner, user, admin }: Cast) {
  for (const actor of [owner, user, admin]) {
    const me = await server.api('GET', '/api/users/me', { token: actor.token });
    if (me.body.two_factor_enabled) continue;
    const res = await server.api('POST', '/api/users/me/two-factor/setup', { token: actor.token, json: { password: PASSWORD } });
    if (res.status !== 200) throw new Error(`2fa setup: ${res.status}`);
    await server.ctx.db.updateTable('two_factor').set({ secret: TOTP_SECRET }).where('user_id', '=', actor.id).execute();
  }
  return {};
}

/** Two-factor sign-in on for the owner, the user and the admin, the previous step's code used. */
async function twoFactorOn(cast: Cast) {
  await twoFactorWaiting(cast);
  for (const actor of [cast.owner, cast.user, cast.admin]) {
    const me = await cast.server.api('GET', '/api/users/me', { token: actor.token });
    if (me.body.two_factor_enabled) continue;
    const res = await cast.server.api('POST', '/api/users/me/two-factor', { token: actor.token, json: { code: totpNow(-1) } });
    if (res.status !== 200) throw new Error(`2fa on: ${res.status}`);
  }
  return {};
}

/** The owner's login, its password checked: the challenge its code completes. */
async function ownersChallenge(cast: Cast) {
  await twoFactorOn(cast);
  const res = await cast.server.api('POST', '/api/auth/login', { json: { email: cast.owner.email, password: PASSWORD } });
  if (!res.body.challenge) throw new Error(`2fa login: ${res.status}`);
  return { challenge: res.body.challenge as string };
}

permissionSuite('settings: two-factor set-up', scenarios({
  name: 'start setting up two-factor sign-in', method: 'POST', url: () => '/api/users/me/two-factor/setup', body: () => ({ password: PASSWORD }),
}, SIGNED_IN));

permissionSuite('settings: two-factor on', scenarios({
  name: 'turn two-factor sign-in on', method: 'POST', url: () => '/api/users/me/two-factor', arrange: twoFactorWaiting,
  body: () => ({ code: totpNow() }),
}, SIGNED_IN));

permissionSuite('settings: two-factor off', scenarios({
  name: 'turn two-factor sign-in off', method: 'DELETE', url: () => '/api/users/me/two-factor', arrange: twoFactorOn,
  body: () => ({ password: PASSWORD, code: totpNow() }),
}, SIGNED_IN));

// Signing in needs no session: whoever sends the owner's challenge and code gets the owner's
// token; a ban given since the password step is told instead, and uses no code up.
permissionSuite('two-factor login', scenarios({
  name: 'complete a login with a code', method: 'POST', url: () => '/api/auth/login/2fa', arrange: ownersChallenge,
  body: (f) => ({ challenge: f.challenge, code: totpNow() }),
}, { anonymous: 200, user: 200, owner: 200, admin: 200 }));

const REPORT_SIGN_IN: [number, string] = [401, 'You must sign in to report content'];
const OWN_CONTENT: [number, string] = [403, 'You cannot report your own content'];

/** An article of the owner's that `user` reported: open reports for an admin to resolve. */
async function reportedArticle(cast: Cast) {
  const { post } = await ownArticle(cast);
  const res = await cast.server.api('POST', '/api/reports', { token: cast.user.token, json: { target_type: 'post', target_id: post.id, reason: 'spam' } });
  if (res.status !== 201) throw new Error(`report: ${res.status}`);
  return { post };
}

permissionSuite('reports and the moderation log', [
  ...scenarios({ name: 'report an article', method: 'POST', url: () => '/api/reports', arrange: ownArticle,
    body: (f) => ({ target_type: 'post', target_id: f.post.id, reason: 'spam', note: 'Ads' }) },
  { anonymous: REPORT_SIGN_IN, user: 201, owner: OWN_CONTENT, admin: 201 }),
  ...scenarios({ name: 'report a comment', method: 'POST', url: () => '/api/reports', arrange: ownComment,
    body: (f) => ({ target_type: 'comment', target_id: f.comment.id, reason: 'harassment' }) },
  { anonymous: REPORT_SIGN_IN, user: 201, owner: OWN_CONTENT, admin: 201 }),
  ...scenarios({ name: 'list open reports', method: 'GET', url: () => '/api/admin/reports', arrange: reportedArticle }, ADMIN),
  ...scenarios({ name: 'list closed reports', method: 'GET', url: () => '/api/admin/reports?status=closed' }, ADMIN),
  ...scenarios({ name: 'dismiss the reports on an article', method: 'POST', url: (f) => `/api/admin/reports/post/${f.post.id}/dismiss`,
    arrange: reportedArticle }, ADMIN),
  // Public: a banned token reads as a visitor's.
  ...scenarios({ name: 'read the moderation log', method: 'GET', url: () => '/api/moderation' },
    { anonymous: 200, user: 200, owner: 200, admin: 200, 'temporarily banned': 200, 'permanently banned': 200 }),
]);

// The mojo ledger is public like the profile it explains; a banned token reads as a visitor's.
permissionSuite('mojo ledger', [
  ...scenarios({ name: "read an author's mojo ledger", method: 'GET', url: (f) => `/api/users/${f.owner.id}/mojo`, arrange: theOwner },
    { anonymous: 200, user: 200, owner: 200, admin: 200, 'temporarily banned': 200, 'permanently banned': 200 }),
]);

/** An account waiting for approval (as approval mode makes one), not the owner's. */
async function pendingAccount({ server }: Cast) {
  const someone = await createUser(server);
  await server.ctx.db.updateTable('users').set({ pending: 1 }).where('id', '=', someone.id).execute();
  return { someone };
}

/** An invitation an admin made. */
async function anInvite({ server, admin }: Cast) {
  const res = await server.api('POST', '/api/invites', { token: admin.token, json: {} });
  if (res.status !== 201) throw new Error(`invite: ${res.status}`);
  return { code: res.body.code as string };
}

// Who may join (DESIGN.md, Registration): the Pending tab and invitations are the admins'.
permissionSuite('registration', [
  ...scenarios({ name: 'list accounts waiting for approval', method: 'GET', url: () => '/api/admin/pending', arrange: pendingAccount }, ADMIN),
  ...scenarios({ name: 'approve an account', method: 'POST', url: (f) => `/api/admin/pending/${f.someone.id}/approve`, arrange: pendingAccount }, ADMIN),
  ...scenarios({ name: 'reject an account', method: 'POST', url: (f) => `/api/admin/pending/${f.someone.id}/reject`, arrange: pendingAccount,
    body: () => ({ reason: 'spam' }) }, ADMIN),
  ...scenarios({ name: 'make an invitation', method: 'POST', url: () => '/api/invites', body: () => ({ uses: 2, days: 3 }) },
    { anonymous: SIGN_IN, user: ADMINS_ONLY, owner: ADMINS_ONLY, admin: 201 }),
  ...scenarios({ name: 'list invitations', method: 'GET', url: () => '/api/invites', arrange: anInvite }, ADMIN),
  ...scenarios({ name: 'revoke an invitation', method: 'DELETE', url: (f) => `/api/invites/${f.code}`, arrange: anInvite }, ADMIN),
]);

let blockTargets = 0;

/** A server the admins blocked, for lifting the block. */
async function aBlock({ server, admin }: Cast) {
  const target = `lifted${++blockTargets}.example`;
  const res = await server.api('PUT', `/api/admin/federation/blocks/${target}`, { token: admin.token });
  if (res.status !== 200) throw new Error(`block: ${res.status}`);
  return { target };
}

// The fediverse's moderation (DESIGN.md, Moderation): the Fediverse tab and the blocks are the
// admins', and exist only while FEDERATION is on (test/api/federation-blocks.test.ts: 404 when off).
permissionSuite('fediverse blocks', [
  ...scenarios({ name: 'the Fediverse tab', method: 'GET', url: () => '/api/admin/federation' }, ADMIN),
  ...scenarios({ name: 'list blocks', method: 'GET', url: () => '/api/admin/federation/blocks', arrange: aBlock }, ADMIN),
  ...scenarios({ name: 'block a server', method: 'PUT', url: () => `/api/admin/federation/blocks/blocked${++blockTargets}.example`,
    body: () => ({ reason: 'spam' }) }, ADMIN),
  ...scenarios({ name: 'block an account', method: 'PUT', url: () => `/api/admin/federation/blocks/${encodeURIComponent(`@troll@blocked${++blockTargets}.example`)}` }, ADMIN),
  ...scenarios({ name: 'lift a block', method: 'DELETE', url: (f) => `/api/admin/federation/blocks/${f.target}`, arrange: aBlock }, ADMIN),
], { env: { FEDERATION: 'on', PUBLIC_URL: 'https://paper.test', FEDERATION_ALLOW_PRIVATE: 'true' } });
