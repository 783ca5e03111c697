// The typed shape of the database for Kysely; mirrors migrations/.
import type { Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { MojoCause } from '../shared/mojo.ts';

/** Kysely over Beatnik's tables: the database itself or a transaction, the same type. */
export type DB = Kysely<Database>;

export type UserLevel = 'user' | 'admin';
export type NotificationType = 'post_deleted' | 'ban_notice' | 'general' | 'other' | 'comment_deleted' | 'report_closed' | 'mention';
export type ReportTargetType = 'post' | 'comment';
export type ReportReason = 'spam' | 'harassment' | 'off-topic' | 'other';
/** How a report was closed: an admin dismissed it, deleted its content or banned its author; or
 * the content went otherwise (its author deleted it: migrations/0009's triggers). */
export type ReportResolution = 'dismissed' | 'deleted' | 'banned' | 'removed';
/** A draft is its author's alone until published (migrations/0007_drafts.ts). */
export type PostStatus = 'published' | 'draft';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  email: string;
  password_hash: string;
  bio: Generated<string>;
  avatar: string | null;
  level: Generated<UserLevel>;
  mojo: Generated<number>;
  posts_count: Generated<number>;
  /** Followers on other servers (remote_followers), kept in their writes' transaction. */
  remote_followers_count: Generated<number>;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  received_visits: Generated<number>;
  received_ratings_count: Generated<number>;
  received_ratings_sum: Generated<number>;
  received_comments_count: Generated<number>;
  received_average_rating: Generated<number>;
  token_version: Generated<number>;
  ban_permanent: Generated<number>;
  ban_until: string | null;
  ban_reason: string | null;
  banned_at: string | null;
  banned_by: number | null;
  created_at: string;
  last_login: string | null;
  /** 1 once the address answered its link; accounts from before mail, and the CLI's, are 1. */
  email_verified: Generated<number>;
  /** Settings → Email (migrations/0017_mail_accounts.ts). */
  mail_comments: Generated<number>;
  mail_followers: Generated<number>;
  mail_mentions: Generated<number>;
  mail_digest: Generated<DigestChoice>;
  /** Acts noted for the next notification mail since the last was written (server/mail-notices/). */
  mail_pending: Generated<number>;
  mail_last_at: string | null;
  /** 1 once two-factor sign-in is on (migrations/0020_two_factor.ts); the secret is in two_factor. */
  two_factor_enabled: Generated<number>;
  /** 1 while the account waits for an admin's approval (migrations/0019_registration.ts). */
  pending: Generated<number>;
}

export type DigestChoice = 'off' | 'weekly';

export interface PostsTable {
  id: Generated<number>;
  author_id: number;
  title: string;
  /** The Markdown source (DESIGN.md, Writing); content_html is its rendering, made when written. */
  content: string;
  content_html: string;
  image: string | null;
  /** The picture's alt text; '' for none (the title stands in). */
  image_alt: Generated<string>;
  hashtags: string;
  archived: Generated<number>;
  status: Generated<PostStatus>;
  visits: Generated<number>;
  ratings_count: Generated<number>;
  ratings_sum: Generated<number>;
  average_rating: Generated<number>;
  comments_count: Generated<number>;
  /** Likes and boosts from the fediverse (post_reactions): shown, never ranked. */
  likes_count: Generated<number>;
  boosts_count: Generated<number>;
  /** The content's words ÷ 230, at least 1 (shared/reading.ts). */
  reading_minutes: number;
  created_at: string;
  updated_at: string;
}

export interface HashtagsTable {
  tag: string;
  posts_count: Generated<number>;
}

export interface PostHashtagsTable {
  tag: string;
  post_id: number;
}

export interface RatingsTable {
  post_id: number;
  user_id: number;
  rating: number;
  created_at: string;
  updated_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  post_id: number;
  /** The local writer; null for a reply from the fediverse, written by remote_actor_id. */
  author_id: number | null;
  content: string;
  content_html: string;
  created_at: string;
  updated_at: string;
  /** The remote actor who wrote it (remote_actors), for a reply from the fediverse. */
  remote_actor_id: Generated<number | null>;
  /** The remote Note's id, which its Update and Delete name. */
  remote_uri: Generated<string | null>;
}

export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  type: NotificationType;
  subject: string;
  message: string;
  read: Generated<number>;
  created_by_id: number | null;
  created_by: string | null;
  post_id: number | null;
  post_title: string | null;
  created_at: string;
}

export interface PostVisitsTable {
  post_id: number;
  visitor: string;
  last_counted_at: string;
}

export interface PostRanksTable {
  post_id: number;
  score: number;
  computed_at: string;
  /** What the score was computed from (migration 0011); null on rows from before it. */
  visits: number | null;
  ratings_count: number | null;
  ratings_sum: number | null;
  comments_count: number | null;
}

/** The Pulse's order: every row of post_ranks again, kept by (score, post_id). */
export interface PostRankOrderTable {
  score: number;
  post_id: number;
  /** 1 = top, as of the refresh that wrote it; null for a post scored at publication since. */
  position: number | null;
}

/** One row: the last ranking refresh and the site-wide mean rating m it measured. */
export interface RankRefreshTable {
  id: number;
  refreshed_at: string | null;
  rating_mean: number;
}

/**
 * The search index's words of each active post (migrations/0006_search_index.ts): the folded
 * words of its title, and all its words — title, content, hashtags, author's name
 * (shared/search-text.ts) — written space-separated. SQLite keeps that text (FTS5 indexes it); PostgreSQL reads it into a
 * tsvector (server/sqlite/sqlite.search.ts, postgres/postgres.search.ts).
 */
export interface PostSearchTable {
  post_id: number;
  title: string;
  words: string;
}

export interface ModerationLogTable {
  id: Generated<number>;
  admin_id: number | null;
  action: string;
  target_user_id: number | null;
  post_id: number | null;
  post_title: string | null;
  reason: string | null;
  created_at: string;
  /** The removed comment (delete_comment; post_id and post_title are then its article's). */
  comment_id: number | null;
  /** A ban's end; null for a permanent one. */
  ban_until: string | null;
  /** The server or account a block or unblock names (migrations/0025_federation_blocks.ts). */
  target: string | null;
}

/** A reader's report of an article or a comment (migrations/0009_reports_moderation_log.ts). */
export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  target_type: ReportTargetType;
  target_id: number;
  target_author_id: number | null;
  reason: ReportReason;
  note: Generated<string>;
  created_at: string;
  status: Generated<'open' | 'closed'>;
  resolution: ReportResolution | null;
  closed_at: string | null;
  closed_by: number | null;
}

/**
 * One change of an author's mojo and its cause (migrations/0012_mojo_ledger.ts, 0013). delta and
 * mojo_after are in hundredths of a point (shared/mojo.ts): a user's deltas add up exactly.
 */
export interface MojoEventsTable {
  id: Generated<number>;
  user_id: number;
  at: string;
  delta: number;
  mojo_after: number;
  cause: MojoCause;
  post_id: number | null;
  actor_id: number | null;
}

/** A token ended before its expiry (POST /api/auth/logout), by its hash, until that expiry. */
export interface RevokedTokensTable {
  token_hash: string;
  expires_at: string;
}

export type JobState = 'pending' | 'running' | 'failed';

/** A piece of background work (migrations/0016_jobs.ts, server/jobs/). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** Whose runner takes it: 'main' (mail, digests, backups) or 'federation' (migrations/0027_job_queues.ts). */
  queue: Generated<string>;
  /** JSON: the handler's input. */
  payload: string;
  state: Generated<JobState>;
  run_at: string;
  locked_until: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: string;
}

/** One finished backup archive (migrations/0021_backups.ts, server/backups/). */
export interface BackupsTable {
  id: Generated<number>;
  archive: string;
  bytes: number;
  started_at: string;
  finished_at: string;
  /** 1 once the archive was copied to the S3 bucket under backups/. */
  in_s3: Generated<number>;
}

export type AccountTokenPurpose = 'reset' | 'verify';

/** A password reset's or an address check's link, by its hash (migrations/0016_jobs.ts). */
export interface AccountTokensTable {
  token_hash: string;
  user_id: number;
  purpose: AccountTokenPurpose;
  email: string;
  expires_at: string;
  created_at: string;
}

export type MailItemKind = 'comment' | 'follower' | 'mention';

/** An act to tell of in a user's next notification mail (migrations/0017_mail_accounts.ts). */
export interface MailItemsTable {
  id: Generated<number>;
  user_id: number;
  kind: MailItemKind;
  actor_id: number;
  post_id: number | null;
  comment_id: number | null;
  created_at: string;
}

/** An author a reader muted (migrations/0010_mutes.ts). */
export interface UserMutesTable {
  user_id: number;
  muted_user_id: number;
  created_at: string;
}

/** A hashtag a reader muted, as hashtags are stored (normalised). */
export interface HashtagMutesTable {
  user_id: number;
  tag: string;
  created_at: string;
}

/** The site's one row of settings (migrations/0018_site_settings.ts). */
export interface SiteSettingsTable {
  id: number;
  name: string;
  tagline: string;
  description: string;
  contact_email: string;
  /** null until an admin chooses: REGISTRATION then says which mode is in force. */
  registration: 'open' | 'approval' | 'invite' | 'closed' | null;
  updated_at: string | null;
}

/** A written page of the site: about, rules, privacy, terms (its Markdown and the HTML it renders to). */
export interface SitePagesTable {
  slug: 'about' | 'rules' | 'privacy' | 'terms';
  content: string;
  content_html: string;
  updated_at: string;
}

/** An account's TOTP secret (migrations/0020_two_factor.ts): being set up (confirmed 0), or on. */
export interface TwoFactorTable {
  user_id: number;
  /** Base32, as the authenticator app was given it. */
  secret: string;
  confirmed: Generated<number>;
  /** The last 30-second time step whose code was accepted: a code works once. */
  last_step: Generated<number>;
  created_at: string;
}

/** A single-use recovery code, as its SHA-256 (base64url). */
export interface TwoFactorRecoveryCodesTable {
  user_id: number;
  code_hash: string;
}

/** An invitation to register while registration is by invitation (migrations/0019_registration.ts). */
export interface InvitesTable {
  code: string;
  created_by: number | null;
  uses_left: number;
  expires_at: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  posts: PostsTable;
  hashtags: HashtagsTable;
  post_hashtags: PostHashtagsTable;
  ratings: RatingsTable;
  comments: CommentsTable;
  follows: FollowsTable;
  notifications: NotificationsTable;
  post_visits: PostVisitsTable;
  post_ranks: PostRanksTable;
  post_rank_order: PostRankOrderTable;
  rank_refresh: RankRefreshTable;
  moderation_log: ModerationLogTable;
  reports: ReportsTable;
  post_search: PostSearchTable;
  revoked_tokens: RevokedTokensTable;
  mojo_events: MojoEventsTable;
  user_mutes: UserMutesTable;
  hashtag_mutes: HashtagMutesTable;
  jobs: JobsTable;
  account_tokens: AccountTokensTable;
  mail_items: MailItemsTable;
  site_settings: SiteSettingsTable;
  site_pages: SitePagesTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  invites: InvitesTable;
  backups: BackupsTable;
  federation_keys: FederationKeysTable;
  remote_actors: RemoteActorsTable;
  remote_followers: RemoteFollowersTable;
  post_reactions: PostReactionsTable;
  user_remote_mutes: UserRemoteMutesTable;
  federation_blocks: FederationBlocksTable;
  federation_deliveries: FederationDeliveriesTable;
  federation_kv: FederationKvTable;
}

/** A local actor's key pairs, as JWK (migrations/0022_federation.ts). */
export interface FederationKeysTable {
  user_id: number;
  rsa_public: string;
  rsa_private: string;
  ed25519_public: string;
  ed25519_private: string;
  created_at: string;
}

/** A fediverse account Beatnik has met: a follower, a replier, a liker. */
export interface RemoteActorsTable {
  id: Generated<number>;
  uri: string;
  /** user@domain, shown as @user@domain. */
  handle: string;
  domain: string;
  name: Generated<string>;
  url: string | null;
  /** Their picture's address, as their server gives it: copied here, never shown from there. */
  avatar_url: string | null;
  /** The local copy of that picture in the image store (migrations/0026_remote_avatars.ts), or null. */
  avatar: string | null;
  inbox: string;
  shared_inbox: string | null;
  updated_at: string;
}

export interface RemoteFollowersTable {
  user_id: number;
  actor_id: number;
  follow_uri: string | null;
  created_at: string;
}

export interface PostReactionsTable {
  post_id: number;
  actor_id: number;
  kind: 'like' | 'boost';
  activity_uri: string | null;
  created_at: string;
}

export interface UserRemoteMutesTable {
  user_id: number;
  actor_id: number;
  created_at: string;
}

/** A blocked server (`example.org`) or account (`@user@example.org`). */
export interface FederationBlocksTable {
  target: string;
  created_by: number | null;
  created_at: string;
}

export interface FederationDeliveriesTable {
  id: Generated<number>;
  at: string;
  inbox: string;
  domain: string;
  activity_type: string;
  activity_id: string | null;
  ok: number;
  error: string | null;
}

/** Fedify's key–value store: a JSON key (an array of strings), a JSON value, an optional expiry. */
export interface FederationKvTable {
  key: string;
  value: string;
  expires_at: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PostRow = Selectable<PostsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type JobRow = Selectable<JobsTable>;
