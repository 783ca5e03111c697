// The brakes on a new account (DESIGN.md, Running a community): in its first 24 hours an account
// publishes at most 2 articles and 10 comments an hour, so a wave of fresh spam accounts does little
// before an admin sees it. Counted from the database, inside the write's own transaction: the
// count holds across instances, and on PostgreSQL the account's row is locked first, so two posts
// at once take turns instead of both slipping under the limit (SQLite writes one at a time).
// Admins are not braked; like every throttle, RATE_LIMITS=off lifts it.
import type { Config } from '../config.ts';
import { dialectOf } from '../db.ts';
import { HttpError } from '../errors.ts';
import { lockAccount } from '../postgres/postgres.locks.ts';
import type { DB, UserRow } from '../schema.ts';
import {
  NEW_ACCOUNT_ARTICLES_AN_HOUR, NEW_ACCOUNT_COMMENTS_AN_HOUR, NEW_ACCOUNT_HOURS, newAccountBrakeMessage,
} from '../../shared/registration.ts';
import { listArticleTimesSince, listCommentTimesSince } from './new-accounts.repo.ts';

const HOUR_MS = 60 * 60_000;

type Kind = 'articles' | 'comments';

const BRAKES: Record<Kind, { limit: number; times: typeof listArticleTimesSince }> = {
  articles: { limit: NEW_ACCOUNT_ARTICLES_AN_HOUR, times: listArticleTimesSince },
  comments: { limit: NEW_ACCOUNT_COMMENTS_AN_HOUR, times: listCommentTimesSince },
};

/** Whether the account's writes are braked now: under a day old, not an admin, throttles on. */
export function isBraked(config: Pick<Config, 'rateLimits'>, user: UserRow, now = Date.now()): boolean {
  return config.rateLimits && user.level !== 'admin' && now - Date.parse(user.created_at) < NEW_ACCOUNT_HOURS * HOUR_MS;
}

/**
 * Call first inside the transaction that writes the article (published) or the comment: throws
 * 429, saying when the next one may go, when the last hour already holds the limit.
 */
export async function brakeNewAccount(trx: DB, config: Pick<Config, 'rateLimits'>, user: UserRow, kind: Kind): Promise<void> {
  const now = Date.now();
  if (!isBraked(config, user, now)) return;
  if (dialectOf(trx) === 'postgres') await lockAccount(trx, user.id);
  const { limit, times } = BRAKES[kind];
  const recent = await times(trx, user.id, new Date(now - HOUR_MS).toISOString(), limit);
  if (recent.length < limit) return;
  const waitMs = Date.parse(recent[0]!) + HOUR_MS - now;
  throw new HttpError(429, newAccountBrakeMessage(kind, limit, waitMs), { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) });
}
