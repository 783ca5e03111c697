// client/first-reads.ts: which API reads a public page starts before the app's script has run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOKEN_KEY } from '../../client/api.ts';
import { TOKEN_KEY as FIRST_READS_TOKEN_KEY, firstReadsOf } from '../../client/first-reads.ts';

describe('firstReadsOf', () => {
  const pages: Array<[string, string[]]> = [
    ['/', ['/api/frontpage', '/api/posts?limit=10', '/api/hashtags', '/api/ranks']],
    ['/post/42', ['/api/posts/42', '/api/ranks?limit=4']],
    ['/ranks', ['/api/hashtags?limit=6', '/api/ranks']],
    ['/authors', ['/api/authors?limit=50&skip=0&sort_by=mojo_desc']],
  ];
  for (const [page, reads] of pages) {
    it(`starts the first reads of ${page}`, () => assert.deepEqual(firstReadsOf(page, ''), reads));
  }

  it('starts nothing where the reads depend on more than the address', () => {
    for (const [path, search] of [['/ranks', '?hashtag=jazz'], ['/authors', '?x=1'], ['/post/abc', ''], ['/post/1/x', ''],
      ['/beatnik/ana', ''], ['/profile', ''], ['/admin', ''], ['/login', ''], ['/nowhere', '']] as const) {
      assert.deepEqual(firstReadsOf(path, search), [], path + search);
    }
  });

  it('reads the token where api.ts keeps it', () => assert.equal(FIRST_READS_TOKEN_KEY, TOKEN_KEY));
});
