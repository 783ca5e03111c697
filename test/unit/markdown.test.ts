// Markdown as the server renders it when a text is written (server/markdown/, DESIGN.md, Writing):
// what is supported and how it comes out, links and their rel, mentions, the plain text, reading
// time, and the rewriting of texts written before Markdown (migrations/0014) as the same display.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { escapeLegacyText } from '../../server/markdown/markdown.legacy.ts';
import { renderMarkdown, type RenderedText } from '../../server/markdown/markdown.render.ts';
import { htmlText } from '../../shared/html-text.ts';
import { readingMinutes } from '../../shared/reading.ts';

const SITE = 'https://paper.example.org';
const USERS = new Map([['ana', { id: 1, username: 'Ana' }], ['bob.b', { id: 2, username: 'bob.b' }]]);

function render(source: string): Promise<RenderedText> {
  return renderMarkdown(source, {
    siteOrigin: SITE,
    findUsers: async (names) => names.flatMap((name) => USERS.get(name) ?? []),
  });
}
const html = async (source: string) => (await render(source)).html;
const OFF_SITE = 'rel="ugc nofollow noopener noreferrer"';

test('the supported Markdown, with a single newline kept as a line break', async () => {
  const cases: Array<[string, string]> = [
    ['one\ntwo\n\nthree', '<p>one<br />\ntwo</p>\n<p>three</p>\n'],
    ['*em* _em_ **strong** __strong__ ~~gone~~ `code`', '<p><em>em</em> <em>em</em> <strong>strong</strong> <strong>strong</strong> <s>gone</s> <code>code</code></p>\n'],
    ['```js\nlet a = 1 < 2;\n```', '<pre><code class="language-js">let a = 1 &lt; 2;\n</code></pre>\n'],
    ['> quoted\n> still', '<blockquote>\n<p>quoted<br />\nstill</p>\n</blockquote>\n'],
    ['- a\n- b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n'],
    ['3. c\n4. d', '<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>\n'],
    ['---', '<hr />\n'],
  ];
  for (const [source, expected] of cases) assert.equal(await html(source), expected, source);
});

test('headings: the title is the only h1, so # is h2 and anything under ### is h3', async () => {
  assert.equal(await html('# One\n## Two\n### Three\n#### Four'), '<h2>One</h2>\n<h2>Two</h2>\n<h3>Three</h3>\n<h3>Four</h3>\n');
  assert.equal(await html('Setext\n======'), '<h2>Setext</h2>\n');
});

test('raw HTML is text, images are not shown, tables are not made', async () => {
  assert.equal(await html('<b>bold?</b> & <script>x</script>'), '<p>&lt;b&gt;bold?&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;</p>\n');
  assert.doesNotMatch(await html('![a cat](https://example.com/cat.png)'), /<img/);
  assert.doesNotMatch(await html('| a | b |\n|---|---|\n| 1 | 2 |'), /<table/);
});

test('links: http, https and mailto only; off the site with rel, on it without', async () => {
  assert.equal(await html('[x](https://example.com/a?b=1&c=2)'), `<p><a href="https://example.com/a?b=1&amp;c=2" ${OFF_SITE}>x</a></p>\n`);
  assert.equal(await html('[x](mailto:ana@example.com)'), `<p><a href="mailto:ana@example.com" ${OFF_SITE}>x</a></p>\n`);
  assert.equal(await html(`[x](${SITE}/post/3)`), `<p><a href="${SITE}/post/3">x</a></p>\n`);
  assert.equal(await html('[x](/post/3)'), '<p><a href="/post/3">x</a></p>\n');
  assert.equal(await html('see https://example.com/x.'), `<p>see <a href="https://example.com/x" ${OFF_SITE}>https://example.com/x</a>.</p>\n`);
  // Any other scheme, or an address that only looks like one, stays the text it was typed as.
  assert.equal(await html('[x](javascript:alert(1))'), '<p>[x](javascript:alert(1))</p>\n');
  assert.equal(await html('[x](ftp://example.com/f)'), '<p>[x](ftp://example.com/f)</p>\n');
  assert.equal(await html('[x](//example.com/f)'), '<p>[x](//example.com/f)</p>\n');
  assert.equal(await html('example.com and ana@example.com'), '<p>example.com and ana@example.com</p>\n');
});

test('@mentions of existing users link to their profile, whatever the case typed; others stay text', async () => {
  const rendered = await render('Thanks @ana, @BOB.B and @nobody! Not `@ana`, [@ana](https://x.example), mail@ana.org or \\@ana.');
  assert.equal(rendered.html, '<p>Thanks <a href="/beatnik/Ana" class="mention">@ana</a>, '
    + '<a href="/beatnik/bob.b" class="mention">@BOB.B</a> and @nobody! Not <code>@ana</code>, '
    + `<a href="https://x.example" ${OFF_SITE}>@ana</a>, mail@ana.org or @ana.</p>\n`);
  assert.deepEqual(rendered.mentioned, [{ id: 1, username: 'Ana' }, { id: 2, username: 'bob.b' }]);
  assert.deepEqual((await render('@ana @Ana @ANA')).mentioned, [{ id: 1, username: 'Ana' }], 'each user once');
});

test('the plain text: what excerpts, search and reading time read', async () => {
  const rendered = await render('## Head\n\nA *b* [link](https://example.com) & `c < d`\nnext\n\n- one\n- two\n\n> q');
  assert.equal(rendered.text, 'Head\n\nA b link & c < d\nnext\n\none\ntwo\n\nq');
  assert.equal(htmlText('<p>&lt;&amp;&gt;&quot;&#39;&#x41;&nbsp;z</p>'), '<&>"\'A\u00a0z');
});

test('reading time: words ÷ 230, rounded, at least a minute', () => {
  assert.equal(readingMinutes(''), 1);
  assert.equal(readingMinutes('word '.repeat(344)), 1);
  assert.equal(readingMinutes('word '.repeat(345)), 2);
  assert.equal(readingMinutes('word\n'.repeat(2300)), 10);
});

/** A text written before Markdown as the page showed it: white-space: pre-line, HTML-escaped. */
function legacyDisplay(text: string): string {
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const paragraphs: string[][] = [[]];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n').map((l) => l.replace(/^[ \t]+|[ \t]+$/g, ''))) {
    if (line === '') paragraphs.push([]);
    else paragraphs.at(-1)!.push(escape(line));
  }
  return paragraphs.filter((lines) => lines.length > 0).map((lines) => `<p>${lines.join('<br />\n')}</p>\n`).join('');
}

test('a text written before Markdown shows the same text and breaks once escaped, whatever it holds', async () => {
  const examples = [
    'Hello. It is 5-6 (ok)!\n\n- not a list\n# not a heading\n> not a quote\n1. not a list\nfoo\n===\nbar\n---',
    'C:\\Users\\me and a\\\nb', 'snake_case, _em_ and *stars*', '    four spaces, not code', '```\nnot a fence\n```',
    'see https://example.com and mailto:a@b.org', '&copy; &#169; [a](b) <i>x</i> ~~y~~ @ana', '[a]: /defined\n\n[a]',
  ];
  for (const text of examples) assert.equal(await html(escapeLegacyText(text)), legacyDisplay(text), text);
  const pieces = [
    'a', 'b', ' ', '\n', '\t', '#', '>', '-', '+', '*', '_', '=', '`', '~', '[', ']', '(', ')', '!', '<', '&', ';', '\\',
    '1', '.', ':', '/', '@', 'é', '|', '"', '&copy;', '&#65;', 'https://x.org', 'mailto:a@b.c', '@ana', '    ', '```',
    '---', '[a](http://x)', '[a]: /u', '1. ', 'x_y',
  ];
  await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), async (parts) => {
    const text = parts.join('');
    assert.equal(await html(escapeLegacyText(text)), legacyDisplay(text), JSON.stringify(text));
  }), { numRuns: 3_000 });
});
