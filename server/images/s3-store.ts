// Images as objects in an S3-compatible bucket (AWS, MinIO, …), keyed by their name, so that
// several instances share them (DESIGN.md, More than one box). Served through s3-serve.ts.
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { S3Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { HttpError } from '../errors.ts';
import type { Logger } from '../log.ts';
import {
  IMAGE_CONTENT_TYPE, IMAGE_MAX_AGE_SECONDS, isImageName, STORAGE_UNAVAILABLE, type ArchiveShelf, type ImageStore,
} from './image-store.ts';
import { serveFromS3 } from './s3-serve.ts';

export { STORAGE_UNAVAILABLE };

/**
 * Every request to the store gives up after this long, retries included: a store that stops
 * answering (its process alive but silent) costs an upload or an image request 10 s at most,
 * then a 503, never a request held open (docs/operations.md).
 */
export const STORE_TIMEOUT_MS = 10_000;

/** Where backup archives go in the bucket, beside the images (whose names have no slash). */
export const ARCHIVE_PREFIX = 'backups/';

export async function createS3Store(s3: S3Config, log: Logger): Promise<ImageStore> {
  // Loaded here, not imported at the top: the SDK (several MB) stays out of the server bundle
  // (scripts/build.ts) and out of memory unless S3 is configured.
  const {
    DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command,
    PutObjectCommand, S3Client,
  } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // Checksums only where S3 requires them: MinIO and other S3-compatible stores do not all
    // accept the newer checksum headers the SDK would add to every upload by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Kept-alive connections, more of them than the SDK's 50: every image a page shows is a
    // request to the bucket. A dead endpoint fails in seconds, not at the OS's TCP timeout; a
    // silent one too, by the bound below and, while an image streams, by the socket's idleness.
    requestHandler: {
      connectionTimeout: 5_000,
      socketTimeout: STORE_TIMEOUT_MS,
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  });
  /**
   * Sends a command, bounded by STORE_TIMEOUT_MS until its answer arrives (the SDK's own
   * timeouts bound each attempt, and it retries). A GetObject's body streams after that, under
   * the socket's idle timeout, so a slow reader of a large image is not cut off.
   */
  const bounded = async <T>(sending: (options: { abortSignal: AbortSignal }) => Promise<T>): Promise<T> => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${STORE_TIMEOUT_MS / 1000} s`)), STORE_TIMEOUT_MS);
    try {
      return await sending({ abortSignal: abort.signal });
    } finally {
      clearTimeout(timer);
    }
  };
  const { bucket } = s3;
  const location = `S3 bucket "${bucket}" at ${s3.endpoint}`;
  const keyOf = (name: string) => {
    if (!isImageName(name)) throw new Error(`Not an image name: ${JSON.stringify(name)}`);
    return name;
  };
  const put = async (name: string, bytes: Buffer) => {
    try {
      await bounded((options) => client.send(new PutObjectCommand({
        Bucket: bucket, Key: keyOf(name), Body: bytes, ContentType: IMAGE_CONTENT_TYPE,
        // For a CDN or proxy put in front of the bucket some day: the same caching as /uploads.
        CacheControl: `public, max-age=${IMAGE_MAX_AGE_SECONDS}, immutable`,
      }), options));
    } catch (err) {
      log.error({ err, name, bucket, endpoint: s3.endpoint }, 'could not store an image in S3');
      throw new HttpError(503, STORAGE_UNAVAILABLE);
    }
  };

  /** Every key under `prefix` (empty: the whole bucket), page by page, each bounded. */
  const keys = async (prefix: string) => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await bounded((options) => client.send(new ListObjectsV2Command({
        Bucket: bucket, ContinuationToken: token, Prefix: prefix || undefined,
      }), options));
      token = page.NextContinuationToken;
      for (const object of page.Contents ?? []) if (object.Key) found.push(object.Key);
    } while (token);
    return found;
  };
  const archives: ArchiveShelf = {
    location: `backups/ in ${location}`,
    async put(name, file) {
      // An archive may take longer than STORE_TIMEOUT_MS to send: the socket's idleness bounds it.
      await client.send(new PutObjectCommand({
        Bucket: bucket, Key: `${ARCHIVE_PREFIX}${name}`, Body: createReadStream(file),
        ContentLength: (await stat(file)).size, ContentType: 'application/gzip',
      }));
    },
    list: async () => (await keys(ARCHIVE_PREFIX)).map((key) => key.slice(ARCHIVE_PREFIX.length)).filter((name) => name !== ''),
    async remove(name) {
      await bounded((options) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${ARCHIVE_PREFIX}${name}` }), options));
    },
  };

  return {
    location,
    archives,
    names: async () => (await keys('')).filter(isImageName).sort(),
    async saveTo(name, file) {
      const object = await bounded((options) => client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(name) }), options));
      await writeFile(file, await object.Body!.transformToByteArray(), { flag: 'wx' });
    },
    async check() {
      try {
        await bounded((options) => client.send(new HeadBucketCommand({ Bucket: bucket }), options));
      } catch (err) {
        throw new ConfigError(bucketProblem(err, s3));
      }
    },
    put,
    // Images are small (a few hundred KB at most): one read, one PUT with a known length.
    putFile: async (name, file) => put(name, await readFile(file)),
    async remove(name) {
      try {
        await bounded((options) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(name) }), options));
      } catch (err) {
        // What asked for the removal (a deleted post, a new avatar) has happened: a leftover
        // object costs a little space and is no reason to fail the request.
        log.warn({ err, name, bucket, endpoint: s3.endpoint }, 'could not remove an image from S3; it stays in the bucket');
      }
    },
    async usage() {
      let files = 0;
      let bytes = 0;
      let token: string | undefined;
      do {
        // Page by page, each bounded as every request is.
        const page = await bounded((options) => client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }), options));
        token = page.NextContinuationToken;
        for (const object of page.Contents ?? []) {
          if (!object.Key || !isImageName(object.Key)) continue;
          files += 1;
          bytes += object.Size ?? 0;
        }
      } while (token);
      return { files, bytes };
    },
    async size(name) {
      if (!isImageName(name)) return undefined;
      try {
        return (await bounded((options) => client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }), options))).ContentLength;
      } catch (err) {
        // A feed then goes out without the image's size, which is optional everywhere but RSS.
        log.warn({ err, name, bucket, endpoint: s3.endpoint }, 'could not read an image\'s size from S3');
        return undefined;
      }
    },
    serve: serveFromS3((input, head) => bounded((options) => (head
      ? client.send(new HeadObjectCommand({ Bucket: bucket, ...input }), options)
      : client.send(new GetObjectCommand({ Bucket: bucket, ...input }), options))), log),
  };
}

/** Why HeadBucket failed, as one line naming the setting to change. */
function bucketProblem(err: unknown, s3: S3Config): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const where = `S3 bucket "${s3.bucket}" at ${s3.endpoint}`;
  const status = e.$metadata?.httpStatusCode;
  switch (status) {
    case 404: return `${where} does not exist (set S3_BUCKET, or create the bucket)`;
    case 403: return `${where} refused these credentials (set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`;
    case 301: return `${where} is in another region than ${s3.region} (set S3_REGION)`;
    case undefined: return `S3 endpoint ${s3.endpoint} cannot be reached: ${e.code ?? e.name ?? e.message} (set S3_ENDPOINT)`;
    default: return `${where} cannot be used: HTTP ${status} ${e.name} (check the S3_ settings)`;
  }
}
