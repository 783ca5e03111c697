// The whole schema of SPEC §3. Frozen once landed: a change is a new migration.
// Times are ISO 8601 UTC text (they sort as text); booleans are 0/1 integers.
import { type Kysely, sql } from 'kysely';

const statements = [
  `CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL,          -- lower-cased username: uniqueness and lookups
    email TEXT NOT NULL,                 -- stored lower-cased: the login
    password_hash TEXT NOT NULL,
    bio TEXT NOT NULL DEFAULT '',
    avatar TEXT,                         -- file name under uploads/
    level TEXT NOT NULL DEFAULT 'user' CHECK (level IN ('user', 'admin')),
    mojo REAL NOT NULL DEFAULT 0,
    posts_count INTEGER NOT NULL DEFAULT 0,         -- active (non-archived) posts
    followers_count INTEGER NOT NULL DEFAULT 0,
    following_count INTEGER NOT NULL DEFAULT 0,
    -- what the author's active posts received; mojo and the stats dashboard derive from these
    received_visits INTEGER NOT NULL DEFAULT 0,
    received_ratings_count INTEGER NOT NULL DEFAULT 0,
    received_ratings_sum INTEGER NOT NULL DEFAULT 0,
    received_comments_count INTEGER NOT NULL DEFAULT 0,
    received_average_rating REAL NOT NULL DEFAULT 0,
    token_version INTEGER NOT NULL DEFAULT 0,        -- bumped to revoke every token
    ban_permanent INTEGER NOT NULL DEFAULT 0,
    ban_until TEXT,
    ban_reason TEXT,
    banned_at TEXT,
    banned_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    last_login TEXT
  )`,
  `CREATE UNIQUE INDEX users_username_key ON users(username_key)`,
  `CREATE UNIQUE INDEX users_email ON users(email)`,
  `CREATE INDEX users_level ON users(level, id)`,
  `CREATE INDEX users_mojo ON users(mojo, id)`,
  `CREATE INDEX users_posts_count ON users(posts_count, id)`,
  `CREATE INDEX users_rating ON users(received_average_rating, id)`,
  `CREATE INDEX users_banned ON users(banned_at) WHERE banned_at IS NOT NULL`,

  `CREATE TABLE posts (
    id INTEGER PRIMARY KEY,
    author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    image TEXT,                          -- file name under uploads/
    hashtags TEXT NOT NULL DEFAULT '[]', -- JSON array for display; post_hashtags for queries
    archived INTEGER NOT NULL DEFAULT 0,
    visits INTEGER NOT NULL DEFAULT 0,
    ratings_count INTEGER NOT NULL DEFAULT 0,
    ratings_sum INTEGER NOT NULL DEFAULT 0,
    average_rating REAL NOT NULL DEFAULT 0,
    comments_count INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX posts_active_created ON posts(archived, created_at, id)`,
  `CREATE INDEX posts_created ON posts(created_at, id)`,
  `CREATE INDEX posts_author_created ON posts(author_id, archived, created_at, id)`,
  `CREATE INDEX posts_active_visits ON posts(archived, visits)`,

  `CREATE TABLE hashtags (
    tag TEXT PRIMARY KEY,
    posts_count INTEGER NOT NULL DEFAULT 0  -- active posts carrying the tag
  ) WITHOUT ROWID`,
  `CREATE INDEX hashtags_count ON hashtags(posts_count, tag)`,

  `CREATE TABLE post_hashtags (
    tag TEXT NOT NULL,
    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    PRIMARY KEY (tag, post_id)
  ) WITHOUT ROWID`,
  `CREATE INDEX post_hashtags_post ON post_hashtags(post_id)`,

  `CREATE TABLE ratings (
    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (post_id, user_id)
  ) WITHOUT ROWID`,
  `CREATE INDEX ratings_user ON ratings(user_id)`,

  `CREATE TABLE comments (
    id INTEGER PRIMARY KEY,
    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    author_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  `CREATE INDEX comments_post ON comments(post_id, created_at, id)`,
  `CREATE INDEX comments_author ON comments(author_id)`,

  `CREATE TABLE follows (
    follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (follower_id, followee_id),
    CHECK (follower_id <> followee_id)
  ) WITHOUT ROWID`,
  `CREATE INDEX follows_followee ON follows(followee_id, created_at)`,
  `CREATE INDEX follows_follower ON follows(follower_id, created_at)`,

  `CREATE TABLE notifications (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('post_deleted', 'ban_notice', 'general', 'other')),
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    read INTEGER NOT NULL DEFAULT 0,
    created_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    created_by TEXT,                     -- the actor's username when it was sent
    post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
    post_title TEXT,                     -- kept: the post may be gone
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX notifications_user ON notifications(user_id, created_at, id)`,
  `CREATE INDEX notifications_user_unread ON notifications(user_id, created_at, id) WHERE read = 0`,

  // One row per reader and post: a visit counts again only 30 minutes after the last counted one.
  `CREATE TABLE post_visits (
    post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
    visitor TEXT NOT NULL,               -- 'u:<user id>' or 'a:<anonymous client hash>'
    last_counted_at TEXT NOT NULL,
    PRIMARY KEY (post_id, visitor)
  ) WITHOUT ROWID`,
  `CREATE INDEX post_visits_time ON post_visits(last_counted_at)`,

  // Ranking scores, recomputed periodically (docs/ranking.md).
  `CREATE TABLE post_ranks (
    post_id INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
    score REAL NOT NULL,
    computed_at TEXT NOT NULL
  )`,
  `CREATE INDEX post_ranks_score ON post_ranks(score, post_id)`,

  // What admins did, with their reasons: post deletions, bans, level changes.
  `CREATE TABLE moderation_log (
    id INTEGER PRIMARY KEY,
    admin_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    action TEXT NOT NULL,
    target_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    post_id INTEGER,
    post_title TEXT,
    reason TEXT,
    created_at TEXT NOT NULL
  )`,
  `CREATE INDEX moderation_log_time ON moderation_log(created_at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'moderation_log', 'post_ranks', 'post_visits', 'notifications', 'follows', 'comments',
    'ratings', 'post_hashtags', 'hashtags', 'posts', 'users',
  ]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
