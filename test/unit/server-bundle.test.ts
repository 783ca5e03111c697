// The server bundle's characters outside ASCII, escaped: the same program, held in memory at one
// byte a character (server/server-bundle.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiOnly } from '../../server/server-bundle.ts';

test('escaped characters mean the same in strings, patterns and comments', () => {
  const source = String.raw`// a dash — and an ellipsis …
const trailing = /[\s.…,;:\-–—]+$/u;
const word = /^(…?)\s+/;
const text = "naïve — 📷";
const escaped = "\\" + "—";
export default { trailing: trailing.test('end…—'), word: word.exec('… a')?.[1], text, escaped };`;
  const ascii = asciiOnly(source);
  assert.doesNotMatch(ascii, /[^\x00-\x7f]/);
  const run = (code: string) => new Function(code.replace('export default', 'return'))();
  assert.deepEqual(run(ascii), run(source));
  assert.deepEqual(run(ascii), { trailing: true, word: '…', text: 'naïve — 📷', escaped: '\\—' });
});

test('a character after a backslash, whose escape would mean something else, fails the build', () => {
  assert.throws(() => asciiOnly(String.raw`const odd = /\…/;`), /cannot escape "…" after a backslash/);
});
