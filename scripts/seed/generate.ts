// Bulk generation of demo data straight into SQLite: prepared statements, one transaction per
// batch. Counters are left at zero here and computed afterwards (counters.ts).
import type SQLite from 'better-sqlite3';
import { HASHTAGS, bio, comment, content, pick, title, username, type Random } from './corpus.ts';
import { placeImage } from './images.ts';

export interface SeedPlan {
  users: number;
  posts: number;
  ratings: number;
  comments: number;
  follows: number;
  days: number;
  imageRatio: number;
}

export type Progress = (label: string, done: number, total: number) => void;

const BATCH = 5_000;
const DAY_MS = 86_400_000;

/** Runs `make(i)` for i in [0, total) in transactions of BATCH rows, reporting progress. */
function inBatches(sqlite: SQLite.Database, label: string, total: number, progress: Progress, make: (i: number) => void): void {
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) make(i);
  });
  for (let from = 0; from < total; from += BATCH) {
    batch(from, Math.min(total, from + BATCH));
    progress(label, Math.min(total, from + BATCH), total);
  }
}

/** Heavy-tailed weights: a few popular items, many quiet ones. Returns a sampler of indexes. */
function popularitySampler(rnd: Random, count: number): () => number {
  const cumulative = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < count; i += 1) {
    sum += (-Math.log(1 - rnd())) ** 2;
    cumulative[i] = sum;
  }
  return () => {
    const target = rnd() * sum;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function generate(
  sqlite: SQLite.Database, rnd: Random, plan: SeedPlan, passwordHash: string,
  images: { uploadsDir: string; pool: string[] }, progress: Progress,
): void {
  const now = Date.now();
  const start = now - plan.days * DAY_MS;
  // Users join in the first tenth of the period, so every article is younger than its author.
  const userTimes = Array.from({ length: plan.users }, () => start + rnd() * plan.days * DAY_MS * 0.1).sort((a, b) => a - b);
  const insertUser = sqlite.prepare(`INSERT INTO users (username, username_key, email, password_hash, bio, level, created_at, last_login)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  inBatches(sqlite, 'users', plan.users, progress, (i) => {
    const name = i === 0 ? 'admin' : username(rnd, i);
    insertUser.run(name, name.toLowerCase(), `${name.toLowerCase()}@beatnik.example`, passwordHash, bio(rnd),
      i === 0 ? 'admin' : 'user', iso(userTimes[i]!), rnd() < 0.7 ? iso(now - rnd() * 30 * DAY_MS) : null);
  });

  const postTimes = Array.from({ length: plan.posts }, () => start + plan.days * DAY_MS * (0.1 + 0.9 * rnd())).sort((a, b) => a - b);
  const postTime = (postIndex: number) => postTimes[postIndex]!;
  const prolificAuthor = popularitySampler(rnd, plan.users);
  const authorOf = new Int32Array(plan.posts);
  const insertPost = sqlite.prepare(`INSERT INTO posts (author_id, title, content, image, hashtags, archived, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertTag = sqlite.prepare('INSERT INTO post_hashtags (tag, post_id) VALUES (?, ?)');
  inBatches(sqlite, 'posts', plan.posts, progress, (i) => {
    const authorId = prolificAuthor() + 1;
    authorOf[i] = authorId;
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(rnd, HASHTAGS)))];
    const image = images.pool.length > 0 && rnd() < plan.imageRatio ? placeImage(images.uploadsDir, pick(rnd, images.pool)) : null;
    const at = iso(postTime(i));
    insertPost.run(authorId, title(rnd), content(rnd), image, JSON.stringify(tags), rnd() < 0.02 ? 1 : 0, at, at);
    for (const tag of tags) insertTag.run(tag, i + 1);
  });

  if (plan.posts === 0 || plan.users < 2) return;
  const popularPost = popularitySampler(rnd, plan.posts);
  const quality = Float32Array.from({ length: plan.posts }, () => 1.5 + rnd() * 3.3);
  const reader = (authorId: number) => {
    const id = 1 + Math.floor(rnd() * plan.users);
    return id === authorId ? (id % plan.users) + 1 : id;
  };
  const after = (postIndex: number) => iso(postTime(postIndex) + rnd() * (now - postTime(postIndex)));

  const insertRating = sqlite.prepare(`INSERT OR IGNORE INTO ratings (post_id, user_id, rating, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`);
  inBatches(sqlite, 'ratings', plan.ratings, progress, () => {
    const p = popularPost();
    const value = Math.max(1, Math.min(5, Math.round(quality[p]! + (rnd() - 0.5) * 2)));
    const at = after(p);
    insertRating.run(p + 1, reader(authorOf[p]!), value, at, at);
  });

  const insertComment = sqlite.prepare('INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
  const insertNotice = sqlite.prepare(`INSERT INTO notifications (user_id, type, subject, message, read, created_by_id, created_by, post_id, post_title, created_at)
    VALUES (?, 'other', 'New comment', (SELECT username FROM users WHERE id = ?) || ' commented on "' || ? || '"',
      ?, ?, (SELECT username FROM users WHERE id = ?), ?, ?, ?)`);
  const postTitle = sqlite.prepare('SELECT title FROM posts WHERE id = ?').pluck();
  inBatches(sqlite, 'comments', plan.comments, progress, () => {
    const p = popularPost();
    const by = rnd() < 0.1 ? authorOf[p]! : reader(authorOf[p]!);
    const at = after(p);
    insertComment.run(p + 1, by, comment(rnd), at, at);
    // Notify authors of a share of comments, the recent ones unread.
    if (by !== authorOf[p] && rnd() < 0.05) {
      const recent = Date.parse(at) > now - 7 * DAY_MS;
      const titleText = postTitle.get(p + 1);
      insertNotice.run(authorOf[p], by, titleText, recent ? 0 : 1, by, by, p + 1, titleText, at);
    }
  });

  const popularUser = popularitySampler(rnd, plan.users);
  const insertFollow = sqlite.prepare('INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)');
  inBatches(sqlite, 'follows', plan.follows, progress, () => {
    const followee = popularUser() + 1;
    const follower = reader(followee);
    insertFollow.run(follower, followee, iso(start + rnd() * (now - start)));
  });
}
