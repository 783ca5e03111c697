// The admin CLI's commands, in the order `--help` lists them. A new command: one module beside
// this one exporting a Command, and one line here.
import { backupCommand } from './backup.ts';
import { ban, unban } from './bans.ts';
import { checkCountersCommand } from './check-counters.ts';
import type { Command } from './cli.ts';
import { createAdmin } from './create-admin.ts';
import { disableTwoFactorCommand } from './disable-2fa.ts';
import { federationQueueCommand } from './federation.ts';
import { demote, promote } from './level.ts';
import { listUsersCommand } from './list-users.ts';
import { mailQueueCommand, mailTestCommand, sendDigestCommand } from './mail.ts';
import { migrateToPostgresCommand } from './migrate-to-postgres.ts';
import { recomputeRanksCommand } from './recompute-ranks.ts';
import { resetPasswordCommand } from './reset-password.ts';
import { restoreCommand } from './restore.ts';
import { statsCommand } from './stats.ts';

export const commands: ReadonlyArray<Command<any>> = [
  createAdmin,
  promote,
  demote,
  ban,
  unban,
  listUsersCommand,
  recomputeRanksCommand,
  checkCountersCommand,
  resetPasswordCommand,
  disableTwoFactorCommand,
  mailTestCommand,
  mailQueueCommand,
  sendDigestCommand,
  federationQueueCommand,
  statsCommand,
  backupCommand,
  restoreCommand,
  migrateToPostgresCommand,
];
