// The API's wire types, imported from the server as types only (never server code): the objects
// the pages show. endpoints.ts types every call with the same file.
import type * as Wire from '../server/api-types.ts';

export type {
  AdminStats, ArticleFormBody, EmailPreferences, AuthorCard, AuthorSort, BannedUser, BanBody, FollowListItem, FollowResult, HashtagStat,
  ModerationEntry, ModerationLog, MojoEvent, MojoLedgerPage, MyStats, Notification, PostRank, PostSort, RankCriteria, ReportGroup,
  ReportReason, ReportTargetType, SearchPage, SearchResult, SnippetSegment, TimePeriod, UserLevel,
  AdminSiteSettings, RegistrationMode, SiteInfo, SitePage, SitePageView,
} from '../server/api-types.ts';

// ---- The fediverse (DESIGN.md, The fediverse (ActivityPub)) ----
// Its fields are optional here: a server from before them, or a page one rendered, sends none.

/** A fediverse account as the pages show it: on a comment, in a follower list, in one's mutes. */
export interface RemoteAuthor {
  /** '@user@server'. */
  handle: string;
  name: string;
  /** Its profile page, or its actor id. */
  url: string;
  /** An absolute URL on its own server, or null. */
  avatar: string | null;
}

/** A comment; one from the fediverse has no local author (author_* null) and a `remote_author`. */
export type Comment = Omit<Wire.Comment, 'author_id' | 'author_username' | 'author_avatar' | 'remote_author'> & {
  author_id: number | null;
  author_username: string | null;
  author_avatar: string | null;
  remote_author?: RemoteAuthor;
};

/** An article, with the likes and boosts it had from the fediverse. */
export type Post = Wire.Post & { likes_count?: number; boosts_count?: number };

/** A user's public profile, with how many follow them from the fediverse. */
export type PublicUser = Wire.PublicUser & { remote_followers_count?: number };
export type PrivateUser = Wire.PrivateUser & { remote_followers_count?: number };

/** What one reader muted, fediverse accounts too. */
export type Mutes = Wire.Mutes & { remote?: RemoteAuthor[] };

/** GET /api/users/:id/remote-followers: newest first. */
export interface RemoteFollowerList {
  remote_followers: RemoteAuthor[];
  total: number;
}

/** PUT|DELETE /api/users/me/mutes/remote/:handle. */
export interface RemoteMuteResult {
  message: string;
  muted: boolean;
}
