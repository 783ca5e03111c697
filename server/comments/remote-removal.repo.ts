// SQL for taking away every comment of some fediverse authors at once (remote-removal.service.ts),
// by comments.remote_actor_id (migrations/0022_federation.ts); the blocks and a Delete(Person) use it.
import { sql } from 'kysely';
import type { DB } from '../schema.ts';

const byActors = (actorIds: readonly number[]) => sql<boolean>`comments.remote_actor_id IN (${sql.join(actorIds)})`;

/** Per author of a listed article (published, active), how many of the actors' comments it has. */
export async function countRemoteCommentsPerAuthor(trx: DB, actorIds: readonly number[]): Promise<Array<{ author_id: number; n: number }>> {
  const rows = await trx.selectFrom('comments').innerJoin('posts', 'posts.id', 'comments.post_id')
    .select((eb) => ['posts.author_id', eb.fn.countAll<number>().as('n')])
    .where(byActors(actorIds)).where('posts.archived', '=', 0).where('posts.status', '=', 'published')
    .groupBy('posts.author_id').execute();
  return rows.map((row) => ({ author_id: row.author_id, n: Number(row.n) }));
}

/** Takes the actors' comments out of each article's count, in one statement. */
export async function subtractRemoteComments(trx: DB, actorIds: readonly number[]): Promise<void> {
  const perPost = trx.selectFrom('comments').select((eb) => ['post_id', eb.fn.countAll<number>().as('n')])
    .where(byActors(actorIds)).groupBy('post_id').as('theirs');
  await trx.updateTable('posts').from(perPost)
    .set({ comments_count: sql`posts.comments_count - theirs.n` })
    .whereRef('theirs.post_id', '=', 'posts.id').execute();
}

/** Deletes the actors' comments; how many there were. */
export async function deleteRemoteComments(trx: DB, actorIds: readonly number[]): Promise<number> {
  const result = await trx.deleteFrom('comments').where(byActors(actorIds)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
