// A ledger event on the wire: points, not the hundredths the database keeps (shared/mojo.ts).
import { fromHundredths, type MojoCause } from '../../shared/mojo.ts';
import type { MojoEventRow } from './mojo-ledger.repo.ts';

export interface MojoEvent {
  id: number;
  at: string;
  /** mojo_after − the mojo before, in points (two decimals). */
  delta: number;
  mojo_after: number;
  cause: MojoCause;
  post_id: number | null;
  /** The article's title while it is listed; null once archived or deleted. */
  post_title: string | null;
  /** The rater, commenter or follower; null for visits (readers are never named) and for accounts since deleted. */
  actor_id: number | null;
  actor_username: string | null;
}

export interface MojoLedgerPage {
  mojo: number;
  events: MojoEvent[];
  total: number;
}

export function toMojoEvent(row: MojoEventRow): MojoEvent {
  return {
    id: Number(row.id),
    at: row.at,
    delta: fromHundredths(Number(row.delta)),
    mojo_after: fromHundredths(Number(row.mojo_after)),
    cause: row.cause,
    post_id: row.post_id === null ? null : Number(row.post_id),
    post_title: row.post_title,
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    actor_username: row.actor_username,
  };
}
