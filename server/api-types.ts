// The API on the wire, as types only: what each endpoint the client calls takes (query, JSON body,
// multipart fields) and answers. The client imports these (client/endpoints.ts, client/types.ts)
// with `import type`, so no server code reaches the bundle. An answer a service builds is that
// service's return type, so a change there fails the client's typecheck where it matters; an
// answer a route assembles itself is declared below under the route's name (docs/api.md has the
// prose). No runtime code lives here.
import type { AccountExport } from './account/account.export.ts';
import type { changeEmail, changePassword } from './account/account.service.ts';
import type { adminStats, changeUserLevel, listBanned, listUsers } from './admin/admin.service.ts';
import type { Comment, RemoteAuthor } from './comments/comments.view.ts';
import type { blockTarget, listBlockPage } from './federation/federation.blocks.ts';
import type { AuthorSort, HashtagStat, RankedFeed } from './discovery/discovery.service.ts';
import type { FollowListItem, FollowResult, RemoteFollower } from './follows/follows.service.ts';
import type { ModerationLog } from './moderation/moderation.service.ts';
import type { ModerationEntry } from './moderation/moderation.view.ts';
import type { NotificationPage } from './notifications/notifications.service.ts';
import type { Notification } from './notifications/notifications.view.ts';
import type { TimePeriod } from './posts/posts.input.ts';
import type { PostSort, RankCriteria } from './posts/posts.service.ts';
import type { toggleArchive } from './posts/posts.write.service.ts';
import type { PostRank } from './ranks/ranks.service.ts';
import type { readerRating } from './ratings/ratings.service.ts';
import type { dismissReports, ReportGroupPage } from './reports/reports.service.ts';
import type { Report, ReportGroup } from './reports/reports.view.ts';
import type { Post } from './posts/posts.view.ts';
import type { PostStatus, ReportReason, ReportResolution, ReportTargetType, UserLevel } from './schema.ts';
import type { SearchPage, SearchResult, SnippetSegment } from './search/search.service.ts';
import type { MyStats } from './users/users.stats.ts';
import type { changeHashtagMute, changeRemoteMute, changeUserMute, MutedRemoteAuthor, Mutes } from './mutes/mutes.service.ts';
import type { PrivateUser, PublicUser } from './users/users.view.ts';
import type { MojoEvent, MojoLedgerPage } from './users/mojo-ledger.view.ts';
import type { RegistrationMode, SitePage } from '../shared/site-settings.ts';

export type {
  AuthorSort, Comment, FollowListItem, FollowResult, HashtagStat, ModerationEntry, ModerationLog, MyStats, Notification,
  NotificationPage, Post, PostRank, PostSort, PostStatus, PrivateUser, PublicUser, RankCriteria, RankedFeed, Report, ReportGroup, ReportGroupPage,
  ReportReason, ReportResolution, ReportTargetType, SearchPage, SearchResult, SnippetSegment, TimePeriod, UserLevel,
  MojoEvent, MojoLedgerPage, MutedRemoteAuthor, RemoteAuthor, RemoteFollower,
};
export type { BannedUser } from './admin/admin.service.ts';
export type { EmailPreferences } from './mail-notices/mail-notices.service.ts';
export type { AccountExport, Mutes };
export type { AdminSiteSettings, SiteInfo, SitePageView } from './site/site.view.ts';
export type { RegistrationMode, SitePage };
export type { AdminRemoteFollower, FederationDelivery, FederationFailure, FederationOverview } from './federation/federation.admin.ts';
export type { Block, BlockRemovals } from './federation/federation.blocks.ts';

/** GET /api/admin/federation: each list's own skip, one limit for the three. */
export interface FederationOverviewQuery {
  followers_skip?: number;
  deliveries_skip?: number;
  failures_skip?: number;
  limit?: number;
}

/** PUT /api/admin/federation/blocks/:target */
export interface BlockBody {
  reason?: string;
}

/** PUT /api/admin/federation/blocks/:target: what was blocked and what the block took away. */
export type BlockResult = Awaited<ReturnType<typeof blockTarget>>;

/** GET /api/admin/federation/blocks */
export type BlockList = Awaited<ReturnType<typeof listBlockPage>>;

/** PUT /api/admin/site: any of the settings; a page's '' takes it down. */
export interface SiteChangeBody {
  name?: string;
  tagline?: string;
  description?: string;
  contact_email?: string;
  registration?: RegistrationMode;
  pages?: Partial<Record<SitePage, string>>;
}

/** PUT|DELETE /api/users/me/mutes/users/:id. */
export type UserMuteResult = Awaited<ReturnType<typeof changeUserMute>>;
/** PUT|DELETE /api/users/me/mutes/remote/:handle. */
export type RemoteMuteResult = Awaited<ReturnType<typeof changeRemoteMute>>;
/** PUT|DELETE /api/users/me/mutes/hashtags/:tag: the tag as it was stored. */
export type HashtagMuteResult = Awaited<ReturnType<typeof changeHashtagMute>>;

// ---- Answers ----

/** Every answer that only says what was done (deletions). */
export interface Message {
  message: string;
}

/** An answer that is a sentence to show (DESIGN.md, Mail: the forgotten-password answers). */
export interface Detail {
  detail: string;
}

/** GET /api/config: what the client needs to know of the server's settings. */
export interface SiteConfig {
  signin_client_id: string;
  /** Whether mail is on: the mail features (a forgotten password…) show only then. */
  mail: boolean;
}

/** POST /api/auth/forgot-password */
export interface ForgotPasswordBody {
  email: string;
}

/** POST /api/auth/reset-password */
export interface VerifyEmailBody {
  token: string;
}

export interface ResetPasswordBody {
  token: string;
  password: string;
  confirm_password?: string;
}

/** GET /api/posts, GET /api/users/:id/posts, GET /api/admin/posts. */
export interface PostList {
  posts: Post[];
  total: number;
}

/** GET /api/frontpage (with `excerpt`); GET /api/ranks is a RankedFeed (with the refresh times). */
export interface PostFeed {
  posts: Post[];
}

/** PUT /api/posts/:id/archive. */
export type ArchiveResult = Awaited<ReturnType<typeof toggleArchive>>;

/** A Voices card: a public user with the average rating their articles received. */
export interface AuthorCard extends PublicUser {
  average_rating: number;
}

/** GET /api/authors. */
export interface AuthorList {
  authors: AuthorCard[];
  total: number;
}

/** POST /api/auth/login, and POST /api/auth/login/2fa. */
export interface LoginResponse {
  access_token: string;
  token_type: 'bearer';
  user: PrivateUser;
}

/** POST /api/auth/login with two-factor sign-in on: no token until a code completes it (login/2fa). */
export interface TwoFactorChallenge {
  two_factor_required: true;
  challenge: string;
}

/** POST /api/users/me/two-factor/setup: what the authenticator app is given. */
export type { TotpSetup } from './auth/two-factor.codes.ts';
/** POST /api/users/me/two-factor: on, and the recovery codes, shown once. */
export type { TwoFactorEnabled } from './auth/two-factor.service.ts';

/** PUT /api/users/me/password: this session's new token (every earlier one has ended). */
export type PasswordChanged = Awaited<ReturnType<typeof changePassword>>;

/** PUT /api/users/me/email: what was done, and the user now. */
export type EmailChanged = Awaited<ReturnType<typeof changeEmail>>;

/** GET /api/posts/:id/rating: the signed-in reader's own rating of the article, 0 when none. */
export type ReaderRating = Awaited<ReturnType<typeof readerRating>>;

/** GET /api/users/:id/followers. */
export interface FollowerList {
  followers: FollowListItem[];
  total: number;
}

/** GET /api/users/:id/remote-followers: followers on other servers, newest first. */
export interface RemoteFollowerList {
  remote_followers: RemoteFollower[];
  total: number;
}

/** GET /api/users/:id/following. */
export interface FollowingList {
  following: FollowListItem[];
  total: number;
}

/** POST /api/notifications/:id/mark-read. */
export interface MarkReadResult {
  message: string;
  unread_count: number;
}

/** GET /api/admin/users. */
export type AdminUserList = Awaited<ReturnType<typeof listUsers>>;
/** GET /api/admin/stats. */
export type AdminStats = Awaited<ReturnType<typeof adminStats>>;
/** GET /api/admin/banned-users. */
export type BannedUserList = Awaited<ReturnType<typeof listBanned>>;
/** POST /api/admin/update-user-level, ban-user and unban-user/:id: what was done, and the user now. */
export type AdminUserChange = Awaited<ReturnType<typeof changeUserLevel>>;
/** POST /api/admin/reports/:type/:id/dismiss. */
export type DismissResult = Awaited<ReturnType<typeof dismissReports>>;

// ---- Query parameters (an absent or empty value means the server's default) ----

/** skip ≥ 0, limit ≥ 1 (docs/api.md, Paging). */
export interface PageQuery {
  skip?: number;
  limit?: number;
}

/** GET /api/posts. */
export interface PostListQuery extends PageQuery {
  hashtag?: string;
}

/** GET /api/users/:id/posts; `archived` and `status: 'draft'` for the author and admins only. */
export interface AuthorPostsQuery extends PageQuery {
  sort_by?: PostSort;
  search?: string;
  hashtag?: string;
  time_period?: TimePeriod;
  archived?: boolean;
  status?: PostStatus;
}

/** GET /api/ranks: `hashtag` matches tags containing it. */
export interface RanksQuery extends PageQuery {
  hashtag?: string;
  time_period?: TimePeriod;
  criteria?: RankCriteria;
}

/** GET /api/hashtags. */
export interface HashtagsQuery {
  search?: string;
  limit?: number;
}

/** GET /api/authors. */
export interface AuthorsQuery extends PageQuery {
  sort_by?: AuthorSort;
  search?: string;
}

/** GET /api/search: `q` as the reader typed it (any text; none or only punctuation finds nothing). */
export interface SearchQuery extends PageQuery {
  q: string;
}

/** GET /api/notifications. */
export interface NotificationsQuery extends PageQuery {
  unread_only?: boolean;
}

/** GET /api/admin/users: `level` absent means every level. */
export interface AdminUsersQuery extends PageQuery {
  level?: UserLevel;
  search?: string;
}

/** GET /api/admin/reports: open (the default) or closed. */
export interface AdminReportsQuery extends PageQuery {
  status?: 'open' | 'closed';
}

/** DELETE /api/comments/:id: an admin removing someone else's comment says why. */
export interface CommentDeleteQuery {
  reason?: string;
}

/** GET /api/admin/posts: `search` matches the title or the author. */
export interface AdminPostsQuery extends PageQuery {
  search?: string;
  status?: 'all' | 'active' | 'archived';
}

// ---- JSON bodies ----

/** POST /api/auth/login. */
export interface LoginBody {
  email: string;
  password: string;
}

/** POST /api/auth/login/2fa: the challenge and one of the two codes. */
export interface TwoFactorLoginBody {
  challenge: string;
  code?: string;
  recovery_code?: string;
}

/** DELETE /api/users/me/two-factor. */
export interface TwoFactorOffBody {
  password: string;
  code?: string;
  recovery_code?: string;
}

/** POST /api/auth/register; `invite`, a code, while registration is by invitation. */
export interface RegisterBody {
  username: string;
  email: string;
  password: string;
  confirm_password?: string;
  bio?: string;
  invite?: string;
}

/** PUT /api/users/me/password: `confirm_password`, when sent, must equal `new_password`. */
export interface PasswordChangeBody {
  current_password: string;
  new_password: string;
  confirm_password?: string;
}

/** PUT /api/users/me/email. */
export interface EmailChangeBody {
  email: string;
  password: string;
}

/** DELETE /api/users/me. */
export interface AccountDeletionBody {
  password: string;
}

/** POST /api/posts/:id/comments, PUT /api/comments/:id. */
export interface CommentBody {
  content: string;
}

/** POST /api/posts/:id/rate: `post_id`, when sent, must name the same article. */
export interface RatingBody {
  post_id?: number;
  rating: number;
}

/** POST /api/reports: `note` at most 500 characters. */
export interface ReportBody {
  target_type: ReportTargetType;
  target_id: number;
  reason: ReportReason;
  note?: string;
}

/** POST /api/admin/update-user-level. */
export interface LevelChangeBody {
  user_id: number;
  level: UserLevel;
}

/** POST /api/admin/ban-user: `ban_until` (ISO 8601) for a temporary ban. */
export interface BanBody {
  user_id: number;
  ban_type: 'temporary' | 'permanent';
  ban_reason: string;
  ban_until?: string;
}

/** POST /api/admin/send-notification. */
export interface NotificationBody {
  user_id: number;
  subject: string;
  message: string;
  notification_type: 'general';
}

// ---- Multipart forms (field by field; the hashtags travel as JSON text) ----

/**
 * POST /api/posts, PUT /api/posts/:id and POST /api/posts/:id/publish: `remove_image` drops the
 * current image on an edit; `draft` (POST /api/posts only) saves a draft.
 */
export interface ArticleFormBody {
  title: string;
  /** Markdown (DESIGN.md, Writing). */
  content: string;
  hashtags: string[];
  image?: File;
  /** The picture's alt text (≤ 200 characters); sent, it replaces the stored one. */
  image_alt?: string;
  remove_image?: boolean;
  draft?: boolean;
}

/** POST /api/preview. */
export interface PreviewBody {
  content: string;
}

/** POST /api/preview: what the server would store for the text. */
export interface Preview {
  content_html: string;
}

/** PUT /api/users/me: only the fields sent change. */
export interface ProfileFormBody {
  username?: string;
  bio?: string;
  avatar?: File;
  remove_avatar?: boolean;
}

// ---- Who may join (DESIGN.md, Registration) ----
export type { Invite } from './registration/invites.service.ts';
export type { PendingAccount, PendingPage } from './registration/pending.service.ts';

/** POST /api/auth/register: the new account, and whether it waits for approval. */
export type RegisterResponse = PrivateUser & { status: 'active' | 'pending' };

/** GET /api/invites. */
export interface InviteList {
  invites: import('./registration/invites.service.ts').Invite[];
}

/** POST /api/invites. */
export interface InviteBody {
  uses?: number;
  days?: number;
}

/** POST /api/admin/pending/:id/reject. */
export interface RejectBody {
  reason?: string;
}
