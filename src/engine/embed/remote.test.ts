import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenMatches } from '#platform/http-guard.ts';
import { createEmbedder } from './embedder.ts';
import {
  createRemoteEmbedder,
  EMBED_PATH,
  fetchOwnerState,
  ownerFilePath,
  readLiveOwner,
  removeOwnerFile,
  serveEmbeddings,
  startEmbeddingOwner,
  writeOwnerFile,
} from './remote.ts';
import { cosine, TINY_MODEL_DIR, TINY_MODEL_ID } from './test-helpers.ts';
import type { Embedder } from './types.ts';

let home: string;
let server: Server | null = null;
const embedders: Embedder[] = [];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'brain-owner-'));
});
afterEach(async () => {
  for (const e of embedders.splice(0)) await e.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  rmSync(home, { recursive: true, force: true });
});

function tiny(): Embedder {
  const e = createEmbedder({ home, modelDir: TINY_MODEL_DIR });
  embedders.push(e);
  return e;
}

async function startOwner(embedder: Embedder, token = 'secret-token'): Promise<number> {
  const handler = serveEmbeddings(embedder, { token });
  const s = createServer((req, res) => {
    if (req.url === EMBED_PATH) void handler(req, res);
    else res.writeHead(404).end();
  });
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

describe('owner file', () => {
  it('is written 0600, read back while the pid lives, and removed only by its owner', () => {
    const owner = writeOwnerFile(home, { port: 1234, token: 't' });
    expect(owner.pid).toBe(process.pid);
    expect(statSync(ownerFilePath(home)).mode & 0o777).toBe(0o600);
    expect(readLiveOwner(home)).toEqual(owner);
    removeOwnerFile(home, process.pid + 1); // not ours: stays
    expect(readLiveOwner(home)).toEqual(owner);
    removeOwnerFile(home);
    expect(readLiveOwner(home)).toBeNull();
  });

  it('ignores a stale file whose process is gone, and garbage', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
    writeFileSync(ownerFilePath(home), JSON.stringify({ pid: dead, port: 1, token: 'x' }));
    expect(readLiveOwner(home)).toBeNull();
    writeFileSync(ownerFilePath(home), '{not json');
    expect(readLiveOwner(home)).toBeNull();
  });
});

describe('an owner without a server of its own (the app)', () => {
  it('serves on its own port, publishes owner.json, and steps aside for a live owner', async () => {
    const owner = await startEmbeddingOwner(tiny(), home);
    expect(owner).not.toBeNull();
    const published = readLiveOwner(home);
    expect(published).toMatchObject({ pid: process.pid, port: owner?.port });
    expect(await fetchOwnerState(published!)).toMatchObject({ status: 'on', modelId: TINY_MODEL_ID });
    expect(await startEmbeddingOwner(tiny(), home)).toBeNull(); // this one is alive
    await owner?.close();
    expect(readLiveOwner(home)).toBeNull();
    expect(await fetchOwnerState(published!)).toBeNull();
  });
});

describe('remote embedder', () => {
  it('gives the same vectors as the local model, through the owner', async () => {
    const local = tiny();
    const port = await startOwner(local);
    writeOwnerFile(home, { port, token: 'secret-token' });
    const owner = readLiveOwner(home);
    expect(owner).not.toBeNull();
    const state = await fetchOwnerState(owner!);
    expect(state).toMatchObject({ status: 'on', modelId: TINY_MODEL_ID });
    const remote = createRemoteEmbedder(owner!, { initialState: state! });
    embedders.push(remote);
    expect(remote.modelId()).toBe(TINY_MODEL_ID);
    const texts = ['pricing policy for annual plans', 'who owns the billing system'];
    const [a, b] = await remote.embed(texts);
    const [la, lb] = await local.embed(texts);
    expect(cosine(a!, la!)).toBeCloseTo(1, 5);
    expect(cosine(b!, lb!)).toBeCloseTo(1, 5);
    const many = await remote.embed(Array.from({ length: 130 }, (_, i) => `text ${i}`));
    expect(many).toHaveLength(130);
  });

  it('refuses a wrong token and a foreign Host', async () => {
    const port = await startOwner(tiny());
    const noToken = await fetch(`http://127.0.0.1:${port}${EMBED_PATH}`);
    expect(noToken.status).toBe(401);
    const bad = createRemoteEmbedder(
      { pid: process.pid, port, token: 'wrong' },
      { initialState: { status: 'on', modelId: TINY_MODEL_ID } },
    );
    await expect(bad.embedQuery('x')).rejects.toThrow(/token/);
    expect(await fetchOwnerState({ pid: process.pid, port, token: 'wrong' })).toBeNull();
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });

  it('falls back to a local embedder when the owner is gone', async () => {
    const port = await startOwner(tiny());
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;
    const remote = createRemoteEmbedder(
      { pid: process.pid, port, token: 'secret-token' },
      { initialState: { status: 'on', modelId: TINY_MODEL_ID }, fallback: tiny },
    );
    const v = await remote.embedQuery('still works');
    expect(v).toHaveLength(384);
    expect(remote.state().status).toBe('on');
  });
});
