// The configuration tables in README.md and docs/operations.md say what the server does: every
// variable it reads is there, and the defaults written down are the defaults it uses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../server/config.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** `| `NAME` | default | meaning |` rows → NAME → default, as written. */
function configTable(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const match of markdown.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)) rows.set(match[1]!, match[2]!.trim());
  return rows;
}

const variablesRead = [...read('server/config.ts').matchAll(/env\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!);

for (const doc of ['README.md', 'docs/operations.md']) {
  test(`${doc} lists every variable with the default the server uses`, () => {
    const table = configTable(read(doc));
    assert.deepEqual(variablesRead.filter((name) => !table.has(name)), [], 'variables missing from the table');
    const defaults = loadConfig({});
    assert.equal(table.get('HOST'), `\`${defaults.host}\``);
    assert.equal(table.get('PORT'), `\`${defaults.port}\``);
    assert.equal(table.get('LOG_LEVEL'), `\`${defaults.logLevel}\``);
    assert.equal(table.get('PUBLIC_URL'), '`http://localhost:{PORT}`');
    assert.equal(defaults.publicUrl, `http://localhost:${defaults.port}`);
    assert.equal(table.get('TRUSTED_PROXY'), 'none');
    assert.equal(defaults.trustProxy, false);
    const s3 = loadConfig({ S3_ENDPOINT: 'http://s3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3!;
    assert.equal(table.get('S3_REGION'), `\`${s3.region}\``);
    assert.equal(table.get('S3_FORCE_PATH_STYLE'), `\`${s3.forcePathStyle}\``);
  });
}

test('README says where the server listens, as the default does', () => {
  const readme = read('README.md');
  assert.equal(loadConfig({}).host, '0.0.0.0');
  assert.match(readme, /listens on all interfaces \(`HOST=0\.0\.0\.0`\)/);
  assert.doesNotMatch(readme, /serves http:\/\/localhost/, 'it serves every interface, not only localhost');
});

test('the compose file sets only variables the server reads, and a valid configuration with them', () => {
  const compose = read('docs/compose/compose.yaml');
  const block = compose.slice(compose.indexOf('x-beatnik:'), compose.indexOf('\nservices:'));
  const settings = [...block.matchAll(/^ {4}([A-Z][A-Z0-9_]*): (.+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
  assert.deepEqual(settings.map(([name]) => name).filter((name) => !variablesRead.includes(name)), []);
  for (const needed of ['DATABASE_URL', 'JWT_SECRET', 'S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
    assert.ok(settings.some(([name]) => name === needed), `${needed} is set for every instance`);
  }
  // env.example leaves the secrets empty, and compose's ${VAR:?…} refuses to start until they are
  // set: a placeholder long enough to pass would sign everyone's tokens with a published secret.
  const example = new Map([...read('docs/compose/env.example').matchAll(/^([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  for (const secret of ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'JWT_SECRET']) {
    assert.equal(example.get(secret), '', `${secret} is left empty in env.example`);
    assert.match(compose, new RegExp(`\\$\\{${secret}:\\?`), `compose refuses to start without ${secret}`);
  }
  // Filled in as an operator would (openssl rand), then substituted as docker compose does.
  const filled = new Map([...example, ['POSTGRES_PASSWORD', 'a1b2c3d4e5f6a1b2c3d4e5f6'], ['MINIO_ROOT_PASSWORD', 'f6e5d4c3b2a1'],
    ['JWT_SECRET', 'q'.repeat(64)]]);
  const env = Object.fromEntries(settings.map(([name, value]) => [name,
    value.replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_, v: string) => filled.get(v) ?? '')]));
  const config = loadConfig(env);
  assert.match(config.databaseUrl!, /^postgres:\/\/beatnik:.+@postgres:5432\/beatnik$/);
  assert.equal(config.s3?.endpoint, 'http://minio:9000');
  assert.ok(config.jwtSecret.length >= 32);
});

test('the compose file\'s bucket maker is a script sh accepts', () => {
  // The list form's literal block, as compose hands it to `sh -c` ($$ is compose's escaped $).
  const compose = read('docs/compose/compose.yaml');
  const block = /^ {4}entrypoint:\n {6}- sh\n {6}- -c\n {6}- \|\n((?: {8}.*\n)+)/m.exec(compose);
  assert.ok(block, 'minio-bucket runs sh -c with a literal block');
  const script = block[1]!.replace(/^ {8}/gm, '').replaceAll('$$', '$');
  assert.match(script, /mc mb --ignore-existing local\/beatnik-images/);
  const check = spawnSync('sh', ['-n', '-c', script], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
});
