// The editor's toolbar as text changes (client/components/editor/markdownActions.ts): what each
// action does to the text and the selection, and that doing it twice takes it back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyEdit, markdownEdit, type MarkdownAction, type Selection } from '../../client/components/editor/markdownActions.ts';

/** `text` with the selection marked as « and », the action applied, the result marked the same way. */
function run(action: MarkdownAction, marked: string): string {
  const start = marked.indexOf('«');
  const end = marked.indexOf('»') - 1;
  const text = marked.replace('«', '').replace('»', '');
  const edit = markdownEdit(action, text, { start, end });
  const after = applyEdit(text, edit);
  const { start: s, end: e } = edit.select as Selection;
  return `${after.slice(0, s)}«${after.slice(s, e)}»${after.slice(e)}`;
}

test('bold, italic and code wrap the selection, or a placeholder to type over', () => {
  assert.equal(run('bold', 'a «word» b'), 'a **«word»** b');
  assert.equal(run('bold', 'a «» b'), 'a **«bold text»** b');
  assert.equal(run('italic', 'a «word» b'), 'a *«word»* b');
  assert.equal(run('code', 'a «x = 1» b'), 'a `«x = 1»` b');
});

test('the same action again takes the marks away; italic inside bold is not bold undone', () => {
  assert.equal(run('bold', 'a **«word»** b'), 'a «word» b');
  assert.equal(run('italic', 'a *«word»* b'), 'a «word» b');
  assert.equal(run('italic', 'a **«word»** b'), 'a ***«word»*** b');
});

test('a link: the selection its text and the address selected; an address its link', () => {
  assert.equal(run('link', 'see «the site» now'), 'see [the site](«https://») now');
  assert.equal(run('link', 'see «» now'), 'see [«link text»](https://) now');
  assert.equal(run('link', 'see «https://example.com» now'), 'see [«link text»](https://example.com) now');
});

test('quote, list and heading prefix each touched line, and take the prefix off when all have it', () => {
  assert.equal(run('quote', 'one\nt«wo\nthr»ee\nfour'), 'one\n«> two\n> three»\nfour');
  assert.equal(run('list', '«a\nb»'), '«- a\n- b»');
  assert.equal(run('list', '«- a\n- b»'), '«a\nb»');
  assert.equal(run('heading', 'Ti«»tle'), '## Ti«»tle');
  assert.equal(run('heading', '## Ti«»tle'), 'Ti«»tle');
});

test('code over several lines is a fenced block', () => {
  assert.equal(run('code', '«let a = 1;\nlet b = 2;»'), '```\n«let a = 1;\nlet b = 2;»\n```');
});
