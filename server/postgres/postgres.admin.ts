// What the admin CLI does differently on PostgreSQL: the size of the database, and what to run
// instead of the SQLite file commands (backup and restore are PostgreSQL's own tools there).
import { sql } from 'kysely';
import type { DB } from '../schema.ts';
import { describeServer } from './postgres.database.ts';

export async function postgresDatabaseSize(db: DB): Promise<number> {
  const { rows } = await sql<{ bytes: number }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
}

/** Every Beatnik table emptied and its ids started again (the seeder's --reset). */
export async function emptyEveryTable(db: DB): Promise<void> {
  await sql`TRUNCATE users, posts, hashtags, post_hashtags, ratings, comments, follows, notifications,
    post_visits, post_ranks, post_rank_order, rank_refresh, moderation_log, reports, rate_limits RESTART IDENTITY CASCADE`.execute(db);
}

/** `images`: where the images are, a folder to copy or a bucket (the image store's location). */
export function postgresBackupAdvice(url: string, images: { location: string; bucket: boolean }): string {
  return `the database is PostgreSQL (${describeServer(url)}): back it up with pg_dump, for example `
    + '`pg_dump --format=custom --file=beatnik.dump "$DATABASE_URL"`, '
    + (images.bucket ? `and the images in the ${images.location} with the store's own tools `
      : `and copy the images (${images.location}) with it `)
    + '(docs/scaling.md, Backup and restore), or make an archive of both with `backup --archive FILE`';
}

export function postgresRestoreAdvice(url: string): string {
  return `the database is PostgreSQL (${describeServer(url)}): restore a pg_dump file with pg_restore into an `
    + 'empty database, for example `pg_restore --no-owner --dbname="$DATABASE_URL" beatnik.dump` '
    + '(docs/scaling.md, Backup and restore); an archive of `backup --archive` restores with `restore ARCHIVE`';
}
