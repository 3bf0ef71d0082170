/**
 * S3-compatible blob storage (AWS S3, MinIO, R2, …) through the official SDK. Selected by
 * `BRAIN_S3_BUCKET` (+ optional `BRAIN_S3_ENDPOINT`, `BRAIN_S3_REGION`, `BRAIN_S3_PREFIX`);
 * credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID, profiles, roles).
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStore } from './store.ts';

export type S3Config = { bucket: string; endpoint?: string; region?: string; prefix?: string };

export function s3ConfigFromEnv(env: NodeJS.ProcessEnv = process.env): S3Config | null {
  if (!env.BRAIN_S3_BUCKET) return null;
  return {
    bucket: env.BRAIN_S3_BUCKET,
    endpoint: env.BRAIN_S3_ENDPOINT || undefined,
    region: env.BRAIN_S3_REGION || env.AWS_REGION || 'us-east-1',
    prefix: env.BRAIN_S3_PREFIX || 'blobs/',
  };
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

export function createS3BlobStore(config: S3Config): BlobStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // MinIO and most self-hosted stores want path-style URLs.
    forcePathStyle: Boolean(config.endpoint),
  });
  const key = (hash: string) => `${config.prefix ?? ''}${hash}`;
  const head = async (hash: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: key(hash) }));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  return {
    kind: 's3',
    has: async (hash) => (await head(hash)) !== null,
    async get(hash) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key(hash) }));
        // On Node the SDK gives the body as an http IncomingMessage, a Readable.
        return { stream: out.Body as Readable, size: out.ContentLength ?? 0 };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(hash) {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key(hash) }));
    },
    async putFile(hash, path, size) {
      try {
        if ((await head(hash)) === null) {
          await client.send(
            new PutObjectCommand({
              Bucket: config.bucket,
              Key: key(hash),
              Body: createReadStream(path),
              ContentLength: size,
              ContentType: 'application/octet-stream',
            }),
          );
        }
      } finally {
        await rm(path, { force: true });
      }
    },
  };
}
