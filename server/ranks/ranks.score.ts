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

/** A score split the way GET /api/posts/{id}/rank shows it (docs/ranking.md). */
export interface RankParts {
  visits: number;
  ratings: number;
  comments: number;
  /** Age at the moment of scoring, in hours. */
  ageHours: number;
  /** What the age leaves of what was earned: 1 / (age_in_days + 1) ^ 0.8. */
  decay: number;
}

/** Every article starts with this much earned, so a fresh unread one still ranks. */
export const BASE_EARNED = 1;

export function rankParts(post: RankInput, now: number): RankParts {
  const smoothed = (post.ratingsSum + PRIOR_RATINGS * NEUTRAL_RATING) / (post.ratingsCount + PRIOR_RATINGS);
  const ageMs = Math.max(0, now - Date.parse(post.createdAt));
  return {
    visits: Math.log1p(post.visits),
    ratings: Math.log1p(post.ratingsCount) * (1 + 2 * (smoothed - NEUTRAL_RATING)),
    comments: 2 * Math.log1p(post.comments),
    ageHours: ageMs / 3_600_000,
    decay: 1 / Math.pow(ageMs / 86_400_000 + 1, AGE_EXPONENT),
  };
}

/** The score from its parts: what was earned (never below 0) times the decay, to 6 decimals. */
export function scoreOfParts(parts: Pick<RankParts, 'visits' | 'ratings' | 'comments' | 'decay'>): number {
  const earned = BASE_EARNED + parts.visits + parts.comments + parts.ratings;
  return Math.round(Math.max(earned, 0) * parts.decay * 1e6) / 1e6;
}

export function rankScore(post: RankInput, now: number): number {
  return scoreOfParts(rankParts(post, now));
}
