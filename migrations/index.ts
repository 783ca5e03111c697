// Every migration, in order. A static map (not a folder scan) so it survives bundling.
// Add new migrations at the end; never edit one that has landed.
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0002 from './0002_ids_never_reused.ts';
import * as m0003 from './0003_username_lookalikes.ts';

const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_ids_never_reused': m0002,
  '0003_username_lookalikes': m0003,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
