// `npm start` and `npm run admin` build once: their prestart and preadmin step rebuilds only when
// a source is newer than the last build, and says so on stderr, leaving the command's stdout to
// it. Run in a copy of the project, so the checkout's own dist/ is left alone.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { onPostgres } from '../postgres-databases.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const COPIED = ['client', 'server', 'shared', 'migrations', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];
let project: string;

/** The step `npm start` (or `npm run admin`) runs first, exactly as package.json names it;
 * what it said. */
async function prestart(step = 'prestart'): Promise<string> {
  const { scripts } = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8'));
  const [command, ...args] = String(scripts[step]).split(' ');
  assert.equal(command, 'node');
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: project });
  assert.equal(stdout, '', 'the command after it has stdout to itself');
  return stderr;
}

const builtAt = () => statSync(path.join(project, 'dist/server/main.js')).mtimeMs;

// The build does not touch a database: once, on SQLite.
describe('the build before `npm start`', { skip: onPostgres && 'the build has no database: run on SQLite' }, () => {
  before(() => {
    project = mkdtempSync(path.join(tmpdir(), 'beatnik-build-'));
    for (const entry of COPIED) cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  test('a second start does not rebuild; a changed source does', async () => {
    assert.match(await prestart(), /^build: dist\/server\/main\.js /, 'the first start builds');
    const first = builtAt();
    // V8 holds a source with one character outside Latin-1 at two bytes a character (server-bundle.ts).
    for (const bundle of ['main.js', 'admin.js', 'sqlite.ranks-worker.js']) {
      assert.doesNotMatch(readFileSync(path.join(project, 'dist/server', bundle), 'utf8'), /[^\x00-\x7f]/, `${bundle} is ASCII`);
    }

    assert.match(await prestart(), /^build: dist\/ is up to date/);
    assert.equal(builtAt(), first, 'nothing was rewritten');

    // Saved after that build, as an editor or a `git pull` would.
    const now = new Date();
    utimesSync(path.join(project, 'client/App.tsx'), now, now);
    assert.match(await prestart(), /^build: dist\/server\/main\.js /, 'a newer source rebuilds');
    assert.ok(builtAt() > first);

    assert.match(await prestart(), /^build: dist\/ is up to date/);

    // The admin CLI is in the bundle: a change to it rebuilds before `npm run admin`.
    const built = builtAt();
    utimesSync(path.join(project, 'scripts/admin/stats.ts'), new Date(), new Date());
    assert.match(await prestart('preadmin'), /^build: dist\/server\/main\.js /);
    assert.ok(builtAt() > built);
    assert.match(await prestart('preadmin'), /^build: dist\/ is up to date/);
  });
});
