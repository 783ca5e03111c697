// The layering STYLE.md asks for, checked on the source: routes → service → repo inside a
// feature, features calling each other's services one way only (driver-boundary.test.ts keeps
// better-sqlite3 in the dialect). A change that bends a rule fails here with what bends it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SERVER = path.resolve(import.meta.dirname, '../../server');

interface SourceFile { file: string; feature: string | undefined; imports: string[]; text: string }

function serverFiles(dir = SERVER): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(full);
    if (!entry.name.endsWith('.ts')) return [];
    const text = readFileSync(full, 'utf8');
    const relative = path.relative(SERVER, full);
    const imports = [...text.matchAll(/^import[^;]*? from '([^']+)'/gms)].map((m) => m[1]!);
    return [{ file: relative, feature: relative.includes(path.sep) ? relative.split(path.sep)[0] : undefined, imports, text }];
  });
}

/** The server file an import names, relative to server/, or undefined outside server/. */
function target(from: SourceFile, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const resolved = path.relative(SERVER, path.resolve(SERVER, path.dirname(from.file), specifier));
  return resolved.startsWith('..') ? undefined : resolved;
}

const files = serverFiles();
const featureOf = (file: string) => (file.includes(path.sep) ? file.split(path.sep)[0] : undefined);

test('no feature imports another feature\'s repo, and routes import no repo at all', () => {
  const bends = files.flatMap((f) => f.imports.map((i) => target(f, i)).filter((t): t is string => t !== undefined)
    .filter((t) => t.endsWith('.repo.ts') && (featureOf(t) !== f.feature || f.file.endsWith('.routes.ts')))
    .map((t) => `${f.file} → ${t}`));
  assert.deepEqual(bends, []);
});

test('no two features import each other, even through others', () => {
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    for (const t of f.imports.map((i) => target(f, i))) {
      const to = t && featureOf(t);
      if (f.feature && to && to !== f.feature) (edges.get(f.feature) ?? edges.set(f.feature, new Set()).get(f.feature)!).add(to);
    }
  }
  const cycles: string[] = [];
  const visit = (start: string, at: string, trail: string[]) => {
    for (const next of edges.get(at) ?? []) {
      if (next === start) cycles.push([...trail, next].join(' → '));
      else if (!trail.includes(next)) visit(start, next, [...trail, next]);
    }
  };
  for (const feature of edges.keys()) visit(feature, feature, [feature]);
  assert.deepEqual(cycles, []);
});

test('only repos build queries; services and routes ask repos', () => {
  const builders = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/;
  const offenders = files.filter((f) => /\.(service|routes)\.ts$/.test(f.file) && builders.test(f.text)).map((f) => f.file);
  assert.deepEqual(offenders, []);
});

test('no two server files import each other, even for types only, even through others', () => {
  const edges = new Map(files.map((f) => [f.file, f.imports.map((i) => target(f, i)).filter((t): t is string => t !== undefined)]));
  const cycles = new Set<string>();
  const visit = (start: string, at: string, trail: string[]) => {
    for (const next of edges.get(at) ?? []) {
      if (next === start) cycles.add([...trail].sort().join(' ↔ '));
      else if (!trail.includes(next) && next > start) visit(start, next, [...trail, next]);
    }
  };
  for (const file of edges.keys()) visit(file, file, [file]);
  assert.deepEqual([...cycles], []);
});
