// stats: how big the community and its database are.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { databasePath } from '../../server/db.ts';
import { uploadsDir } from '../../server/uploads.ts';
import { formatTable, type Command } from './cli.ts';

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const statsCommand: Command<null> = {
  name: 'stats',
  usage: 'stats',
  summary: 'Count users, articles, ratings, comments and follows; show the database size.',
  example: 'npm run admin -- stats',
  parse: () => null,
  async run(ctx, _args, out) {
    const count = (sql: string) => String(ctx.sqlite.prepare(sql).pluck().get());
    const file = databasePath(ctx.config.dataDir);
    const images = readdirSync(uploadsDir(ctx.config.dataDir)).filter((name) => name.endsWith('.jpg'));
    const imageBytes = images.reduce((sum, name) => sum + fileSize(path.join(uploadsDir(ctx.config.dataDir), name)), 0);
    const rows: string[][] = [
      ['users', count('SELECT count(*) FROM users')],
      ['admins', count(`SELECT count(*) FROM users WHERE level = 'admin'`)],
      ['banned users', count(`SELECT count(*) FROM users WHERE banned_at IS NOT NULL
        AND (ban_permanent = 1 OR ban_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`)],
      ['articles', count('SELECT count(*) FROM posts WHERE archived = 0')],
      ['archived articles', count('SELECT count(*) FROM posts WHERE archived = 1')],
      ['ratings', count('SELECT count(*) FROM ratings')],
      ['comments', count('SELECT count(*) FROM comments')],
      ['follows', count('SELECT count(*) FROM follows')],
      ['notifications', count('SELECT count(*) FROM notifications')],
      ['database', `${mb(fileSize(file) + fileSize(`${file}-wal`))} (${file})`],
      ['images', `${images.length} files, ${mb(imageBytes)}`],
    ];
    for (const line of formatTable(['what', 'count'], rows)) out.line(line);
  },
};
