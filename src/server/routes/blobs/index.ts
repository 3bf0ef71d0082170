/**
 * Blobs by sha256 ([S13], [S27]). PUT streams the body to a temporary file while hashing it and
 * stores it only when the hash matches the URL (anything else: 400 "wrong sha256", nothing
 * stored), within the member's storage quota, and records that this member holds those bytes.
 * GET and HEAD answer only when the user can see an item that references the blob (every
 * reference was checked when it was pushed); otherwise 404, exactly as
 * for a missing blob, so nobody learns what exists in scopes they cannot see.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BLOB_MAX_BYTES, ROUTES } from '#shared/sync/protocol.ts';
import type { AppContext } from '../../app.ts';
import { type Actor, actorOf } from '../../auth.ts';
import { assertQuota, canRead, recordUpload } from '../../blobs/uploads.ts';
import { badRequest, notFound, tooLarge } from '../../errors.ts';
import { visibleScopes } from '../../scopes.ts';
import { parseWith, routePattern } from '../parse.ts';
import { HashParamSchema } from './schema.ts';

async function assertCanRead(ctx: AppContext, actor: Actor, hash: string): Promise<void> {
  const scopes = await visibleScopes(ctx.db, actor.user);
  if (!(await canRead(ctx.db, scopes, hash))) throw notFound(`No blob ${hash} visible to ${actor.user}.`);
}

/** Streams `body` to a temp file, counting and hashing; returns the file, its size and hash. */
async function receive(
  ctx: AppContext,
  body: Readable,
): Promise<{ path: string; size: number; hash: string }> {
  await mkdir(ctx.uploadDir, { recursive: true, mode: 0o700 }); // [M1] in docs/SECURITY.md
  const path = join(ctx.uploadDir, `upload-${randomBytes(8).toString('hex')}`);
  const hasher = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > BLOB_MAX_BYTES) throw tooLarge(BLOB_MAX_BYTES);
          hasher.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(path, { mode: 0o600 }),
    );
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return { path, size, hash: hasher.digest('hex') };
}

/** The advisory lock class of one member's uploads (the second key is the member's name, hashed). */
const QUOTA_LOCK = 4242002;

async function putBlob(ctx: AppContext, actor: Actor, req: FastifyRequest, hash: string) {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BLOB_MAX_BYTES) throw tooLarge(BLOB_MAX_BYTES);
  // Refused before the body is read when it is known to be too much.
  await assertQuota(ctx.db, actor.user, hash, declared, ctx.blobQuotaBytes);
  const file = await receive(ctx, req.body as Readable);
  try {
    if (file.hash !== hash)
      throw badRequest(`wrong sha256: the body hashes to ${file.hash}, not ${hash}; nothing stored.`);
    // The last check, the bytes and the record are one step per member: uploads sent side by side
    // would each pass a check made before any of them was recorded. A transaction-scoped lock on
    // the member (PGlite runs one transaction at a time anyway).
    await ctx.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [QUOTA_LOCK, actor.user]);
      await assertQuota(tx, actor.user, hash, file.size, ctx.blobQuotaBytes);
      await ctx.blobs.putFile(hash, file.path, file.size);
      await recordUpload(tx, actor.user, hash, file.size, ctx.clock.now().toISOString());
    });
  } catch (err) {
    await rm(file.path, { force: true });
    throw err;
  }
  return { hash, size: file.size };
}

export function registerBlobRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Blob bodies stay streams: no buffering of up to BLOB_MAX_BYTES in memory.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  const path = routePattern(ROUTES.blob, 'hash');
  app.put(path, async (req, reply) => {
    const actor = actorOf(req);
    const { hash } = parseWith(HashParamSchema, req.params, 'blob hash');
    const stored = await putBlob(ctx, actor, req, hash);
    req.log.info({ user: actor.user, hash, size: stored.size }, 'blob stored');
    return reply.status(201).send(stored);
  });
  app.get(path, { exposeHeadRoute: false }, async (req, reply) => {
    const actor = actorOf(req);
    const { hash } = parseWith(HashParamSchema, req.params, 'blob hash');
    await assertCanRead(ctx, actor, hash);
    const blob = await ctx.blobs.get(hash);
    if (!blob) throw notFound(`No blob ${hash} on this server yet.`);
    reply.header('content-type', 'application/octet-stream').header('content-length', blob.size);
    return reply.send(blob.stream);
  });
  app.head(path, async (req, reply) => {
    const actor = actorOf(req);
    const { hash } = parseWith(HashParamSchema, req.params, 'blob hash');
    await assertCanRead(ctx, actor, hash);
    if (!(await ctx.blobs.has(hash))) throw notFound(`No blob ${hash} on this server yet.`);
    return reply.status(200).send();
  });
}
