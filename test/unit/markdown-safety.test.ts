// The renderer's safety (DESIGN.md, Writing: Safety): no hostile input (test/fixtures/hostile-markdown.ts)
// yields an element, attribute or address a browser could run, nor takes over 50 ms to render. The
// output is read back by an HTML parser of its own (htmlparser2, as a browser would tokenize it),
// not by the sanitizer that wrote it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Parser } from 'htmlparser2';
import { renderMarkdown } from '../../server/markdown/markdown.render.ts';
import { sanitizeRemoteHtml, sanitizeRendered } from '../../server/markdown/markdown.sanitize.ts';
import { HOSTILE_MARKDOWN } from '../fixtures/hostile-markdown.ts';

/** Every element the stored HTML may hold, with the attributes each may carry. */
const ALLOWED: Record<string, readonly string[]> = {
  p: [], br: [], em: [], strong: [], s: [], code: ['class'], pre: [], blockquote: [], ul: [], ol: ['start'], li: [],
  h2: [], h3: [], hr: [], a: ['href', 'rel', 'class'],
};

/** An address as a browser reads it: entities decoded (the parser did), controls and spaces ignored, any case. */
const SAFE_HREF = /^(?:https?:|mailto:|\/(?![/\\]))/;

/** Everything wrong with a rendering: elements, attributes and addresses outside the allowlist. */
function problemsIn(html: string): string[] {
  const problems: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      const allowed = ALLOWED[name];
      if (!allowed) {
        problems.push(`<${name}>`);
        return;
      }
      for (const [attribute, value] of Object.entries(attributes)) {
        if (!allowed.includes(attribute)) problems.push(`<${name} ${attribute}>`);
        if (attribute === 'href' && !SAFE_HREF.test(value.replace(/[\u0000-\u0020\u007f-\u009f\u200b-\u200f\ufeff]/g, '').toLowerCase())) {
          problems.push(`href="${value}"`);
        }
        if (attribute === 'class' && !/^(?:mention|language-[^\s"'<>]+)$/.test(value)) problems.push(`class="${value}"`);
        if (attribute === 'start' && !/^\d+$/.test(value)) problems.push(`start="${value}"`);
      }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return problems;
}

/** Every name mentioned belongs to a user: mentions are made links wherever the text allows. */
const options = {
  siteOrigin: 'https://paper.example.org',
  findUsers: async (names: string[]) => names.map((name, i) => ({ id: i + 1, username: name })),
};

test('the checker itself finds what it looks for', () => {
  assert.deepEqual(problemsIn('<p>ok <a href="https://x.example" rel="ugc">x</a> <a href="/beatnik/a" class="mention">@a</a></p>'), []);
  assert.deepEqual(problemsIn('<img src=x onerror=alert(1)><a href="jav&#x09;ascript:alert(1)">x</a><p style="x">'), [
    '<img>', 'href="jav\tascript:alert(1)"', '<p style>',
  ]);
  assert.deepEqual(problemsIn('<a href=" JAVASCRIPT:x" onclick="y">'), ['href=" JAVASCRIPT:x"', '<a onclick>']);
});

test(`none of ${HOSTILE_MARKDOWN.length} hostile inputs yields something a browser would run`, async () => {
  assert.ok(HOSTILE_MARKDOWN.length >= 60);
  for (const input of HOSTILE_MARKDOWN) {
    const { html } = await renderMarkdown(input, options);
    assert.deepEqual(problemsIn(html), [], `${JSON.stringify(input.slice(0, 80))} → ${html.slice(0, 300)}`);
  }
});

/** The CPU time a render costs this process, in ms: what the machine's other work does not add to. */
async function renderCpuMs(input: string): Promise<number> {
  const started = process.cpuUsage();
  await renderMarkdown(input, options);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

test('none of them takes 50 ms to render (CPU time, the best of three runs)', async () => {
  for (const input of HOSTILE_MARKDOWN) {
    const best = Math.min(await renderCpuMs(input), await renderCpuMs(input), await renderCpuMs(input));
    assert.ok(best < 50, `${JSON.stringify(input.slice(0, 40))}… took ${best.toFixed(1)} ms`);
  }
});

// A reply from the fediverse is another server's HTML (DESIGN.md, Inbox), brought to the same
// allowlist: each hostile input is taken as that HTML, and as the HTML its Markdown renders to.
test(`none of them, as a remote server's HTML, yields something a browser would run`, async () => {
  const site = options.siteOrigin;
  for (const input of HOSTILE_MARKDOWN) {
    for (const html of [input, (await renderMarkdown(input, options)).html]) {
      const clean = sanitizeRemoteHtml(html, site);
      assert.deepEqual(problemsIn(clean), [], `${JSON.stringify(html.slice(0, 80))} → ${clean.slice(0, 300)}`);
      // Only absolute addresses (a path would be this site's), off the site always with the reader's rel.
      for (const link of clean.matchAll(/<a [^>]*>/g)) {
        assert.ok(!/href="\//.test(link[0]) && !/class=/.test(link[0]), link[0]);
        if (/href="https?:/.test(link[0]) && !link[0].includes(`href="${site}`)) assert.ok(link[0].includes('rel="ugc nofollow noopener noreferrer"'), link[0]);
      }
    }
  }
});

test('a remote server\'s HTML keeps its text and what the site shows, and loses the rest', () => {
  const site = 'https://paper.example.org';
  assert.equal(
    sanitizeRemoteHtml('<p>Hi <span class="h-card"><a href="https://m.example/@a" class="u-url mention">@<span>a</span></a></span></p><p>x<br>y</p>', site),
    '<p>Hi <a href="https://m.example/@a" rel="ugc nofollow noopener noreferrer">@a</a></p><p>x<br />y</p>',
  );
  assert.equal(sanitizeRemoteHtml(`<a href="${site}/post/1" rel="nofollow">ours</a><a href="/admin">path</a>`, site), `<a href="${site}/post/1">ours</a><a>path</a>`);
  assert.equal(sanitizeRemoteHtml('<h1>T</h1><b>b</b><i>i</i><del>d</del><script>alert(1)</script><style>p{}</style>', site), '<h2>T</h2><strong>b</strong><em>i</em><s>d</s>');
  assert.equal(sanitizeRemoteHtml('<p onclick="x()" style="color:red">a &lt; b</p>', site), '<p>a &lt; b</p>');
});

test('neither sanitizer lets a control or invisible character through, typed or as a reference; a joiner inside an emoji stays', () => {
  const site = 'https://paper.example.org';
  const html = '<p>a\u0000b &#0; c\u202Ed &#x202E;e &#8203;f &zwj;g &rlm;h &amp; &#60;i&#62; 👨&#x200D;👩</p>';
  const clean = '<p>ab  cd e f g h &amp; &#60;i&#62; 👨\u200D👩</p>';
  assert.equal(sanitizeRemoteHtml(html, site), clean);
  assert.equal(sanitizeRendered(html), clean);
});
