/** Real engines on real files in temporary folders, for tests. No mocks of our own parts. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine, type EngineOptions } from '../engine.ts';

const TINY_MODEL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/tiny-model');

export type TestWorkspace = {
  home: string;
  files: string;
  write(name: string, content: string | Uint8Array): string;
  open(options?: Omit<EngineOptions, 'home'> & { model?: boolean }): Engine;
  cleanup(): Promise<void>;
};

export function createTestWorkspace(): TestWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'brain-test-'));
  const home = join(root, 'home');
  const files = join(root, 'files');
  mkdirSync(files, { recursive: true });
  const engines: Engine[] = [];
  return {
    home,
    files,
    write(name, content) {
      const path = join(files, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    open(options = {}) {
      const { model, ...rest } = options;
      // Without a model dir the engine looks in the (empty) test home and finds nothing: semantic off.
      const engine = Engine.open({
        home,
        modelDir: model ? TINY_MODEL_DIR : join(root, 'no-model'),
        ...rest,
      });
      engines.push(engine);
      return engine;
    },
    async cleanup() {
      for (const e of engines) await e.close().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A workspace holding these files (name -> text), added and indexed (model off). */
export async function indexedWorkspace(
  files: Record<string, string>,
): Promise<{ ws: TestWorkspace; engine: Engine }> {
  const ws = createTestWorkspace();
  const engine = ws.open();
  await engine.add(Object.entries(files).map(([name, text]) => ws.write(name, text)));
  await engine.index();
  return { ws, engine };
}

/**
 * Opens an engine as the local member `user`, as a `brain` process run with BRAIN_USER=`user`
 * opens it (acting as another member is for the local admin only, [R3] in docs/RETRIEVAL.md).
 * The test process's own BRAIN_USER is put back afterwards.
 */
export function openAsLocalUser(user: string, options: EngineOptions): Engine {
  const before = process.env.BRAIN_USER;
  process.env.BRAIN_USER = user;
  try {
    return Engine.open(options);
  } finally {
    if (before === undefined) delete process.env.BRAIN_USER;
    else process.env.BRAIN_USER = before;
  }
}
