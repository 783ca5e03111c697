// GET /api/search (DESIGN.md, Reach: search) over HTTP on the real app: what matches (every word,
// the last as a prefix, accents and case aside, in title, content, hashtags or author), in which
// order, the snippets, paging, only active posts, and the index changed in the same transaction
// as the post on every write that moves it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialectOf } from '../../server/db.ts';
import type { DB } from '../../server/schema.ts';
import { findSearchIndexDrift } from '../../server/search-index/search-index.service.ts';
import {
  createAdmin, createUser, failUpdates, multipart, sqlNumber, sqlRows, startTestServer, type TestServer, type TestUser,
} from '../helpers.ts';
import { articleFields, createPost } from './factories.ts';

let server: TestServer;
let ana: TestUser;
let ben: TestUser;

before(async () => {
  server = await startTestServer();
  ana = await createUser(server, { username: 'ana_search' });
  ben = await createUser(server, { username: 'ben_search' });
});
after(async () => { await server.stop(); });

const FILLER = ' Nothing else happened that evening, as far as anybody could tell from the street outside.';

/** An article whose title and content hold these words (padded to the publishing rules' lengths). */
function article(title: string, content = 'A plain story.', hashtags = ['notes']) {
  return { title: title.padEnd(20, '.'), content: (content + FILLER.repeat(3)).slice(0, 10_000), hashtags };
}

async function search(q: string, query = ''): Promise<{ status: number; body: any }> {
  return server.api('GET', `/api/search?q=${encodeURIComponent(q)}${query}`);
}

async function foundIds(q: string, query = ''): Promise<number[]> {
  const res = await search(q, query);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.posts.map((post: { id: number }) => post.id);
}

const entries = (postId: number) => sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_search WHERE post_id = ?', postId);

describe('what matches', () => {
  let cafe: any;
  let plain: any;
  let tagged: any;

  before(async () => {
    cafe = await createPost(server, ana, article('Evenings at the Café Zéphyr', 'The espresso was bitter and the talk was sweet.'));
    plain = await createPost(server, ben, article('Notes from a smoky room', 'We ordered at the CAFE ZEPHYR bar, typewriters clacking.'));
    tagged = await createPost(server, ben, article('A record of the evening', 'Only saxophones.', ['quokka', 'small-press']));
  });

  test('accents and case do not matter, either way', async () => {
    assert.deepEqual((await foundIds('zephyr')).sort(), [cafe.id, plain.id].sort());
    assert.deepEqual((await foundIds('ZÉPHYR')).sort(), [cafe.id, plain.id].sort());
    assert.deepEqual((await foundIds('Zéphyr café')).sort(), [cafe.id, plain.id].sort());
    assert.deepEqual(await foundIds('cafe\u0301 ze\u0301phyr bitter'), [cafe.id]);
  });

  test('every word must match; the last one may be the beginning of a word, the others may not', async () => {
    assert.deepEqual(await foundIds('zephyr typewriters'), [plain.id]);
    assert.deepEqual(await foundIds('zephyr typewri'), [plain.id]);
    assert.deepEqual(await foundIds('zeph'), [cafe.id, plain.id], 'the title match first');
    assert.deepEqual(await foundIds('zeph typewriters'), [], 'only the last word is a prefix');
    assert.deepEqual(await foundIds('zephyr giraffe'), []);
  });

  test('title, content, hashtags and the author\'s username all match', async () => {
    assert.deepEqual(await foundIds('espresso'), [cafe.id]);
    assert.deepEqual(await foundIds('quokka'), [tagged.id]);
    assert.deepEqual(await foundIds('#small-press'), [tagged.id]);
    assert.deepEqual(await foundIds('ana_search zephyr'), [cafe.id]);
    assert.deepEqual((await foundIds('ben_search')).sort(), [plain.id, tagged.id].sort());
  });

  test('each post is as the lists show it, plus its snippet', async () => {
    const res = await search('espresso');
    const listed = (await server.api('GET', '/api/posts?limit=100')).body.posts.find((p: { id: number }) => p.id === cafe.id);
    const { snippet, title_segments: title, ...post } = res.body.posts[0];
    assert.deepEqual(post, listed);
    assert.equal(title.map((s: { text: string }) => s.text).join(''), cafe.title);
    assert.deepEqual(snippet.filter((s: { match: boolean }) => s.match), [{ text: 'espresso', match: true }]);
  });

  test('empty, blank or wordless queries find nothing, without an error', async () => {
    for (const q of ['', '   ', '\t\n', '"" ** () :: -- 🎷']) {
      assert.deepEqual((await search(q)).body, { posts: [], total: 0 }, JSON.stringify(q));
    }
    assert.deepEqual((await server.api('GET', '/api/search')).body, { posts: [], total: 0 });
  });

  test('operators and syntax of either database are plain words', async () => {
    const cases: Array<[string, number[]]> = [
      ['"zephyr"', [cafe.id, plain.id]],
      ['zephyr*', [cafe.id, plain.id]],
      ['-espresso zephyr', [cafe.id]],
      ['espresso AND', [cafe.id]],
      ['espresso OR typewriters', []],
      ['NEAR(espresso', []],
      ['title:zephyr', []],
      ['(zephyr', [cafe.id, plain.id]],
      ['zephyr) & !bitter | \'espr\':*', [cafe.id]],
      ['espresso\u0007', [cafe.id]],
      [`${'zephyr '.repeat(150)}`, [cafe.id, plain.id]],
    ];
    for (const [q, expected] of cases) assert.deepEqual(await foundIds(q), expected, JSON.stringify(q));
  });

  test('skip and limit are checked like every list; q is one value', async () => {
    const cases: Array<[string, string]> = [
      ['&skip=-1', 'skip must be a non-negative integer'],
      ['&skip=abc', 'skip must be a non-negative integer'],
      ['&limit=0', 'limit must be a positive integer'],
      ['&limit=1.5', 'limit must be a non-negative integer'],
      ['&q=again', 'q must be given once, as text'],
    ];
    for (const [query, detail] of cases) {
      const res = await search('zephyr', query);
      assert.equal(res.status, 400, query);
      assert.deepEqual(res.body, { detail });
    }
    assert.equal((await search('zephyr', '&limit=1000')).status, 200, 'limit is clamped to 100');
  });
});

describe('order, snippets and paging', () => {
  test('title matches come first, newest first within each group', async () => {
    const oldTitle = await createPost(server, ana, article('The wombat of Ninth Street'));
    const oldBody = await createPost(server, ana, article('Another city night', 'A wombat crossed the road.'));
    const newTitle = await createPost(server, ana, article('Wombat at dawn, again'));
    const newBody = await createPost(server, ana, article('Late train home', 'The wombat slept.'));
    assert.deepEqual(await foundIds('wombat'), [newTitle.id, oldTitle.id, newBody.id, oldBody.id]);
    // Both words in the title: only then does a post rank as a title match.
    assert.deepEqual(await foundIds('wombat road'), [oldBody.id]);
  });

  test('paging walks title matches, then the rest, with the same total on every page', async () => {
    const made: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const inTitle = i % 3 === 0;
      const post = await createPost(server, ben, inTitle
        ? article(`Numbat story number ${i}`)
        : article(`Story number ${i} of many`, 'A numbat, seen at last.'));
      made.push(post.id);
    }
    const all = await foundIds('numbat', '&limit=100');
    assert.equal(all.length, 7);
    const titled = made.filter((_, i) => i % 3 === 0).reverse();
    assert.deepEqual(all.slice(0, 3), titled);
    const pages: number[] = [];
    for (let skip = 0; skip < 9; skip += 2) {
      const res = await search('numbat', `&skip=${skip}&limit=2`);
      assert.equal(res.body.total, 7);
      pages.push(...res.body.posts.map((p: { id: number }) => p.id));
    }
    assert.deepEqual(pages, all, 'pages of 2 make the whole list, across the title/rest boundary, once each');
    assert.deepEqual((await search('numbat', '&skip=7')).body, { posts: [], total: 7 });
  });

  test('the snippet: the best place in the content, matches marked as written, at most 200 characters', async () => {
    const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `lorem${from + i}`).join(' ');
    const content = `${words(0, 40)} the Crème Brûlée arrived. ${words(100, 40)} only crème here. ${words(200, 40)}`;
    const post = await createPost(server, ana, article('A dessert we remember', content));
    const [result] = (await search('creme brulee')).body.posts;
    assert.equal(result.id, post.id);
    const text = result.snippet.map((s: { text: string }) => s.text).join('');
    assert.ok(text.length <= 200, text);
    assert.match(text, /^….*the Crème Brûlée arrived\..*…$/);
    assert.deepEqual(result.snippet.filter((s: { match: boolean }) => s.match).map((s: { text: string }) => s.text), ['Crème', 'Brûlée']);
    for (const segment of result.snippet) assert.deepEqual(Object.keys(segment).sort(), ['match', 'text']);
  });

  test('a post found by its title shows the title\'s words marked, as written', async () => {
    const post = await createPost(server, ana, article('A night in Montréal-Nord', 'Nothing about the place in the text itself.'));
    const [result] = (await search('MONTREAL nor')).body.posts;
    assert.equal(result.id, post.id);
    assert.deepEqual(result.title_segments, [
      { text: 'A night in ', match: false }, { text: 'Montréal', match: true }, { text: '-', match: false }, { text: 'Nord', match: true },
    ]);
    assert.ok(result.snippet.every((s: { match: boolean }) => !s.match), 'the text has neither word');
  });

  test('a writer\'s markup in a snippet stays text', async () => {
    await createPost(server, ben, article('Markup in the text here', 'Try <mark>this</mark> & <script>alert("axolotl")</script> now.'));
    const [result] = (await search('axolotl')).body.posts;
    const text = result.snippet.map((s: { text: string }) => s.text).join('');
    assert.match(text, /^Try <mark>this<\/mark> & <script>alert\("axolotl"\)<\/script> now\./);
    assert.deepEqual(result.snippet.filter((s: { match: boolean }) => s.match), [{ text: 'axolotl', match: true }]);
  });
});

describe('only active posts, kept in step with every write', () => {
  test('archiving takes a post out, unarchiving brings it back, deleting removes it', async () => {
    const post = await createPost(server, ana, article('The pangolin archive entry'));
    assert.deepEqual(await foundIds('pangolin'), [post.id]);
    assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: ana.token })).status, 200);
    assert.deepEqual(await search('pangolin').then((r) => r.body), { posts: [], total: 0 });
    assert.equal(await entries(post.id), 0);
    await server.api('PUT', `/api/posts/${post.id}/archive`, { token: ana.token });
    assert.deepEqual(await foundIds('pangolin'), [post.id]);
    assert.equal((await server.api('DELETE', `/api/posts/${post.id}`, { token: ana.token })).status, 200);
    assert.deepEqual(await foundIds('pangolin'), []);
    assert.equal(await entries(post.id), 0);
  });

  test('an admin\'s deletion removes it too', async () => {
    const admin = await createAdmin(server);
    const post = await createPost(server, ben, article('The narwhal to be removed'));
    assert.deepEqual(await foundIds('narwhal'), [post.id]);
    const res = await server.api('DELETE', `/api/admin/delete-post/${post.id}?reason=spam`, { token: admin.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await foundIds('narwhal'), []);
  });

  test('an edit replaces the words: the old ones no longer find it', async () => {
    const post = await createPost(server, ana, article('The tapir edition, first draft', 'About a tapir.', ['tapirs']));
    const res = await server.api('PUT', `/api/posts/${post.id}`, {
      token: ana.token, body: multipart(articleFields(article('The okapi edition, second draft', 'About an okapi.', ['okapis']))),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await foundIds('tapir'), []);
    assert.deepEqual(await foundIds('tapirs'), []);
    assert.deepEqual(await foundIds('okapi'), [post.id]);
  });

  test('an author\'s new name finds their posts, the old one no longer does', async () => {
    const author = await createUser(server, { username: 'marmot_writer' });
    const first = await createPost(server, author, article('First of two articles'));
    const second = await createPost(server, author, article('Second of two articles'));
    const archived = await createPost(server, author, article('Third, soon archived'));
    await server.api('PUT', `/api/posts/${archived.id}/archive`, { token: author.token });
    assert.equal((await server.api('PUT', '/api/users/me', { token: author.token, json: { username: 'ermine_writer' } })).status, 200);
    assert.deepEqual(await foundIds('marmot'), []);
    assert.deepEqual(await foundIds('ermine'), [second.id, first.id]);
    assert.equal(await entries(archived.id), 0, 'an archived post stays out');
  });

  test('a new post is found at once: the cached answer is dropped by the write', async () => {
    assert.deepEqual(await foundIds('dugong'), []);
    const post = await createPost(server, ben, article('A dugong appears'));
    assert.deepEqual(await foundIds('dugong'), [post.id]);
  });
});

/** Makes the index's writes for one post fail inside the database; returns the function that removes the fault. */
async function failIndexWrites(db: DB, postId: number): Promise<() => Promise<void>> {
  if (dialectOf(db) === 'postgres') {
    await sqlRows(db, `CREATE FUNCTION fail_index() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF (TG_OP = 'DELETE' AND OLD.post_id = ${postId}) OR (TG_OP <> 'DELETE' AND NEW.post_id = ${postId}) THEN
        RAISE EXCEPTION 'simulated failure';
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$`);
    await sqlRows(db, 'CREATE TRIGGER fail_index BEFORE INSERT OR UPDATE OR DELETE ON post_search FOR EACH ROW EXECUTE FUNCTION fail_index()');
    return async () => {
      await sqlRows(db, 'DROP TRIGGER fail_index ON post_search');
      await sqlRows(db, 'DROP FUNCTION fail_index');
    };
  }
  for (const [event, row] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']]) {
    await sqlRows(db, `CREATE TRIGGER fail_index_${event} BEFORE ${event} ON post_search WHEN ${row}.post_id = ${postId}
      BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`);
  }
  return async () => {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) await sqlRows(db, `DROP TRIGGER fail_index_${event}`);
  };
}

describe('the index changes in the same transaction as the post', () => {
  test('a publication that fails after its words were indexed leaves no trace in the index', async () => {
    const author = await createUser(server);
    const before = await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_search');
    const restore = await failUpdates(server.ctx.db, 'users', 'posts_count', author.id);
    try {
      const res = await server.api('POST', '/api/posts', { token: author.token, body: multipart(articleFields(article('The ocelot that never was'))) });
      assert.equal(res.status, 500);
    } finally {
      await restore();
    }
    assert.equal(await sqlNumber(server.ctx.db, 'SELECT count(*) FROM post_search'), before);
    assert.deepEqual(await foundIds('ocelot'), []);
  });

  test('an archiving that fails after the entry was removed keeps the post findable', async () => {
    const author = await createUser(server);
    const post = await createPost(server, author, article('The caracal stays'));
    const restore = await failUpdates(server.ctx.db, 'users', 'posts_count', author.id);
    try {
      assert.equal((await server.api('PUT', `/api/posts/${post.id}/archive`, { token: author.token })).status, 500);
    } finally {
      await restore();
    }
    assert.equal(await entries(post.id), 1);
    assert.deepEqual(await foundIds('caracal'), [post.id]);
  });

  test('an edit, a rename or a deletion whose index write fails changes nothing', async () => {
    const author = await createUser(server, { username: 'serval_author' });
    const post = await createPost(server, author, article('The serval original title'));
    const restore = await failIndexWrites(server.ctx.db, post.id);
    try {
      const edit = await server.api('PUT', `/api/posts/${post.id}`, {
        token: author.token, body: multipart(articleFields(article('The genet replacement title'))),
      });
      assert.equal(edit.status, 500);
      const rename = await server.api('PUT', '/api/users/me', { token: author.token, json: { username: 'genet_author' } });
      assert.equal(rename.status, 500);
      assert.equal((await server.api('DELETE', `/api/posts/${post.id}`, { token: author.token })).status, 500);
    } finally {
      await restore();
    }
    const stored = (await server.api('GET', `/api/posts/${post.id}`)).body;
    assert.equal(stored.title, 'The serval original title');
    assert.equal(stored.author_username, 'serval_author');
    assert.deepEqual(await foundIds('serval original'), [post.id]);
    assert.deepEqual(await foundIds('genet'), []);
  });

  test('whatever happened before, the index agrees with the posts', async () => {
    assert.deepEqual(await findSearchIndexDrift(server.ctx.db), []);
  });
});
