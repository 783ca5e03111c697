// Every migration, in order. A static map (not a folder scan) so it survives bundling.
// Add new migrations at the end; never edit one that has landed. Both databases carry the same
// names; a migration whose SQL differs by dialect has a PostgreSQL twin under postgres/.
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0002 from './0002_ids_never_reused.ts';
import * as m0003 from './0003_username_lookalikes.ts';
import * as m0004 from './0004_rank_order.ts';
import * as m0005 from './0005_shared_counters.ts';
import * as m0006 from './0006_search_index.ts';
import * as m0007 from './0007_drafts.ts';
import * as m0008 from './0008_sessions.ts';
import * as m0009 from './0009_reports_moderation_log.ts';
import * as m0010 from './0010_mutes.ts';
import * as m0011 from './0011_bayesian_rating.ts';
import * as m0012 from './0012_mojo_ledger.ts';
import * as m0013 from './0013_lighter_ledger.ts';
import * as m0014 from './0014_markdown.ts';
import * as m0015 from './0015_foreign_key_indexes.ts';
import * as m0016 from './0016_jobs.ts';
import * as m0017 from './0017_mail_accounts.ts';
import * as m0018 from './0018_site_settings.ts';
import * as m0019 from './0019_registration.ts';
import * as m0020 from './0020_two_factor.ts';
import * as m0021 from './0021_backups.ts';
import * as m0022 from './0022_federation.ts';
import * as m0025 from './0025_federation_blocks.ts';
import * as m0026 from './0026_remote_avatars.ts';
import * as m0027 from './0027_job_queues.ts';
import * as pg0001 from './postgres/0001_init.ts';
import * as pg0002 from './postgres/0002_ids_never_reused.ts';
import * as pg0005 from './postgres/0005_shared_counters.ts';
import * as pg0006 from './postgres/0006_search_index.ts';
import * as pg0009 from './postgres/0009_reports_moderation_log.ts';
import * as pg0012 from './postgres/0012_mojo_ledger.ts';
import * as pg0013 from './postgres/0013_lighter_ledger.ts';
import * as pg0014 from './postgres/0014_markdown.ts';

const sqlite: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_ids_never_reused': m0002,
  '0003_username_lookalikes': m0003,
  '0004_rank_order': m0004,
  '0005_shared_counters': m0005,
  '0006_search_index': m0006,
  '0007_drafts': m0007,
  '0008_sessions': m0008,
  '0009_reports_moderation_log': m0009,
  '0010_mutes': m0010,
  '0011_bayesian_rating': m0011,
  '0012_mojo_ledger': m0012,
  '0013_lighter_ledger': m0013,
  '0014_markdown': m0014,
  '0015_foreign_key_indexes': m0015,
  '0016_jobs': m0016,
  '0017_mail_accounts': m0017,
  '0018_site_settings': m0018,
  '0019_registration': m0019,
  '0020_two_factor': m0020,
  '0021_backups': m0021,
  '0022_federation': m0022,
  '0025_federation_blocks': m0025,
  '0026_remote_avatars': m0026,
  '0027_job_queues': m0027,
};

const postgres: Record<string, Migration> = {
  ...sqlite,
  '0001_init': pg0001,
  '0002_ids_never_reused': pg0002,
  '0005_shared_counters': pg0005,
  '0006_search_index': pg0006,
  '0009_reports_moderation_log': pg0009,
  '0012_mojo_ledger': pg0012,
  '0013_lighter_ledger': pg0013,
  '0014_markdown': pg0014,
};

export function migrationProvider(dialect: 'sqlite' | 'postgres'): MigrationProvider {
  const migrations = dialect === 'postgres' ? postgres : sqlite;
  return { getMigrations: async () => migrations };
}
