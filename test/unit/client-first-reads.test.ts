// client/first-reads.ts: which API reads a public page starts before the app's script has run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOKEN_KEY, withQuery } from '../../client/api.ts';
import { TOKEN_KEY as FIRST_READS_TOKEN_KEY, firstReadsOf } from '../../client/first-reads.ts';

describe('firstReadsOf', () => {
  it("names each public page's first reads as its api.get calls spell them", () => {
    assert.deepEqual(firstReadsOf('/', ''), ['/api/frontpage', withQuery('/api/posts', { limit: 10 }), '/api/hashtags', '/api/ranks']);
    assert.deepEqual(firstReadsOf('/post/42', ''), ['/api/posts/42', withQuery('/api/ranks', { limit: 4 })]);
    assert.deepEqual(firstReadsOf('/ranks', ''), [withQuery('/api/hashtags', { limit: 6 }), '/api/ranks']);
    assert.deepEqual(firstReadsOf('/authors', ''), [withQuery('/api/authors', { skip: 0, limit: 50, sort_by: 'mojo_desc', search: '' })]);
  });

  it('starts nothing where the reads depend on more than the address', () => {
    for (const [path, search] of [['/ranks', '?hashtag=jazz'], ['/authors', '?x=1'], ['/post/abc', ''], ['/post/1/x', ''],
      ['/beatnik/ana', ''], ['/profile', ''], ['/admin', ''], ['/login', ''], ['/nowhere', '']] as const) {
      assert.deepEqual(firstReadsOf(path, search), [], path + search);
    }
  });

  it('reads the token where api.ts keeps it', () => assert.equal(FIRST_READS_TOKEN_KEY, TOKEN_KEY));
});
