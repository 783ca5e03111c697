// Bulk generation of demo data through Kysely: the rows are made in a fixed order from the seeded
// generator, then written as multi-row inserts (batches.ts). Ids are the ones the database assigns,
// read back with RETURNING; counters are left at zero here and computed afterwards (counters.ts).
import type { Insertable } from 'kysely';
import { indexPosts } from '../../server/search-index/search-index.service.ts';
import type { CommentsTable, DB, NotificationsTable, PostsTable } from '../../server/schema.ts';
import { idsInRowOrder, inBatches, inChunks, type Progress } from './batches.ts';
import { HASHTAGS, bio, comment, content, pick, title, username, type Random } from './corpus.ts';
import type { ImagePlacements } from './images.ts';
import { parseText, writeParsed } from '../../server/markdown/markdown.render.ts';
import { readingMinutes } from '../../shared/reading.ts';

export type { Progress } from './batches.ts';

export interface SeedPlan {
  users: number;
  posts: number;
  ratings: number;
  comments: number;
  follows: number;
  days: number;
  imageRatio: number;
}

const DAY_MS = 86_400_000;

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

/** A seeded text as the server would store it: its mentions name nobody (no user is looked up). */
const renderSeeded = (text: string) => writeParsed(parseText(text), [], 'http://localhost');

// Users and posts are numbered by index while generating (user 0 is the admin); `userIds` and
// `postIds` hold the ids the database gave them.
export async function generate(
  db: DB, rnd: Random, plan: SeedPlan, passwordHash: string,
  images: Pick<ImagePlacements, 'pool' | 'place'>, progress: Progress,
): Promise<void> {
  const now = Date.now();
  const start = now - plan.days * DAY_MS;
  // Users join in the first tenth of the period, so every article is younger than its author.
  const userTimes = Array.from({ length: plan.users }, () => start + rnd() * plan.days * DAY_MS * 0.1).sort((a, b) => a - b);
  const usernames: string[] = [];
  const userIds: number[] = [];
  await inBatches(db, 'users', plan.users, progress, (i) => {
    const name = i === 0 ? 'admin' : username(rnd, i);
    usernames.push(name);
    return {
      username: name, username_key: name.toLowerCase(), email: `${name.toLowerCase()}@beatnik.example`,
      password_hash: passwordHash, bio: bio(rnd), level: i === 0 ? 'admin' as const : 'user' as const,
      created_at: iso(userTimes[i]!), last_login: rnd() < 0.7 ? iso(now - rnd() * 30 * DAY_MS) : null,
    };
  }, async (trx, rows) => {
    userIds.push(...await inChunks(rows, async (chunk) =>
      idsInRowOrder(await trx.insertInto('users').values(chunk).returning('id').execute())));
  });

  const postTimes = Array.from({ length: plan.posts }, () => start + plan.days * DAY_MS * (0.1 + 0.9 * rnd())).sort((a, b) => a - b);
  const postTime = (postIndex: number) => postTimes[postIndex]!;
  const prolificAuthor = popularitySampler(rnd, plan.users);
  const authorOf = new Int32Array(plan.posts);
  const titles: string[] = [];
  const postIds: number[] = [];
  await inBatches(db, 'posts', plan.posts, progress, (i) => {
    const author = prolificAuthor();
    authorOf[i] = author;
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(rnd, HASHTAGS)))];
    const image = images.pool.length > 0 && rnd() < plan.imageRatio ? images.place(pick(rnd, images.pool)) : null;
    const at = iso(postTime(i));
    const text = content(rnd);
    const rendered = renderSeeded(text);
    const post: Insertable<PostsTable> = {
      author_id: userIds[author]!, title: title(rnd), content: text, content_html: rendered.html,
      reading_minutes: readingMinutes(rendered.text), image, hashtags: JSON.stringify(tags),
      archived: rnd() < 0.02 ? 1 : 0, created_at: at, updated_at: at,
    };
    titles.push(post.title);
    return { post, tags };
  }, async (trx, rows) => {
    const ids = await inChunks(rows, async (chunk) =>
      idsInRowOrder(await trx.insertInto('posts').values(chunk.map((row) => row.post)).returning('id').execute()));
    postIds.push(...ids);
    const tags = rows.flatMap((row, k) => row.tags.map((tag) => ({ tag, post_id: ids[k]! })));
    await inChunks(tags, (chunk) => trx.insertInto('post_hashtags').values(chunk).execute());
    await indexPosts(trx, ids);
  });

  if (plan.posts === 0 || plan.users < 2) return;
  const popularPost = popularitySampler(rnd, plan.posts);
  const quality = Float32Array.from({ length: plan.posts }, () => 1.5 + rnd() * 3.3);
  const reader = (author: number) => {
    const user = Math.floor(rnd() * plan.users);
    return user === author ? (user + 1) % plan.users : user;
  };
  const after = (postIndex: number) => iso(postTime(postIndex) + rnd() * (now - postTime(postIndex)));

  await inBatches(db, 'ratings', plan.ratings, progress, () => {
    const p = popularPost();
    const rating = Math.max(1, Math.min(5, Math.round(quality[p]! + (rnd() - 0.5) * 2)));
    const at = after(p);
    return { post_id: postIds[p]!, user_id: userIds[reader(authorOf[p]!)]!, rating, created_at: at, updated_at: at };
  }, async (trx, rows) => {
    // A reader drawn twice for one article keeps the first rating, as the site allows one.
    await inChunks(rows, (chunk) => trx.insertInto('ratings').values(chunk).onConflict((oc) => oc.doNothing()).execute());
  });

  await inBatches(db, 'comments', plan.comments, progress, () => {
    const p = popularPost();
    const author = authorOf[p]!;
    const by = rnd() < 0.1 ? author : reader(author);
    const at = after(p);
    const text = comment(rnd);
    const row: Insertable<CommentsTable> = {
      post_id: postIds[p]!, author_id: userIds[by]!, content: text, content_html: renderSeeded(text).html, created_at: at, updated_at: at,
    };
    // Notify authors of a share of comments, the recent ones unread.
    const notice: Insertable<NotificationsTable> | undefined = by !== author && rnd() < 0.05 ? {
      user_id: userIds[author]!, type: 'other', subject: 'New comment',
      message: `${usernames[by]} commented on "${titles[p]}"`, read: Date.parse(at) > now - 7 * DAY_MS ? 0 : 1,
      created_by_id: userIds[by]!, created_by: usernames[by]!, post_id: postIds[p]!, post_title: titles[p]!, created_at: at,
    } : undefined;
    return { row, notice };
  }, async (trx, rows) => {
    await inChunks(rows, (chunk) => trx.insertInto('comments').values(chunk.map((c) => c.row)).execute());
    const notices = rows.flatMap((c) => (c.notice ? [c.notice] : []));
    await inChunks(notices, (chunk) => trx.insertInto('notifications').values(chunk).execute());
  });

  const popularUser = popularitySampler(rnd, plan.users);
  await inBatches(db, 'follows', plan.follows, progress, () => {
    const followee = popularUser();
    const follower = reader(followee);
    return { follower_id: userIds[follower]!, followee_id: userIds[followee]!, created_at: iso(start + rnd() * (now - start)) };
  }, async (trx, rows) => {
    // Drawing the same pair twice keeps one follow.
    await inChunks(rows, (chunk) => trx.insertInto('follows').values(chunk).onConflict((oc) => oc.doNothing()).execute());
  });
}
