// Every comment of some fediverse authors taken away at once (an admin blocked their server or
// account: DESIGN.md, Moderation): each article's count and its author's counters and mojo move
// as they do when a comment is deleted; their open reports close by migration 0009's triggers.
import type { DB } from '../schema.ts';
import { adjustManyAuthorStats } from '../users/author-stats.service.ts';
import { countRemoteCommentsPerAuthor, deleteRemoteComments, subtractRemoteComments } from './remote-removal.repo.ts';

/** Actors per statement: the ids are bound values, and the databases limit how many a statement has. */
const CHUNK = 500;

/** Removes the comments of the remote actors, in `trx`; how many were removed. */
export async function removeCommentsOfRemoteActors(trx: DB, actorIds: readonly number[], at: string): Promise<number> {
  let removed = 0;
  for (let start = 0; start < actorIds.length; start += CHUNK) {
    const chunk = actorIds.slice(start, start + CHUNK);
    const perAuthor = await countRemoteCommentsPerAuthor(trx, chunk);
    await subtractRemoteComments(trx, chunk);
    removed += await deleteRemoteComments(trx, chunk);
    await adjustManyAuthorStats(trx, perAuthor.map((a) => ({ userId: a.author_id, comments: -a.n })), { cause: 'comment_removed', at });
  }
  return removed;
}
