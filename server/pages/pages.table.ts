// The pages the server renders (DESIGN.md, Reach): each public route of client/App.tsx with its
// first reads, answered by the services the API's routes call, under the addresses the page's
// own code reads them at (the page modules export those calls), and the head it gets. Rendering
// one more page is one more entry here, and the page reading through hooks/useRead.ts.
// test/api/pages.test.ts checks that every answer here is the one GET of its address gives.
import { authorArticlesRead, authorRead } from '../../client/pages/AuthorPage.tsx';
import { mojoLedgerRead } from '../../client/components/reader/MojoLedger.tsx';
import { homeReads } from '../../client/pages/FrontPage.tsx';
import { MODERATION_LEDE, moderationRead } from '../../client/pages/ModerationPage.tsx';
import { articleReads } from '../../client/pages/PostPage.tsx';
import { pulseReads } from '../../client/pages/PulsePage.tsx';
import { SEARCH_LEDE, SEARCH_PAGE_SIZE, searchRead } from '../../client/pages/SearchPage.tsx';
import { voicesRead } from '../../client/pages/VoicesPage.tsx';
import { sitePageRead } from '../../client/pages/SitePage.tsx';
import { MODERATION_PAGE_SIZE, moderationHref, moderationPageOf } from '../../client/components/moderation/moderationQuery.ts';
import { parsePulseQuery, pulseSearch } from '../../client/components/reader/pulseQuery.ts';
import { queryOf, searchHref } from '../../client/components/search/searchQuery.ts';
import { endpoints } from '../../client/endpoints.ts';
import { ROUTES } from '../../client/routes.ts';
import { normalizeHashtag } from '../../shared/articles.ts';
import { excerpt } from '../../shared/excerpt.ts';
import { siteDescription } from '../../shared/site.ts';
import type { SiteInfo } from '../site/site.view.ts';
import { sitePage } from '../site/site.service.ts';
import { SITE_PAGE_TITLES, type SitePage } from '../../shared/site-settings.ts';
import { htmlText } from '../../shared/html-text.ts';
import { normalizeLine } from '../../shared/text.ts';
import { commentsOfVisiblePost } from '../comments/comments.service.ts';
import type { AppContext } from '../context.ts';
import { authorsPage, frontPage, hashtagStats, rankedFeed } from '../discovery/discovery.service.ts';
import { idOf } from '../http.ts';
import { moderationLog } from '../moderation/moderation.service.ts';
import { sinceOf } from '../posts/posts.input.ts';
import { ARTICLE_NOT_FOUND, listAuthorPosts, listPostPage } from '../posts/posts.service.ts';
import { readPost } from '../posts/posts.read.service.ts';
import { searchPosts } from '../search/search.service.ts';
import { findUserByUsernameOr404, userForReader } from '../users/users.service.ts';
import { MOJO_PAGE, mojoLedger } from '../users/mojo-ledger.service.ts';
import { postRank } from '../ranks/ranks.service.ts';
import { articleHead, listHead, missingHead, profileHead, type PageHead } from './pages.head.ts';
import { pageReads, type Answers } from './pages.reads.ts';
import { keptRead } from '../cache/kept-read.ts';

export interface PageRequest {
  /** The route's parameters, as wouter hands them to the page. */
  params: Record<string, string>;
  /** The query as the page reads it (its entry's `search`); '' for a page that reads none. */
  search: string;
  /** Who reads, for an article's visit (posts/posts.visitors.ts). */
  visitor: string;
  /** The site's settings, as the page shows them. */
  site: SiteInfo;
}

export interface PageLoad {
  status: 200 | 404;
  answers: Answers;
  head: PageHead;
  /** The article whose visit this page counts: again on every request its cached copy answers. */
  visit?: { id: number; author_id: number };
}

export interface PageEntry {
  /** The route as client/App.tsx writes it (wouter's syntax). */
  route: string;
  /** The query, normalised, for a page that reads it: part of its cache key and canonical address. */
  search?(query: string): string;
  load(ctx: AppContext, page: PageRequest): Promise<PageLoad>;
}

/** The API routes' own defaults for what the pages read. */
const RANKS_LIMIT = 50;
const HASHTAGS_LIMIT = 100;
const COMMENTS_LIMIT = 200;
const AUTHOR_POSTS_LIMIT = 100;

const home: PageEntry = {
  route: ROUTES.home,
  async load(ctx, { site }) {
    const { answers, read } = pageReads();
    const calls = homeReads();
    await Promise.all([
      read(calls.frontpage, async () => ({ posts: await frontPage(ctx) })),
      read(calls.latest, () => listPostPage(ctx, { archived: false }, 'newest', { skip: 0, limit: 10 })),
      read(calls.hashtags, () => hashtagStats(ctx, undefined, HASHTAGS_LIMIT)),
      read(calls.ranks, () => rankedFeed(ctx, {}, 'ranking', { skip: 0, limit: RANKS_LIMIT })),
    ]);
    return { status: 200, answers, head: listHead('FrontPage', siteDescription(site), '/') };
  },
};

const article: PageEntry = {
  route: ROUTES.article,
  async load(ctx, { params, visitor }) {
    const { answers, read } = pageReads();
    const calls = articleReads(params.id!);
    // First, counting the visit as the API's read does (DESIGN.md: a visitor, once per 30
    // minutes), so that the side list shows the count it made.
    const post = await read(calls.article, () => readPost(ctx, idOf(params.id, ARTICLE_NOT_FOUND), undefined, visitor));
    // The side list is the same on every article's page: kept like the lists, not read per page.
    const ranked = read(calls.ranked, () => keptRead(ctx, `page read ${calls.ranked.url}`, () => rankedFeed(ctx, {}, 'ranking', { skip: 0, limit: 4 })));
    if (!post) {
      await ranked;
      return { status: 404, answers, head: missingHead('Article not found', "The article you're looking for doesn't exist or has been deleted.") };
    }
    const rank = read(calls.rank, () => postRank(ctx.db, post.id, ctx.config.rankRefreshHours));
    await Promise.all([ranked, rank, read(endpoints.comments.list(post.id), () => commentsOfVisiblePost(ctx, post.id, { skip: 0, limit: COMMENTS_LIMIT }))]);
    return { status: 200, answers, head: articleHead(post), visit: { id: post.id, author_id: post.author_id } };
  },
};

const pulse: PageEntry = {
  route: ROUTES.pulse,
  search: (query) => pulseSearch(parsePulseQuery(query)),
  async load(ctx, { search }) {
    const { answers, read } = pageReads();
    const filters = parsePulseQuery(search);
    const calls = pulseReads(filters);
    const filter = { hashtagContains: normalizeHashtag(filters.hashtag) || undefined, since: sinceOf(filters.time_period) };
    await Promise.all([
      read(calls.popular, () => hashtagStats(ctx, undefined, 6)),
      read(calls.ranked, () => rankedFeed(ctx, filter, filters.criteria, { skip: 0, limit: RANKS_LIMIT })),
    ]);
    return {
      status: 200, answers,
      head: listHead('The Pulse', 'Articles are ranked by their visits, their ratings and the activity in their comments.', `/ranks${search}`),
    };
  },
};

const voices: PageEntry = {
  route: ROUTES.voices,
  async load(ctx) {
    const { answers, read } = pageReads();
    const first = voicesRead();
    await read(first, () => authorsPage(ctx, undefined, 'mojo_desc', { skip: 0, limit: 50 }));
    return { status: 200, answers, head: listHead('Voices', 'The beatniks who write this paper. Find a voice you like and follow it.', '/authors') };
  },
};

const author: PageEntry = {
  route: ROUTES.author,
  async load(ctx, { params, site }) {
    const { answers, read } = pageReads();
    const username = params.username!;
    const user = await read(authorRead(username), async () => userForReader(ctx, await findUserByUsernameOr404(ctx, username), undefined));
    if (!user) return { status: 404, answers, head: missingHead('User not found', `No beatnik goes by “${username}”.`) };
    await read(authorArticlesRead(user.id), () => listAuthorPosts(ctx, undefined, user.id,
      { archived: false, hashtag: undefined, search: undefined, since: undefined }, 'newest', { skip: 0, limit: AUTHOR_POSTS_LIMIT }));
    await read(mojoLedgerRead(user.id), () => mojoLedger(ctx.db, user, { skip: 0, limit: MOJO_PAGE }));
    return { status: 200, answers, head: profileHead(user, site.name) };
  },
};

const search: PageEntry = {
  route: ROUTES.search,
  // The query exactly as the page reads it (trimmed), so that the answer embedded under its
  // address is the one the page looks for; every other parameter is dropped.
  search: (query) => searchHref(queryOf(query)).slice('/search'.length),
  async load(ctx, { search: query }) {
    const { answers, read } = pageReads();
    const words = queryOf(query);
    // Cleaned as the API cleans its query text (http.ts queryText).
    if (words) await read(searchRead(words), () => searchPosts(ctx, normalizeLine(words), { skip: 0, limit: SEARCH_PAGE_SIZE }));
    return {
      status: 200, answers,
      head: listHead(words ? `Search: ${words}` : 'Search', SEARCH_LEDE, `/search${query}`),
    };
  },
};

const moderation: PageEntry = {
  route: ROUTES.moderation,
  // The page number alone, as the page reads it; the first page has none.
  search: (query) => moderationHref(moderationPageOf(query)).slice('/moderation'.length),
  async load(ctx, { search: query }) {
    const { answers, read } = pageReads();
    const page = moderationPageOf(query);
    await read(moderationRead(page), () => moderationLog(ctx, { skip: (page - 1) * MODERATION_PAGE_SIZE, limit: MODERATION_PAGE_SIZE }));
    return { status: 200, answers, head: listHead('Moderation log', MODERATION_LEDE, `/moderation${query}`) };
  },
};

/** /about, /rules, /privacy, /terms: a 404 while the admin has not written it. */
function writtenPage(slug: SitePage): PageEntry {
  return {
    route: ROUTES[slug],
    async load(ctx) {
      const { answers, read } = pageReads();
      const page = await read(sitePageRead(slug), () => sitePage(ctx, slug));
      if (!page) return { status: 404, answers, head: missingHead('Page not found', 'There is no page at this address.') };
      return { status: 200, answers, head: listHead(SITE_PAGE_TITLES[slug], summaryOf(page.content_html), ROUTES[slug]) };
    },
  };
}

/** A page's description: its opening words. */
function summaryOf(html: string): string {
  return excerpt(htmlText(html), 159);
}

export const PAGES: readonly PageEntry[] = [
  home, article, pulse, voices, author, search, moderation,
  writtenPage('about'), writtenPage('rules'), writtenPage('privacy'), writtenPage('terms'),
];

/** Any path no route of the app takes: the app's own not-found page, with a 404. It reads nothing. */
export const NOT_FOUND_PAGE: PageEntry = {
  route: '*',
  async load() {
    return { status: 404, answers: {}, head: missingHead('Page not found', 'There is no page at this address.') };
  },
};
