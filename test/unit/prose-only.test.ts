// The one door for HTML (DESIGN.md, Writing; STYLE.md, Rendering user text): client/components/
// Prose.tsx is the only code that puts HTML on a page, and it is only ever handed a `content_html`
// the server rendered and sanitized (or the preview of one). Fails when anything else does.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PROSE = 'client/components/Prose.tsx';

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const code = ['client', 'server', 'shared'].flatMap(sources).map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));

test('only Prose.tsx sets HTML: no dangerouslySetInnerHTML, innerHTML or outerHTML anywhere else', () => {
  const setters = code.filter(({ text }) => /dangerouslySetInnerHTML|\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write/.test(text))
    .map(({ file }) => file);
  assert.deepEqual(setters, [PROSE]);
  assert.equal(code.find(({ file }) => file === PROSE)!.text.match(/dangerouslySetInnerHTML=/g)?.length, 1, 'used once, in its own render');
});

test('Prose is only handed a content_html from the server, or the preview of one', () => {
  const uses = code.flatMap(({ file, text }) => [...text.matchAll(/<Prose\b[^>]*?\bhtml=\{([^}]+)\}/g)].map((match) => ({ file, html: match[1]! })));
  assert.ok(uses.length >= 3, `${uses.length} uses found`);
  for (const { file, html } of uses) {
    assert.match(html, /^(?:[\w.]+\.content_html|preview\.html)$/, `${file}: <Prose html={${html}}>`);
  }
  const editor = code.find(({ file }) => file === 'client/components/editor/MarkdownEditor.tsx')!.text;
  assert.match(editor, /const \{ content_html \} = await api\.writing\.preview\(text\);\s+setPreview\(\{ state: 'ready', html: content_html/,
    'the preview shown is what POST /api/preview answered');
});
