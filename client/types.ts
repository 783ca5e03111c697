// The API's wire types, imported from the server as types only (never server code): the objects
// the pages show. endpoints.ts types every call with the same file.
export type {
  AdminStats, ArticleFormBody, EmailPreferences, AuthorCard, AuthorSort, BannedUser, BanBody, Comment, FollowListItem, FollowResult, HashtagStat,
  ModerationEntry, ModerationLog, MojoEvent, MojoLedgerPage, Mutes, MyStats, Notification, Post, PostRank, PostSort, PrivateUser, PublicUser, RankCriteria, ReportGroup,
  ReportReason, ReportTargetType, SearchPage, SearchResult, SnippetSegment, TimePeriod, UserLevel,
  AdminSiteSettings, RegistrationMode, SiteInfo, SitePage, SitePageView,
} from '../server/api-types.ts';
