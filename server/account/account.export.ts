// Download my data (DESIGN.md, Accounts: settings): one JSON document of everything the account
// holds — its profile, every article (archived ones too) with its image's address, its comments,
// the ratings it gave, its follows both ways, its notifications, what it muted and its mojo ledger.
// Never the password's hash,
// anything about sessions, nor the two-factor secret or recovery codes (only whether it is on). One query per part, whatever the account's size.
import { allFollows, type FollowEntry } from '../follows/follows.service.ts';
import { commentsWrittenBy, type WrittenComment } from '../comments/comments.service.ts';
import type { AppContext } from '../context.ts';
import { toPreferences, type EmailPreferences } from '../mail-notices/mail-notices.service.ts';
import { exportedMutes, type MutesExport } from '../mutes/mutes.service.ts';
import { allNotificationsOf } from '../notifications/notifications.service.ts';
import type { Notification } from '../notifications/notifications.view.ts';
import { wholeMojoLedger } from '../users/mojo-ledger.service.ts';
import type { MojoEvent } from '../users/mojo-ledger.view.ts';
import { allPostsOf } from '../posts/posts.service.ts';
import type { Post } from '../posts/posts.view.ts';
import { ratingsGivenBy, type GivenRating } from '../ratings/ratings.service.ts';
import type { UserRow } from '../schema.ts';
import { toPrivateUser, type PrivateUser } from '../users/users.view.ts';

export interface AccountExport {
  exported_at: string;
  /** The site's own address (PUBLIC_URL): every image address below starts with it. */
  site: string;
  profile: PrivateUser;
  posts: Post[];
  comments: WrittenComment[];
  ratings: GivenRating[];
  following: FollowEntry[];
  followers: FollowEntry[];
  notifications: Notification[];
  /** The authors and hashtags it muted, and when. */
  mutes: MutesExport;
  /** How the account's mojo was earned: its ledger, oldest first (docs/mojo.md). */
  mojo_ledger: MojoEvent[];
  /** Which mail it chose (Settings → Email notifications). */
  email_preferences: EmailPreferences;
}

export async function exportAccount(ctx: AppContext, user: UserRow, now = new Date()): Promise<AccountExport> {
  const site = ctx.config.publicUrl;
  const absolute = (url: string | null) => (url ? `${site}${url}` : null);
  const [posts, comments, ratings, following, followers, notifications, mutes, mojoLedger] = await Promise.all([
    allPostsOf(ctx.db, user.id), commentsWrittenBy(ctx.db, user.id), ratingsGivenBy(ctx.db, user.id),
    allFollows(ctx.db, 'following', user.id), allFollows(ctx.db, 'followers', user.id), allNotificationsOf(ctx.db, user.id),
    exportedMutes(ctx.db, user.id), wholeMojoLedger(ctx.db, user.id),
  ]);
  const profile = toPrivateUser(user, now);
  return {
    exported_at: now.toISOString(),
    site,
    profile: { ...profile, avatar: absolute(profile.avatar) },
    posts: posts.map((post) => ({ ...post, image: absolute(post.image), author_avatar: absolute(post.author_avatar) })),
    comments,
    ratings,
    following,
    followers,
    notifications,
    mutes,
    mojo_ledger: mojoLedger,
    email_preferences: toPreferences(user),
  };
}
