// Every migration, in order. A static map (not a folder scan) so it survives bundling.
// Add new migrations at the end; never edit one that has landed.
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0002 from './0002_ids_never_reused.ts';
import * as m0003 from './0003_username_lookalikes.ts';
import * as m0004 from './0004_rank_order.ts';

const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_ids_never_reused': m0002,
  '0003_username_lookalikes': m0003,
  '0004_rank_order': m0004,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
