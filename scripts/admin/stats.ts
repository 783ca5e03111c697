// stats: how big the community and its database are.
import { statSync } from 'node:fs';
import { databasePath } from '../../server/db.ts';
import { describeServer } from '../../server/postgres/postgres.database.ts';
import { postgresDatabaseSize } from '../../server/postgres/postgres.admin.ts';
import { communityCounts } from '../../server/system/system.service.ts';
import type { AppContext } from '../../server/context.ts';
import { formatTable, type Command } from './cli.ts';

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function databaseLine(ctx: AppContext): Promise<string> {
  if (ctx.config.databaseUrl) {
    return `${mb(await postgresDatabaseSize(ctx.db))} (PostgreSQL ${describeServer(ctx.config.databaseUrl)})`;
  }
  const file = databasePath(ctx.config.dataDir);
  return `${mb(fileSize(file) + fileSize(`${file}-wal`))} (${file})`;
}

export const statsCommand: Command<null> = {
  name: 'stats',
  usage: 'stats',
  summary: 'Count users, articles, ratings, comments and follows; show the database size.',
  example: 'npm run admin -- stats',
  parse: () => null,
  async run(ctx, _args, out) {
    const counts = await communityCounts(ctx);
    const images = await ctx.images.usage();
    const rows: string[][] = [
      ['users', String(counts.users)],
      ['admins', String(counts.admins)],
      ['banned users', String(counts.bannedUsers)],
      ['articles', String(counts.articles)],
      ['archived articles', String(counts.archivedArticles)],
      ['drafts', String(counts.draftArticles)],
      ['ratings', String(counts.ratings)],
      ['comments', String(counts.comments)],
      ['follows', String(counts.follows)],
      ['notifications', String(counts.notifications)],
      ['database', await databaseLine(ctx)],
      ['images', `${images.files} files, ${mb(images.bytes)} (${ctx.images.location})`],
    ];
    for (const line of formatTable(['what', 'count'], rows)) out.line(line);
  },
};
