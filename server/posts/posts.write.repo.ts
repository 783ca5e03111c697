// SQL for what changes posts: the row itself, its hashtags, and what an author's removal takes.
import { sql } from 'kysely';
import type { DB, PostStatus } from '../schema.ts';

export interface NewPostValues {
  author_id: number;
  status: PostStatus;
  title: string;
  content: string;
  content_html: string;
  reading_minutes: number;
  image: string | null;
  image_alt: string;
  hashtags: string[];
  created_at: string;
}

export async function insertPost(trx: DB, values: NewPostValues): Promise<number> {
  const row = await trx.insertInto('posts')
    .values({ ...values, hashtags: JSON.stringify(values.hashtags), updated_at: values.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Changes the post; with `onlyIf`, only while its status is still that one (a draft edited as the
 * author publishes it elsewhere). False when no row changed.
 */
export async function updatePostRow(
  trx: DB, id: number,
  changes: Partial<{
    title: string; content: string; content_html: string; reading_minutes: number; image: string | null; image_alt: string;
    hashtags: string[]; archived: number; updated_at: string;
  }>,
  onlyIf?: { status: PostStatus },
): Promise<boolean> {
  const { hashtags, ...rest } = changes;
  let query = trx.updateTable('posts')
    .set({ ...rest, ...(hashtags ? { hashtags: JSON.stringify(hashtags) } : {}) })
    .where('id', '=', id);
  if (onlyIf) query = query.where('status', '=', onlyIf.status);
  return (await query.executeTakeFirst()).numUpdatedRows > 0n;
}

/**
 * Publishes a draft, dated `at`; false when the post is no draft. One conditional write: of two
 * publications at once, the second waits for the first's row lock and then finds it published.
 */
export async function publishDraftRow(trx: DB, id: number, at: string): Promise<boolean> {
  const result = await trx.updateTable('posts').set({ status: 'published', created_at: at, updated_at: at })
    .where('id', '=', id).where('status', '=', 'draft')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deletePostRow(trx: DB, id: number): Promise<void> {
  await trx.deleteFrom('posts').where('id', '=', id).execute();
}

/** Links a post to its tags (the post_hashtags table answers "posts with tag X"). */
export async function linkHashtags(trx: DB, postId: number, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await trx.insertInto('post_hashtags').values(tags.map((tag) => ({ tag, post_id: postId })))
    .onConflict((oc) => oc.doNothing()).execute();
}

export async function unlinkHashtags(trx: DB, postId: number, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  await trx.deleteFrom('post_hashtags').where('post_id', '=', postId).where('tag', 'in', tags).execute();
}

/** hashtags.posts_count counts active posts: ±1 per tag when a post appears or disappears. */
export async function adjustHashtagCounts(trx: DB, tags: string[], delta: 1 | -1): Promise<void> {
  if (tags.length === 0) return;
  if (delta > 0) {
    await trx.insertInto('hashtags').values(tags.map((tag) => ({ tag, posts_count: 1 })))
      .onConflict((oc) => oc.column('tag').doUpdateSet({ posts_count: sql`hashtags.posts_count + 1` }))
      .execute();
  } else {
    await trx.updateTable('hashtags').set({ posts_count: sql`CASE WHEN posts_count > 0 THEN posts_count - 1 ELSE 0 END` })
      .where('tag', 'in', tags).execute();
  }
}

/** Comments on a post written by someone other than its author (replies from the fediverse too): they count toward mojo. */
export async function countCommentsByOthers(trx: DB, postId: number, authorId: number): Promise<number> {
  const row = await trx.selectFrom('comments')
    .where('post_id', '=', postId).where((eb) => eb.or([eb('author_id', '!=', authorId), eb('author_id', 'is', null)]))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The names of the images of an author's posts. */
export async function listAuthorImages(trx: DB, authorId: number): Promise<string[]> {
  const rows = await trx.selectFrom('posts').select('image')
    .where('author_id', '=', authorId).where('image', 'is not', null).execute();
  return rows.map((row) => row.image!);
}

/** Takes an author's listed posts (published, active: the ones counted) out of their hashtags' counts, in one statement. */
export async function subtractAuthorHashtags(trx: DB, authorId: number): Promise<void> {
  const perTag = trx.selectFrom('post_hashtags').innerJoin('posts', 'posts.id', 'post_hashtags.post_id')
    .select((eb) => ['post_hashtags.tag', eb.fn.countAll<number>().as('n')])
    .where('posts.author_id', '=', authorId).where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .groupBy('post_hashtags.tag').as('gone');
  await trx.updateTable('hashtags').from(perTag)
    .set({ posts_count: sql`CASE WHEN hashtags.posts_count > gone.n THEN hashtags.posts_count - gone.n ELSE 0 END` })
    .whereRef('gone.tag', '=', 'hashtags.tag').execute();
}

/** Deletes an author's posts; their ratings, comments, tags, rank, visits and search entries cascade. */
export async function deleteAuthorPosts(trx: DB, authorId: number): Promise<void> {
  await trx.deleteFrom('posts').where('author_id', '=', authorId).execute();
}
