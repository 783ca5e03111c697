// The ranking score (docs/ranking.md): what an article earned, discounted by its age.
import { NEUTRAL_RATING, PRIOR_RATINGS } from '../mojo/mojo.formula.ts';

export interface RankInput {
  visits: number;
  ratingsCount: number;
  ratingsSum: number;
  comments: number;
  createdAt: string;
}

/** Days for the age discount to halve a score's weight relative to a fresh post, roughly. */
const AGE_EXPONENT = 0.8;

export function rankScore(post: RankInput, now: number): number {
  const smoothed = (post.ratingsSum + PRIOR_RATINGS * NEUTRAL_RATING) / (post.ratingsCount + PRIOR_RATINGS);
  const earned = 1
    + Math.log1p(post.visits)
    + 2 * Math.log1p(post.comments)
    + Math.log1p(post.ratingsCount) * (1 + 2 * (smoothed - NEUTRAL_RATING));
  const ageDays = Math.max(0, now - Date.parse(post.createdAt)) / 86_400_000;
  return Math.round((Math.max(earned, 0) / Math.pow(ageDays + 1, AGE_EXPONENT)) * 1e6) / 1e6;
}
