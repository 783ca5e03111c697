// The renderer's safety (DESIGN.md, Writing: Safety): no hostile input (test/fixtures/hostile-markdown.ts)
// yields an element, attribute or address a browser could run, nor takes over 50 ms to render. The
// output is read back by an HTML parser of its own (htmlparser2, as a browser would tokenize it),
// not by the sanitizer that wrote it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Parser } from 'htmlparser2';
import { renderMarkdown } from '../../server/markdown/markdown.render.ts';
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
