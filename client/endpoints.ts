// Every endpoint the client calls, each defined once: its method, path, query and body, and the
// type of its answer, all from the server's wire types (server/api-types.ts). api.ts turns each
// entry into a typed function that sends it (api.posts.rate(id, 4)); the server keys the answers
// it embeds in a page it renders by these addresses too (server/pages/, client/page-data.ts). No
// other client file writes an API address: test/unit/client-endpoints.test.ts fails on an '/api'
// string anywhere else.
import type * as Wire from '../server/api-types.ts';
import type { MailKind } from '../shared/mail-kinds.ts';
// The fediverse's answers, until the server's wire types carry them (client/types.ts).
import type { Comment, Mutes, RemoteFollowerList, RemoteMuteResult } from './types.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One request to make. `R` is the type of its answer: a type only, never set. */
export interface Call<R> {
  method: Method;
  url: string;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  readonly answer?: R;
}

/**
 * path + query, '/api/posts' + {skip: 0, hashtag: undefined} → '/api/posts?skip=0': empty values
 * are dropped, and the keys sorted, so the same parameters always make the same address (a page's
 * call finds the answer the server embedded for it, and the browser's cache sees one URL).
 */
export function withQuery(path: string, query: object = {}): string {
  const params = new URLSearchParams();
  const entries = Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, value] of entries) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A path segment from the address bar or a username: any text, encoded. */
function segment(value: number | string): string {
  return encodeURIComponent(String(value));
}

/** Multipart fields: a file as itself (with its name), a list as JSON text, anything else as
 * text; absent fields are not sent (the server then keeps what it has). */
export function formOf(fields: object): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.set(name, value instanceof Blob ? value : Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  return form;
}

function read<R>(path: string, query?: object, signal?: AbortSignal): Call<R> {
  return signal ? { method: 'GET', url: withQuery(path, query), signal } : { method: 'GET', url: withQuery(path, query) };
}

function write<R>(method: Exclude<Method, 'GET'>, url: string, json?: unknown): Call<R> {
  return json === undefined ? { method, url } : { method, url, json };
}

function upload<R>(method: 'POST' | 'PUT', url: string, fields: object): Call<R> {
  return { method, url, form: formOf(fields) };
}

// Grouped by the server's feature folders (server/<feature>/<feature>.routes.ts).
export const auth = {
  login: (body: Wire.LoginBody) => write<Wire.LoginResponse | Wire.TwoFactorChallenge>('POST', '/api/auth/login', body),
  loginTwoFactor: (body: Wire.TwoFactorLoginBody) => write<Wire.LoginResponse>('POST', '/api/auth/login/2fa', body),
  register: (body: Wire.RegisterBody) => write<Wire.RegisterResponse>('POST', '/api/auth/register', body),
  logout: () => write<Wire.Message>('POST', '/api/auth/logout'),
  logoutAll: () => write<Wire.Message>('POST', '/api/auth/logout-all'),
  forgotPassword: (body: Wire.ForgotPasswordBody) => write<Wire.Detail>('POST', '/api/auth/forgot-password', body),
  resetPassword: (body: Wire.ResetPasswordBody) => write<Wire.Detail>('POST', '/api/auth/reset-password', body),
  verifyEmail: (body: Wire.VerifyEmailBody) => write<Wire.Detail>('POST', '/api/auth/verify-email', body),
  resendVerification: () => write<Wire.Detail>('POST', '/api/auth/resend-verification'),
};

/** One's own account: the settings page. */
export const account = {
  changePassword: (body: Wire.PasswordChangeBody) => write<Wire.PasswordChanged>('PUT', '/api/users/me/password', body),
  changeEmail: (body: Wire.EmailChangeBody) => write<Wire.EmailChanged>('PUT', '/api/users/me/email', body),
  exportData: () => read<Wire.AccountExport>('/api/users/me/export'),
  remove: (body: Wire.AccountDeletionBody) => write<Wire.Message>('DELETE', '/api/users/me', body),
  emailPreferences: () => read<Wire.EmailPreferences>('/api/users/me/email-preferences'),
  unsubscribeQuestion: (token: string) => read<{ kinds: MailKind[] }>(`/api/unsubscribe?token=${encodeURIComponent(token)}`),
  unsubscribe: (token: string) => write<Wire.Detail>('POST', `/unsubscribe?token=${encodeURIComponent(token)}`),
  setEmailPreferences: (body: Partial<Wire.EmailPreferences>) => write<Wire.EmailPreferences>('PUT', '/api/users/me/email-preferences', body),
  twoFactorSetup: (body: { password: string }) => write<Wire.TotpSetup>('POST', '/api/users/me/two-factor/setup', body),
  twoFactorOn: (body: { code: string }) => write<Wire.TwoFactorEnabled>('POST', '/api/users/me/two-factor', body),
  twoFactorOff: (body: Wire.TwoFactorOffBody) => write<Wire.Detail & { user: Wire.PrivateUser }>('DELETE', '/api/users/me/two-factor', body),
};

export const users = {
  me: () => read<Wire.PrivateUser>('/api/users/me'),
  myStats: () => read<Wire.MyStats>('/api/users/me/stats'),
  updateMe: (fields: Wire.ProfileFormBody) => upload<Wire.PrivateUser>('PUT', '/api/users/me', fields),
  byUsername: (username: string) => read<Wire.PublicUser>(`/api/users/by-username/${segment(username)}`),
  one: (id: number) => read<Wire.PublicUser>(`/api/users/${id}`),
  mojo: (id: number, query: Wire.PageQuery) => read<Wire.MojoLedgerPage>(`/api/users/${id}/mojo`, query),
};

export const follows = {
  follow: (userId: number) => write<Wire.FollowResult>('POST', `/api/follow/${userId}`),
  unfollow: (userId: number) => write<Wire.FollowResult>('DELETE', `/api/follow/${userId}`),
  followers: (userId: number, query: Wire.PageQuery) => read<Wire.FollowerList>(`/api/users/${userId}/followers`, query),
  following: (userId: number, query: Wire.PageQuery) => read<Wire.FollowingList>(`/api/users/${userId}/following`, query),
  /** Who follows them from the fediverse, newest first. */
  remoteFollowers: (userId: number, query: Wire.PageQuery) =>
    read<RemoteFollowerList>(`/api/users/${userId}/remote-followers`, query),
};

/** What one reader muted (DESIGN.md, Mutes). */
export const mutes = {
  list: () => read<Mutes>('/api/users/me/mutes'),
  muteUser: (userId: number) => write<Wire.UserMuteResult>('PUT', `/api/users/me/mutes/users/${userId}`),
  unmuteUser: (userId: number) => write<Wire.UserMuteResult>('DELETE', `/api/users/me/mutes/users/${userId}`),
  muteHashtag: (tag: string) => write<Wire.HashtagMuteResult>('PUT', `/api/users/me/mutes/hashtags/${segment(tag)}`),
  unmuteHashtag: (tag: string) => write<Wire.HashtagMuteResult>('DELETE', `/api/users/me/mutes/hashtags/${segment(tag)}`),
  /** A fediverse account, by its handle: 'user@server' (a leading @ is dropped). */
  muteRemote: (handle: string) => write<RemoteMuteResult>('PUT', `/api/users/me/mutes/remote/${segment(handle.replace(/^@/, ''))}`),
  unmuteRemote: (handle: string) => write<RemoteMuteResult>('DELETE', `/api/users/me/mutes/remote/${segment(handle.replace(/^@/, ''))}`),
};

export const posts = {
  list: (query: Wire.PostListQuery = {}) => read<Wire.PostList>('/api/posts', query),
  byAuthor: (authorId: number, query: Wire.AuthorPostsQuery, signal?: AbortSignal) =>
    read<Wire.PostList>(`/api/users/${authorId}/posts`, query, signal),
  /** `id` as the address bar has it: the server answers 404 for text that is not an id. */
  one: (id: number | string) => read<Wire.Post>(`/api/posts/${segment(id)}`),
  /** Its place on The Pulse, explained; 404 when it has none. */
  rank: (id: number | string) => read<Wire.PostRank>(`/api/posts/${segment(id)}/rank`),
  create: (fields: Wire.ArticleFormBody) => upload<Wire.Post>('POST', '/api/posts', fields),
  update: (id: number, fields: Wire.ArticleFormBody) => upload<Wire.Post>('PUT', `/api/posts/${id}`, fields),
  /** A draft published as stored, or with the editor's form. */
  publish: (id: number, fields?: Wire.ArticleFormBody) =>
    (fields ? upload<Wire.Post>('POST', `/api/posts/${id}/publish`, fields) : write<Wire.Post>('POST', `/api/posts/${id}/publish`)),
  remove: (id: number) => write<Wire.Message>('DELETE', `/api/posts/${id}`),
  toggleArchive: (id: number) => write<Wire.ArchiveResult>('PUT', `/api/posts/${id}/archive`),
};

export const ratings = {
  rate: (postId: number, rating: number) =>
    write<Wire.Post>('POST', `/api/posts/${postId}/rate`, { post_id: postId, rating } satisfies Wire.RatingBody),
  mine: (postId: number) => read<Wire.ReaderRating>(`/api/posts/${postId}/rating`),
};

export const comments = {
  /** Comments from the fediverse among them (`remote_author`). */
  list: (postId: number) => read<Comment[]>(`/api/posts/${postId}/comments`),
  add: (postId: number, content: string) =>
    write<Wire.Comment>('POST', `/api/posts/${postId}/comments`, { content } satisfies Wire.CommentBody),
  edit: (id: number, content: string) =>
    write<Wire.Comment>('PUT', `/api/comments/${id}`, { content } satisfies Wire.CommentBody),
  /** An admin removing someone else's comment gives a reason (the author reads it). */
  remove: (id: number, reason?: string) => write<Wire.Message>('DELETE', withQuery(`/api/comments/${id}`, { reason } satisfies Wire.CommentDeleteQuery)),
};

export const discovery = {
  frontpage: () => read<Wire.PostFeed>('/api/frontpage'),
  ranks: (query: Wire.RanksQuery = {}) => read<Wire.RankedFeed>('/api/ranks', query),
  hashtags: (query: Wire.HashtagsQuery = {}) => read<Wire.HashtagStat[]>('/api/hashtags', query),
  authors: (query: Wire.AuthorsQuery) => read<Wire.AuthorList>('/api/authors', query),
};

export const search = {
  posts: (query: Wire.SearchQuery) => read<Wire.SearchPage>('/api/search', query),
};

/** Markdown as the server would store it (DESIGN.md, Writing): the editor's Preview tab. */
export const writing = {
  preview: (content: string) => write<Wire.Preview>('POST', '/api/preview', { content } satisfies Wire.PreviewBody),
};

export const reports = {
  create: (body: Wire.ReportBody) => write<Wire.Report>('POST', '/api/reports', body),
};

export const moderation = {
  log: (query: Wire.PageQuery) => read<Wire.ModerationLog>('/api/moderation', query),
};

export const notifications = {
  list: (query: Wire.NotificationsQuery, signal?: AbortSignal) =>
    read<Wire.NotificationPage>('/api/notifications', query, signal),
  markRead: (id: number) => write<Wire.MarkReadResult>('POST', `/api/notifications/${id}/mark-read`),
};

export const admin = {
  stats: () => read<Wire.AdminStats>('/api/admin/stats'),
  users: (query: Wire.AdminUsersQuery) => read<Wire.AdminUserList>('/api/admin/users', query),
  bannedUsers: (query: Wire.PageQuery) => read<Wire.BannedUserList>('/api/admin/banned-users', query),
  posts: (query: Wire.AdminPostsQuery) => read<Wire.PostList>('/api/admin/posts', query),
  changeLevel: (body: Wire.LevelChangeBody) => write<Wire.AdminUserChange>('POST', '/api/admin/update-user-level', body),
  ban: (body: Wire.BanBody) => write<Wire.AdminUserChange>('POST', '/api/admin/ban-user', body),
  unban: (userId: number) => write<Wire.AdminUserChange>('POST', `/api/admin/unban-user/${userId}`),
  notify: (body: Wire.NotificationBody) => write<Wire.Message>('POST', '/api/admin/send-notification', body),
  deletePost: (id: number, reason: string) => write<Wire.Message>('DELETE', withQuery(`/api/admin/delete-post/${id}`, { reason })),
  reports: (query: Wire.AdminReportsQuery) => read<Wire.ReportGroupPage>('/api/admin/reports', query),
  dismissReports: (type: Wire.ReportTargetType, id: number) => write<Wire.DismissResult>('POST', `/api/admin/reports/${type}/${id}/dismiss`),
};

/** Who may join: the admins' Pending tab and invitations (server/registration/). */
export const registration = {
  pending: (query: Wire.PageQuery) => read<Wire.PendingPage>('/api/admin/pending', query),
  approve: (id: number) => write<Wire.Detail>('POST', `/api/admin/pending/${id}/approve`),
  reject: (id: number, body: Wire.RejectBody) => write<Wire.Detail>('POST', `/api/admin/pending/${id}/reject`, body),
  invites: () => read<Wire.InviteList>('/api/invites'),
  invite: (body: Wire.InviteBody) => write<Wire.Invite>('POST', '/api/invites', body),
  revokeInvite: (code: string) => write<Wire.Detail>('DELETE', `/api/invites/${segment(code)}`),
};

export const system = {
  config: () => read<Wire.SiteConfig>('/api/config'),
};

/** The site's settings and its four pages (DESIGN.md, Running a community). */
export const site = {
  info: () => read<Wire.SiteInfo>('/api/site'),
  page: (page: Wire.SitePage) => read<Wire.SitePageView>(`/api/site/pages/${page}`),
  settings: () => read<Wire.AdminSiteSettings>('/api/admin/site'),
  save: (body: Wire.SiteChangeBody) => write<Wire.AdminSiteSettings>('PUT', '/api/admin/site', body),
};

/** The fediverse's moderation: the admin's Fediverse tab and blocks, only while federation is on. */
export const federation = {
  overview: (query: Wire.FederationOverviewQuery = {}) => read<Wire.FederationOverview>('/api/admin/federation', query),
  blocks: (query: Wire.PageQuery = {}) => read<Wire.BlockList>('/api/admin/federation/blocks', query),
  block: (target: string, body: Wire.BlockBody = {}) => write<Wire.BlockResult>('PUT', `/api/admin/federation/blocks/${segment(target)}`, body),
  unblock: (target: string) => write<Wire.Message>('DELETE', `/api/admin/federation/blocks/${segment(target)}`),
};

/** Every endpoint: api.ts sends each one as `api.<group>.<name>(…)`. */
export const endpoints = {
  auth, account, users, follows, mutes, posts, ratings, comments, writing, discovery, search, reports, moderation, notifications, admin, system,
  site,
  registration,
  federation,
};

// Paths whose 401 must not sign the user out (SPEC §8): public reads, where a stale token should
// just fail that call, and the sign-in calls themselves, whose 401 means a wrong password.
// An entry ending in '/' (/api/users/) names the same prefix as without it.
const NO_REDIRECT_ON_401 = [
  '/api/posts', '/api/users/', '/api/auth/login', '/api/auth/register', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/health',
];

/** True when a 401 from this request path removes the token and goes to /login (SPEC §8). */
export function redirectsOn401(requestPath: string): boolean {
  return !NO_REDIRECT_ON_401.some((entry) => {
    const base = entry.endsWith('/') ? entry.slice(0, -1) : entry;
    return requestPath === base || requestPath.startsWith(`${base}/`) || requestPath.startsWith(`${base}?`);
  });
}
