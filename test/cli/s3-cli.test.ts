// The seeder and the admin CLI with images on S3: the pictures the seeder gives articles are
// objects in the bucket (none in DATA_DIR), and `stats` counts the bucket's images.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeS3, type FakeS3 } from '../fake-s3.ts';
import { ADMIN_BUNDLE, query, runScript, type Run } from './cli-helpers.ts';

describe('seed and stats with images on S3', () => {
  let s3: FakeS3;
  let dataDir: string;
  let seeded: Run;
  const env = () => ({ ...s3.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  before(async () => {
    s3 = await startFakeS3();
    dataDir = mkdtempSync(path.join(tmpdir(), 'beatnik-s3-seed-'));
    seeded = await runScript('scripts/seed.ts', dataDir, ['--users', '5', '--posts', '30', '--images', '0.5', '--seed', '3'], undefined, env());
  });
  after(async () => {
    await s3.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('every seeded picture is an object in the bucket, and nothing is left in the data directory', async () => {
    assert.equal(seeded.code, 0, seeded.stderr);
    const images = (await query<{ image: string }>(dataDir, 'SELECT image FROM posts WHERE image IS NOT NULL')).map((row) => row.image).sort();
    assert.ok(images.length > 0);
    assert.deepEqual(await s3.keys(), images);
    assert.ok(!existsSync(path.join(dataDir, 'uploads')));
    assert.deepEqual(readdirSync(dataDir).filter((name) => name.startsWith('.seed-pool')), [], 'the picture pool is removed');
  });

  test('stats counts the images in the bucket', async () => {
    const run = await runScript(ADMIN_BUNDLE, dataDir, ['stats'], undefined, env());
    assert.equal(run.code, 0, run.stderr);
    const count = (await query<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM posts WHERE image IS NOT NULL'))[0]!.n;
    assert.match(run.stdout, new RegExp(`^images +${count} files, \\d+\\.\\d MB \\(S3 bucket "${s3.bucket}" at ${s3.endpoint}\\)$`, 'm'));
  });
});
