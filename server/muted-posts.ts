// The condition that keeps a muter's lists free of what they muted (DESIGN.md, Mutes), written
// once for every repo that lists posts: the posts repo's lists and each database's search. Each
// half is a NOT EXISTS that looks one key up (user_mutes' and hashtag_mutes' primary keys, led
// by the muter; a post's few tags by post_hashtags_post), so the list still stops at its page.
import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** Neither the post's author nor any of its tags is muted by `userId` (refs as the query names them). */
export function notMutedBy(userId: number, postId: string, authorId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(NOT EXISTS (SELECT 1 FROM user_mutes AS mute_u
      WHERE mute_u.user_id = ${userId} AND mute_u.muted_user_id = ${sql.ref(authorId)})
    AND NOT EXISTS (SELECT 1 FROM post_hashtags AS mute_ph
      INNER JOIN hashtag_mutes AS mute_h ON mute_h.user_id = ${userId} AND mute_h.tag = mute_ph.tag
      WHERE mute_ph.post_id = ${sql.ref(postId)}))`;
}

/** The same for a post known by its id alone (a search's match): its author is read by key. */
export function postNotMutedBy(userId: number, postId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(NOT EXISTS (SELECT 1 FROM posts AS mute_p
      INNER JOIN user_mutes AS mute_u ON mute_u.user_id = ${userId} AND mute_u.muted_user_id = mute_p.author_id
      WHERE mute_p.id = ${sql.ref(postId)})
    AND NOT EXISTS (SELECT 1 FROM post_hashtags AS mute_ph
      INNER JOIN hashtag_mutes AS mute_h ON mute_h.user_id = ${userId} AND mute_h.tag = mute_ph.tag
      WHERE mute_ph.post_id = ${sql.ref(postId)}))`;
}
