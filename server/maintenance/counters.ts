// Recounts every stored counter from the base tables and reports where they disagree; the search
// index's entries too.
// Used by the tests (counters must never drift) and by operators through the CLI.
import type { DB } from '../schema.ts';
import { averageRating, computeMojo } from '../mojo/mojo.formula.ts';
import { findSearchIndexDrift } from '../search-index/search-index.service.ts';
import { fromHundredths, toHundredths } from '../../shared/mojo.ts';
import {
  insertRecomputeEvents, listLedgerDrift, recountHashtags, recountPosts, recountUsers, setUserCountersToCounted,
} from './counters.repo.ts';

const close = (a: number, b: number) => Math.abs(a - b) < 0.011;

/** A user's counters, each recounted from its base table. */
const USER_COUNTERS = ['posts_count', 'followers_count', 'following_count', 'received_visits',
  'received_ratings_count', 'received_ratings_sum', 'received_comments_count', 'remote_followers_count'] as const;

/** Each disagreement as one readable line; an empty list means every counter is right. */
export async function findCounterDrift(db: DB): Promise<string[]> {
  const drift: string[] = [];
  const users = await recountUsers(db);
  const stored = new Map(users.stored.map((u) => [u.id, u]));
  for (const real of users.counted) {
    const user = stored.get(real.id)!;
    for (const key of USER_COUNTERS) {
      if (user[key] !== real[key]) drift.push(`user ${real.id} ${key}: stored ${user[key]}, counted ${real[key]}`);
    }
    const mojo = computeMojo({
      ratingsCount: real.received_ratings_count, ratingsSum: real.received_ratings_sum,
      comments: real.received_comments_count, visits: real.received_visits, followers: real.followers_count,
    });
    if (!close(user.mojo, mojo)) drift.push(`user ${real.id} mojo: stored ${user.mojo}, computed ${mojo}`);
    const average = averageRating(real.received_ratings_sum, real.received_ratings_count);
    if (!close(user.received_average_rating, average)) {
      drift.push(`user ${real.id} received_average_rating: stored ${user.received_average_rating}, computed ${average}`);
    }
  }
  // The mojo ledger is kept like a counter: its events add up to the stored mojo.
  for (const l of await listLedgerDrift(db)) {
    drift.push(`user ${l.id} mojo ledger: stored ${fromHundredths(l.mojo_h)}, events add up to ${fromHundredths(l.ledger_h)}`);
  }
  for (const p of await recountPosts(db)) {
    if (p.ratings_count !== p.real_ratings_count) drift.push(`post ${p.id} ratings_count: stored ${p.ratings_count}, counted ${p.real_ratings_count}`);
    if (p.ratings_sum !== p.real_ratings_sum) drift.push(`post ${p.id} ratings_sum: stored ${p.ratings_sum}, counted ${p.real_ratings_sum}`);
    if (p.comments_count !== p.real_comments_count) drift.push(`post ${p.id} comments_count: stored ${p.comments_count}, counted ${p.real_comments_count}`);
    if (p.likes_count !== Number(p.real_likes_count)) drift.push(`post ${p.id} likes_count: stored ${p.likes_count}, counted ${p.real_likes_count}`);
    if (p.boosts_count !== Number(p.real_boosts_count)) drift.push(`post ${p.id} boosts_count: stored ${p.boosts_count}, counted ${p.real_boosts_count}`);
    const average = averageRating(p.real_ratings_sum, p.real_ratings_count);
    if (!close(p.average_rating, average)) drift.push(`post ${p.id} average_rating: stored ${p.average_rating}, computed ${average}`);
  }
  for (const t of await recountHashtags(db)) {
    if (t.posts_count !== t.real_count) drift.push(`hashtag ${t.tag}: stored ${t.posts_count}, counted ${t.real_count}`);
  }
  // The search index is kept like a counter: with every write, from the posts it mirrors.
  drift.push(...await findSearchIndexDrift(db));
  return drift;
}

export interface Repair {
  /** Users whose counters or mojo were set to the counted figures. */
  users: number;
  /** `recompute` events written so that every ledger adds up to the mojo stored. */
  events: number;
}

/**
 * check-counters --repair: every user's counters and mojo as counted from the base tables, then a
 * visible `recompute` event for each user whose ledger no longer adds up to the mojo stored (by
 * the correcting delta), in one transaction. Articles', hashtags' and the search index's drift is
 * reported by findCounterDrift and left to the operator.
 */
export async function repairUserCounters(db: DB, at = new Date().toISOString()): Promise<Repair> {
  return db.transaction().execute(async (trx) => {
    const users = await recountUsers(trx);
    const stored = new Map(users.stored.map((u) => [u.id, u]));
    const wrong = users.counted.filter((real) => {
      const user = stored.get(real.id)!;
      const mojo = computeMojo({
        ratingsCount: real.received_ratings_count, ratingsSum: real.received_ratings_sum,
        comments: real.received_comments_count, visits: real.received_visits, followers: real.followers_count,
      });
      return toHundredths(user.mojo) !== toHundredths(mojo) || USER_COUNTERS.some((k) => user[k] !== real[k]);
    });
    await setUserCountersToCounted(trx, wrong);
    return { users: wrong.length, events: await insertRecomputeEvents(trx, at) };
  });
}
