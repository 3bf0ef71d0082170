/** Replicas as separate `brain` processes (their own BRAIN_HOME each), for end-to-end sync tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type CliResult, cli } from '../cli-process.ts';

export type Replica = {
  name: string;
  home: string;
  files: string;
  brain(...args: string[]): Promise<CliResult>;
  json<T>(...args: string[]): Promise<T>;
  write(name: string, content: string): string;
  dump(scopes?: readonly string[]): { items: unknown[]; edges: unknown[] };
};

export function makeRoot(): { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'brain-sync-e2e-'));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function makeReplica(root: string, name: string): Replica {
  const home = join(root, name);
  const files = join(root, `${name}-files`);
  mkdirSync(files, { recursive: true });
  const { brain, brainJson } = cli(home, { modelDir: join(root, 'no-model'), user: `local-${name}` });
  return {
    name,
    home,
    files,
    brain,
    json: brainJson,
    write(file, content) {
      const path = join(files, file);
      writeFileSync(path, content);
      return path;
    },
    dump(scopes) {
      const db = new Database(join(home, 'brain.db'), { readonly: true });
      try {
        return dumpDb(db, scopes);
      } finally {
        db.close();
      }
    },
  };
}

const ITEM_DUMP = `id, storage_kind, kind, label, summary, body, source_key, canonical_type, canonical_value, blob, format,
  size, file_id, ordinal, locator, indexed, health, scope, origin_actor, origin_source, origin_run, origin_at, occurred_at,
  retired_at, superseded_by, created_at, updated_at, version`;

function dumpDb(db: Database.Database, scopes?: readonly string[]): { items: unknown[]; edges: unknown[] } {
  const items = (
    db.prepare(`SELECT ${ITEM_DUMP} FROM items ORDER BY id`).all() as { id: string; scope: string }[]
  ).filter((r) => !scopes || scopes.includes(r.scope));
  const visible = new Set(items.map((r) => r.id));
  const edges = (
    db
      .prepare(
        `SELECT id, type, from_id, to_id, props, origin_actor, origin_source, origin_run, origin_at, retired_at
         FROM edges ORDER BY id`,
      )
      .all() as { from_id: string; to_id: string }[]
  ).filter((e) => visible.has(e.from_id) && visible.has(e.to_id));
  return { items, edges };
}

export type SyncOut = { pushed: number; pulled: number; pending: number; cursor: number; evicted?: number };
export type StatusOut = {
  user: string;
  scopes: string[];
  sync: {
    connected: boolean;
    state: string | null;
    pending: number;
    cursor: number;
    lastError: string | null;
  };
};
