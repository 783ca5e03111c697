// The mojo ledger, read (docs/mojo.md, The ledger): public, like the profile it explains.
import type { Page } from '../http.ts';
import type { DB, UserRow } from '../schema.ts';
import { countMojoEvents, listAllMojoEvents, listMojoEvents } from './mojo-ledger.repo.ts';
import { toMojoEvent, type MojoEvent, type MojoLedgerPage } from './mojo-ledger.view.ts';

/** Events per page by default (the profile reads this many: client/components/reader/MojoLedger.tsx), and at most. */
export const MOJO_PAGE = 50;
export const MOJO_PAGE_MAX = 100;

/** The ledger's address in the read cache (routes.ts, CACHED_PER_ADDRESS), for a write outside the
 * API's own (a counted visit) to forget. */
export const mojoLedgerAddress = (userId: number): string => `/api/users/${userId}/mojo`;

/** A page of the user's ledger, newest first, with their mojo as stored. */
export async function mojoLedger(db: DB, user: Pick<UserRow, 'id' | 'mojo'>, page: Page): Promise<MojoLedgerPage> {
  const [rows, total] = await Promise.all([listMojoEvents(db, user.id, page), countMojoEvents(db, user.id)]);
  return { mojo: user.mojo, events: rows.map(toMojoEvent), total };
}

/** Every event of the user's ledger, oldest first (their data's export). */
export async function wholeMojoLedger(db: DB, userId: number): Promise<MojoEvent[]> {
  return (await listAllMojoEvents(db, userId)).map(toMojoEvent);
}
