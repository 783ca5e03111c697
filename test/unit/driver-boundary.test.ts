// One way to data (STYLE.md): only the dialect folder loads the database driver; everything else,
// the CLI and the seeder included, reaches the data through Kysely and so works on any database.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const loads = (module: string) => new RegExp(`(?:from\\s+|import\\(|require\\(|resolve\\()\\s*['"]${module}['"]`);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => `${dir}/${file.split(path.sep).join('/')}`);
}

const DRIVERS = [
  { driver: 'better-sqlite3', dialect: 'server/sqlite/' },
  { driver: 'pg', dialect: 'server/postgres/' },
];

for (const { driver, dialect } of DRIVERS) {
  test(`only ${dialect} loads ${driver}`, () => {
    const files = ['server', 'scripts', 'shared', 'client', 'migrations'].flatMap(sourceFiles);
    const loaders = files.filter((file) => loads(driver).test(readFileSync(path.join(ROOT, file), 'utf8')));
    assert.ok(loaders.some((file) => file.startsWith(dialect)), 'the pattern finds the dialect itself');
    assert.deepEqual(loaders.filter((file) => !file.startsWith(dialect)), []);
  });
}
