/**
 * Files at rest readable by their owner only ([M1] in docs/SECURITY.md): a workspace home and a
 * server data folder made through the real code hold only 0600 files and 0700 folders, and a
 * tree an older release left 0755/0644 is tightened when it is opened.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeOwnerFile } from '#engine/embed/remote.ts';
import { Engine } from '#engine/engine.ts';
import { fileKeyStore } from '#engine/llm/key-store.ts';
import { writeToken } from '#engine/sync/state.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, type RedeemResponse, ROUTES } from '#shared/sync/protocol.ts';
import { startServer } from '../src/server/main.ts';
import { TestClient } from './server/client.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'brain-modes-'));
  vi.stubEnv('BRAIN_USER', 'tester');
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
});

/** Every path under `dir` (and `dir`) whose mode is not 0700 for a folder or 0600 for a file. */
function loose(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (path: string) => {
    const rel = relative(dir, path) || '.';
    if (skip(rel)) return;
    const st = statSync(path);
    const mode = st.mode & 0o777;
    if (mode !== (st.isDirectory() ? 0o700 : 0o600)) out.push(`${mode.toString(8)} ${rel}`);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}

/** What a release before [M1] left behind: folders 0755, files 0644. */
function loosen(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) loosen(path);
    else chmodSync(path, 0o644);
  }
  chmodSync(dir, 0o755);
}

const countFiles = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? countFiles(join(dir, e.name)) : 1),
    0,
  );

describe.skipIf(process.platform === 'win32')('files at rest', () => {
  it('[M1] a workspace home holds 0600 files and 0700 folders, and an old loose one is tightened on open', async () => {
    const home = join(root, 'home');
    const files = join(root, 'files');
    mkdirSync(files);
    writeFileSync(join(files, 'plan.md'), '# Plan\n\nShip the quarterly numbers on Friday.\n');
    // Opened the way the CLI opens it (src/cli/context.ts), in a process with the usual umask.
    const engine = Engine.open({ home, modelDir: join(root, 'no-model') });
    expect((await engine.add([join(files, 'plan.md')])).added).toHaveLength(1);
    expect((await engine.index()).indexed).toHaveLength(1);
    writeToken(home, 'device-token');
    await fileKeyStore(home).write('sk-model-key');
    writeOwnerFile(home, { port: 1, token: 'owner-token' });
    // The journal files exist while the database is open; SQLite gives them the database's mode.
    expect(existsSync(join(home, 'brain.db-wal'))).toBe(true);
    expect(existsSync(join(home, 'brain.db-shm'))).toBe(true);
    expect(loose(home)).toEqual([]);
    await engine.close();
    expect(loose(home)).toEqual([]);
    expect(countFiles(join(home, 'blobs'))).toBe(1);

    loosen(home);
    expect(loose(home).length).toBeGreaterThan(5);
    const again = Engine.open({ home, modelDir: join(root, 'no-model') });
    expect(loose(home)).toEqual([]);
    await again.close();
    expect(loose(home)).toEqual([]);
  });

  it('[M1] a server data folder holds 0600 files and 0700 folders, and an old loose one is tightened on start', async () => {
    const data = join(root, 'data');
    const server = await startServer({ dataDir: data, port: 0, rateLimit: false });
    try {
      const speaks = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
      const code = server.firstInvite ?? '';
      const redeemed = await new TestClient(server.url).request<RedeemResponse>(
        'POST',
        ROUTES.redeem,
        { code, device: 'laptop' },
        speaks,
      );
      const admin = new TestClient(server.url, redeemed.body.token, redeemed.body.user);
      const bytes = new TextEncoder().encode('the quarterly numbers, in bytes');
      const hash = createHash('sha256').update(bytes).digest('hex');
      expect((await admin.request('PUT', ROUTES.blob(hash), bytes, speaks)).status).toBe(201);
      expect(existsSync(join(data, 'blobs', hash.slice(0, 2), hash))).toBe(true);
      // While PGlite runs it may rewrite its own files with its own modes: the 0700 data folder
      // is the guard then; everything else is already private.
      expect(loose(data, (rel) => rel.startsWith('db/'))).toEqual([]);
    } finally {
      await server.close();
    }
    expect(loose(data)).toEqual([]);

    loosen(data);
    expect(loose(data).length).toBeGreaterThan(100);
    const restarted = await startServer({ dataDir: data, port: 0, rateLimit: false });
    expect(loose(data, (rel) => rel.startsWith('db/'))).toEqual([]);
    await restarted.close();
    expect(loose(data)).toEqual([]);
  });
});
