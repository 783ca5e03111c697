// SQL the feeds need beyond the posts feature's lists.
import type { DB } from '../schema.ts';

/** Whether any article ever carried the tag (a row stays in hashtags when its count falls to 0). */
export async function hashtagKnown(db: DB, tag: string): Promise<boolean> {
  return (await db.selectFrom('hashtags').select('tag').where('tag', '=', tag).executeTakeFirst()) !== undefined;
}
