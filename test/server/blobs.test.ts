/** Blobs: verified upload, reads only for users who can see an item that references the blob. */
import { request } from 'node:http';
import { expect, it } from 'vitest';
import { BLOB_MAX_BYTES, PROTOCOL_HEADER, PROTOCOL_VERSION, ROUTES } from '#shared/sync/protocol.ts';
import { buildItemOp, itemId, sha256 } from './factories.ts';
import { forEachBackend, useServer } from './harness.ts';

const bytes = new TextEncoder().encode('the quarterly numbers, in bytes');
const hash = sha256(bytes);

forEachBackend('blobs', (backend) => {
  const env = useServer(backend);

  it('[S13] upload by sha256, then GET and HEAD for a user who can see a referencing item', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    const put = await e.admin.putBlob(hash, bytes);
    expect(put.status).toBe(201);
    expect(put.body).toEqual({ hash, size: bytes.length });
    expect((await e.admin.putBlob(hash, bytes)).status).toBe(201);
    expect((await bob.headBlob(hash)).status).toBe(404);
    await e.admin.push([
      buildItemOp(itemId('f', 'f'), 'org', { item: { storage_kind: 'file', blob: hash } }),
    ]);
    expect((await bob.headBlob(hash)).status).toBe(200);
    const got = await bob.getBlob(hash);
    expect(got.status).toBe(200);
    expect(got.raw).toBe('the quarterly numbers, in bytes');
  });

  it('[S13] a wrong sha256 is a 400 and nothing is stored', async () => {
    const e = env();
    const other = sha256('something else');
    const r = await e.admin.putBlob(other, bytes);
    expect(r.status).toBe(400);
    expect((r.body as { error: { message: string } }).error.message).toMatch(/^wrong sha256/);
    expect(await e.server.blobs.has(other)).toBe(false);
    expect(await e.server.blobs.has(hash)).toBe(false);
    const bad = await e.admin.request('PUT', ROUTES.blob('NOT-A-HASH'), bytes);
    expect(bad.status).toBe(400);
  });

  it('[S13] a blob is not served to someone who cannot see any item that references it', async () => {
    const e = env();
    const bob = await e.admin.join('bob');
    await e.admin.putBlob(hash, bytes);
    const f = itemId('f', 'f');
    await e.admin.push([buildItemOp(f, 'user:admin', { item: { storage_kind: 'file', blob: hash } })]);
    expect((await e.admin.getBlob(hash)).status).toBe(200);
    const denied = await bob.getBlob(hash);
    expect(denied.status).toBe(404);
    expect(denied.raw).not.toContain('quarterly');
    expect((await bob.headBlob(hash)).status).toBe(404);
    expect((await bob.getBlob(sha256('never uploaded'))).status).toBe(404);
    // Uploading the same bytes proves bob has them, but reads go only through visible items ([S27]).
    expect((await bob.putBlob(hash, bytes)).status).toBe(201);
    expect((await bob.getBlob(hash)).status).toBe(404);
  });

  it('[S13] an upload above the limit is a 413 before any byte is stored', async () => {
    const e = env();
    // A raw request that announces more than the limit and sends only a little: the server
    // answers from the headers and never waits for (or stores) the rest.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${e.url}${ROUTES.blob(hash)}`, {
        method: 'PUT',
        agent: false,
        headers: {
          authorization: `Bearer ${e.admin.token}`,
          [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
          'content-type': 'application/octet-stream',
          'content-length': String(BLOB_MAX_BYTES + 1),
        },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      });
      req.on('error', reject);
      req.write(bytes);
    });
    expect(status).toBe(413);
    expect(await e.server.blobs.has(hash)).toBe(false);
  });

  it('[S1] blob routes need a token', async () => {
    const e = env();
    const { TestClient } = await import('./client.ts');
    const anon = new TestClient(e.url);
    expect((await anon.putBlob(hash, bytes)).status).toBe(401);
    expect((await anon.getBlob(hash)).status).toBe(401);
  });
});
