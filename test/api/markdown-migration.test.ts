// Migration 0014 on either database: the articles and comments a site has look exactly as they did
// (their text escaped where Markdown would read markup, rendered), articles get their reading time,
// notifications take the 'mention' type; down and up again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, Migrator } from 'kysely';
import { migrationProvider } from '../../migrations/index.ts';
import { dialectOf, migrateToLatest } from '../../server/db.ts';
import { freshMigratedDatabase } from '../migration-databases.ts';

const LEGACY_ARTICLE = [
  '# Not a heading, *not emphasis*, `not code`',
  '- not a list',
  '1. not a list either',
  '    not a code block',
  '> not a quote <b>nor bold</b> &copy; @someone https://example.com',
  '',
  '',
  'A second paragraph after two blank lines.',
  'Under it a rule that is not one:',
  '---',
].join('\n');

/** The display before Markdown: white-space: pre-line over the escaped text (no spaces at a line's ends). */
const LEGACY_HTML = '<p># Not a heading, *not emphasis*, `not code`<br />\n- not a list<br />\n1. not a list either<br />\n'
  + 'not a code block<br />\n&gt; not a quote &lt;b&gt;nor bold&lt;/b&gt; &amp;copy; @someone https://example.com</p>\n'
  + '<p>A second paragraph after two blank lines.<br />\nUnder it a rule that is not one:<br />\n---</p>\n';

test('0014 renders what the site has as it looked, takes the mention type, and goes down and up again', async () => {
  const { db, drop } = await freshMigratedDatabase();
  try {
    const provider = migrationProvider(dialectOf(db));
    const migrator = new Migrator({ db, provider });
    const names = Object.keys(await provider.getMigrations());
    const before = names[names.indexOf('0014_markdown') - 1]!;
    const later = names.filter((name) => name > before);
    assert.equal((await migrator.migrateTo(before)).error, undefined);

    // The tables as 0013 left them: not the schema's type of today.
    const old = db as Kysely<any>;
    const now = new Date().toISOString();
    const ana = await old.insertInto('users').values({
      username: 'ana', username_key: 'ana', email: 'ana@example.com', password_hash: 'x', created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const someone = await old.insertInto('users').values({
      username: 'someone', username_key: 'someone', email: 's@example.com', password_hash: 'x', created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const post = await old.insertInto('posts').values({
      author_id: ana.id, title: 'A title long enough to be real', content: LEGACY_ARTICLE, hashtags: '[]', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const comment = await old.insertInto('comments').values({
      post_id: post.id, author_id: ana.id, content: '**not bold**\n_nor this_', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();

    assert.equal((await migrator.migrateTo('0014_markdown')).error, undefined);
    const article = await db.selectFrom('posts').select(['content', 'content_html', 'reading_minutes', 'image_alt'])
      .where('id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(article.content_html, LEGACY_HTML);
    assert.match(article.content, /^\\# Not a heading, \\\*not emphasis\\\*/, 'the source is the escaped text, for the editor');
    assert.deepEqual([article.reading_minutes, article.image_alt], [1, '']);
    const reply = await db.selectFrom('comments').select(['content_html']).where('id', '=', comment.id).executeTakeFirstOrThrow();
    assert.equal(reply.content_html, '<p>**not bold**<br />\n_nor this_</p>\n');
    await db.insertInto('notifications').values({
      user_id: someone.id, type: 'mention', subject: 'New mention', message: 'm', created_at: now,
    }).execute();

    assert.equal((await migrator.migrateTo(before)).error, undefined);
    assert.equal((await old.selectFrom('notifications').selectAll().execute()).length, 0, 'down drops the mentions it cannot keep');
    const downText = await old.selectFrom('posts').select('content').where('id', '=', post.id).executeTakeFirstOrThrow();
    assert.match(downText.content, /^# Not a heading, \*not emphasis\*/, 'down leaves the text as it shows, unescaped');
    assert.deepEqual(await migrateToLatest(db), later, 'down leaves nothing behind that stops it running again');
    const again = await db.selectFrom('posts').select('content_html').where('id', '=', post.id).executeTakeFirstOrThrow();
    assert.equal(again.content_html, LEGACY_HTML, 'and up again shows the same');
  } finally {
    await drop();
  }
});
