// The mojo formula (docs/mojo.md): deterministic, from what an author's active articles earned.

export interface AuthorStats {
  ratingsCount: number;
  ratingsSum: number;
  comments: number;
  visits: number;
  followers: number;
}

/** Ratings are pulled toward a neutral 3 as if every author started with 5 such ratings. */
export const PRIOR_RATINGS = 5;
export const NEUTRAL_RATING = 3;

export function computeMojo(stats: AuthorStats): number {
  const smoothed = (stats.ratingsSum + PRIOR_RATINGS * NEUTRAL_RATING) / (stats.ratingsCount + PRIOR_RATINGS);
  const quality = 10 * (smoothed - NEUTRAL_RATING) * Math.log1p(stats.ratingsCount);
  const conversation = 2 * Math.log1p(stats.comments);
  const readership = Math.log1p(stats.visits / 10);
  const following = 3 * Math.log1p(stats.followers);
  return Math.round((quality + conversation + readership + following) * 100) / 100;
}

export function averageRating(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : 0;
}

/** m when nothing has been rated yet: the middle of the scale. */
export const MEAN_WITH_NO_RATINGS = 3;

/**
 * The bayesian rating (DESIGN.md, Transparency): the article's ratings plus PRIOR_RATINGS
 * ratings at the site-wide mean m, so one 5-star vote does not top a chart. m is the one the
 * last ranking refresh measured (rank_refresh). Four decimals: orders use the exact value.
 */
export function bayesianRating(sum: number, count: number, mean: number): number {
  return Math.round(((PRIOR_RATINGS * mean + sum) / (PRIOR_RATINGS + count)) * 1e4) / 1e4;
}
