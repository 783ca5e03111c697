// A local S3 for tests: s3rver in this process, on 127.0.0.1 and a free port, keeping its
// objects in a temporary directory. `env` is what Beatnik needs to store images in its bucket.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY for Beatnik. */
  env: Record<string, string>;
  /** Keys in the bucket, sorted. */
  keys(): Promise<string[]>;
  read(key: string): Promise<Buffer | undefined>;
  /** Puts an object straight into the bucket, as another instance would have. */
  write(key: string, bytes: Buffer): Promise<void>;
  stop(): Promise<void>;
}

export async function startFakeS3(bucket = 'beatnik-images'): Promise<FakeS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'beatnik-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint, region: 'us-east-1', forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return {
    endpoint,
    bucket,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: ACCESS_KEY },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async read(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (err) {
        if (status(err) === 404) return undefined;
        throw err;
      }
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async write(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: 'image/jpeg' }));
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
