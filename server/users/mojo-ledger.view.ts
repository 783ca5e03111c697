// A ledger event on the wire: points, not the hundredths the database keeps (shared/mojo.ts).
import { fromHundredths } from '../../shared/mojo.ts';
import type { MojoEventRow } from './mojo-ledger.repo.ts';

/** The row's fields, `delta` and `mojo_after` in points (two decimals). */
export type MojoEvent = MojoEventRow;

export interface MojoLedgerPage {
  mojo: number;
  events: MojoEvent[];
  total: number;
}

export function toMojoEvent(row: MojoEventRow): MojoEvent {
  return { ...row, delta: fromHundredths(row.delta), mojo_after: fromHundredths(row.mojo_after) };
}
