// Search (DESIGN.md, Reach: search): an index of every active article's words, kept by the server
// in the same transaction as the article (server/search-index/). post_search holds each active
// post's words as shared/search-text.ts folds them — its title's, and all of them — on both
// databases, so migrate-to-postgres copies it as any table. On SQLite an FTS5 table indexes it (external content: the words are
// stored once, in post_search), kept in step by triggers, so that no write to post_search can
// leave the index behind. FTS5's own `ascii` tokenizer splits on the spaces between the server's
// words and on nothing else (every character outside ASCII is a word character to it): the index
// holds exactly those words, folded as PostgreSQL's are (postgres/0006_search_index.ts), with no
// Unicode tables of SQLite's own to disagree. detail=column keeps which column a word is in (a
// title match ranks first) but not its positions, which search never asks for; the prefix indexes
// answer the last word of a query, a prefix, without merging every word it begins.
//
// The index is built here for the posts that exist. The folding is shared/search-text.ts's:
// should that rule change, a new migration must rebuild the index, which this one then still
// builds as the rule stands.
import { type Kysely, sql } from 'kysely';
import { searchDocument } from '../shared/search-text.ts';
import { storedHashtags } from '../shared/articles.ts';

const TRIGGERS = [
  `CREATE TRIGGER post_search_insert AFTER INSERT ON post_search BEGIN
    INSERT INTO post_search_fts (rowid, title, words) VALUES (new.post_id, new.title, new.words);
  END`,
  `CREATE TRIGGER post_search_delete AFTER DELETE ON post_search BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, words) VALUES ('delete', old.post_id, old.title, old.words);
  END`,
  `CREATE TRIGGER post_search_update AFTER UPDATE ON post_search BEGIN
    INSERT INTO post_search_fts (post_search_fts, rowid, title, words) VALUES ('delete', old.post_id, old.title, old.words);
    INSERT INTO post_search_fts (rowid, title, words) VALUES (new.post_id, new.title, new.words);
  END`,
];

export async function up(db: Kysely<any>): Promise<void> {
  // Kysely runs SQLite migrations outside a transaction: a failure must leave nothing half built.
  await db.transaction().execute(async (trx) => {
    await sql`CREATE TABLE post_search (
      post_id INTEGER PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      words TEXT NOT NULL
    )`.execute(trx);
    await fillSearchIndex(trx);
    await sql`CREATE VIRTUAL TABLE post_search_fts USING fts5(
      title, words, content = 'post_search', content_rowid = 'post_id',
      tokenize = 'ascii', detail = 'column', prefix = '1 2 3'
    )`.execute(trx);
    // Built in one pass over the filled table, then merged into one segment: faster than a trigger per row.
    await sql`INSERT INTO post_search_fts (post_search_fts) VALUES ('rebuild')`.execute(trx);
    await sql`INSERT INTO post_search_fts (post_search_fts) VALUES ('optimize')`.execute(trx);
    for (const trigger of TRIGGERS) await sql.raw(trigger).execute(trx);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS post_search_fts`.execute(db);
  await sql`DROP TABLE IF EXISTS post_search`.execute(db);
}

/** Rows read and written at a time: memory stays flat at any number of posts. */
const BATCH = 2_000;

/** Writes every active post's words into post_search (both databases), in id order. */
export async function fillSearchIndex(db: Kysely<any>): Promise<void> {
  for (let after = 0; ;) {
    const posts: Array<{ id: number; title: string; content: string; hashtags: string; username: string }> = await db
      .selectFrom('posts').innerJoin('users', 'users.id', 'posts.author_id')
      .select(['posts.id', 'posts.title', 'posts.content', 'posts.hashtags', 'users.username'])
      .where('posts.archived', '=', 0).where('posts.id', '>', after)
      .orderBy('posts.id').limit(BATCH).execute();
    if (posts.length === 0) return;
    // A few hundred rows a statement: 3 parameters each, far below either database's limit.
    for (let at = 0; at < posts.length; at += 500) {
      await db.insertInto('post_search').values(posts.slice(at, at + 500).map((post) => ({
        post_id: post.id,
        ...searchDocument({ ...post, hashtags: storedHashtags(post.hashtags) }),
      }))).execute();
    }
    after = posts.at(-1)!.id;
  }
}
