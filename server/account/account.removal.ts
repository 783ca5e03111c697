// Deleting one's own account (DESIGN.md, Accounts: settings): everything of it goes — posts and
// their images, comments, ratings, follows, notifications, mutes (its own and of it), recent
// visits — and every counter and
// mojo it touched is corrected in the same transaction, so check-counters finds nothing after.
// What others received from it (ratings and comments on their articles, follows) is taken back
// from them; what it received dies with it. The last administrator cannot leave.
import { ACCOUNT_DELETED_MESSAGE, LAST_ADMIN_MESSAGE, PASSWORD_REQUIRED_MESSAGE, WRONG_PASSWORD_MESSAGE } from '../../shared/accounts.ts';
import { confirmPassword, type LoginClient } from '../auth/auth.service.ts';
import { removeCommentsBy } from '../comments/comments.service.ts';
import type { AppContext } from '../context.ts';
import { dialectOf, nowIso } from '../db.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { queueAccountRemoval } from '../federation-outgoing/federation-outgoing.service.ts';
import { removeFollowsOf } from '../follows/follows.service.ts';
import type { Body } from '../http.ts';
import { removeImage } from '../images/images.ts';
import { removeMutesOf } from '../mutes/mutes.service.ts';
import { removeNotificationsOf } from '../notifications/notifications.service.ts';
import { lockAdminsAndAccount } from '../postgres/postgres.locks.ts';
import { forgetReaderVisits } from '../posts/posts.read.service.ts';
import { removeAuthorPosts } from '../posts/posts.write.service.ts';
import { removeRatingsBy } from '../ratings/ratings.service.ts';
import type { UserRow } from '../schema.ts';
import { adjustManyAuthorStats, type AuthorStatsChange } from '../users/author-stats.service.ts';
import { countAdmins, deleteUser, findUser } from '../users/users.service.ts';
import { sentPassword } from './account.service.ts';

/** DELETE /api/users/me {password}. */
export async function deleteAccount(ctx: AppContext, user: UserRow, body: Body, client: LoginClient): Promise<{ message: string }> {
  const password = sentPassword(body, 'password', PASSWORD_REQUIRED_MESSAGE);
  await confirmPassword(user, password, client, WRONG_PASSWORD_MESSAGE);
  const images = await ctx.db.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') await lockAdminsAndAccount(trx, user.id);
    const current = await findUser(trx, user.id);
    // Deleted already, by a second click that came first.
    if (!current) throw unauthorized();
    if (current.level === 'admin' && await countAdmins(trx) <= 1) throw forbidden(LAST_ADMIN_MESSAGE);
    // Taken back from the others in three steps, each with its cause in their ledgers.
    const ratings = await removeRatingsBy(trx, user.id);
    const comments = await removeCommentsBy(trx, user.id);
    const follows = await removeFollowsOf(trx, user.id);
    // Before its articles, keys and followers elsewhere go: the Deletes are addressed with them.
    await queueAccountRemoval(trx, ctx.config, user.id);
    const postImages = await removeAuthorPosts(trx, user.id);
    await forgetReaderVisits(ctx, trx, user.id);
    await removeNotificationsOf(trx, user.id);
    await removeMutesOf(trx, user.id);
    await deleteUser(trx, user.id);
    const at = nowIso();
    const others = (changes: AuthorStatsChange[]) => changes.filter((change) => change.userId !== user.id);
    await adjustManyAuthorStats(trx, others(ratings), { cause: 'rating_changed', at });
    await adjustManyAuthorStats(trx, others(comments), { cause: 'comment_removed', at });
    await adjustManyAuthorStats(trx, others(follows), { cause: 'follower_lost', at });
    return current.avatar ? [...postImages, current.avatar] : postImages;
  });
  // The rows are gone: a file that cannot be removed now is only a file, never a broken page.
  for (const image of images) {
    try {
      await removeImage(ctx.images, image);
    } catch (err) {
      ctx.log.warn({ err, image }, 'an image of a deleted account could not be removed');
    }
  }
  ctx.log.info({ user_id: user.id, images: images.length }, 'account deleted by its owner');
  return { message: ACCOUNT_DELETED_MESSAGE };
}
