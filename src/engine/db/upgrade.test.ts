/**
 * Upgrading a workspace made by the previous release (migrations up to 0010, ids made without a
 * namespace) to this one: migration 0011 re-keys it to protocol-2 ids ([S25] in docs/SYNC_SPEC.md)
 * and keeps everything else: rows, the search index, edges, origins (kept under a user when they
 * named none), and disconnects a replica that was connected to an older server, saying why.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, describe, expect, it } from 'vitest';
import { agentId, brainVersionId, edgeId, ownedItemId, sectionId } from '../ids.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

const hex = (text: string) => createHash('sha256').update(text).digest('hex');
/** Ids as the previous release made them (workspace + source key). */
const oldItemId = (ws: string, prefix: string, key: string) =>
  `${prefix}_${hex(`${ws}\0${key}`).slice(0, 20)}`;

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function previousRelease(connected: boolean): Database.Database {
  dir = mkdtempSync(join(tmpdir(), 'brain-upgrade-'));
  const db = new Database(join(dir, 'brain.db'));
  sqliteVec.load(db);
  migrate(
    db,
    MIGRATIONS.filter((m) => m.id < '0011'),
  );
  const ws = 'ws-old';
  const now = '2026-11-30T00:00:00.000Z';
  db.prepare("INSERT INTO meta (key, value) VALUES ('workspace_id', ?)").run(ws);
  db.prepare('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)').run('dana', 'dana', now);
  const file = oldItemId(ws, 'f', 'file:/docs/handbook.md');
  const section = `s_${hex(`${ws}\0file:/docs/handbook.md`).slice(0, 8)}${hex(`${ws}\0file:/docs/handbook.md@ab#billing`).slice(0, 12)}`;
  const note = oldItemId(ws, 'n', 'writeback:p1');
  const insert = db.prepare(
    `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, file_id, indexed, scope,
       origin_actor, origin_source, origin_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 'org', ?, ?, ?, ?, ?)`,
  );
  insert.run(
    file,
    ws,
    'file',
    'markdown',
    'handbook.md',
    '',
    'file:/docs/handbook.md',
    null,
    'dana',
    'upload',
    now,
    now,
    now,
  );
  insert.run(
    section,
    ws,
    'section',
    'section',
    'Billing',
    'The billing migration is owned by Dana.',
    'file:/docs/handbook.md@ab#billing',
    file,
    'dana',
    'index',
    now,
    now,
    now,
  );
  // A write-back note from before origins named their user.
  insert.run(
    note,
    ws,
    'note',
    'decision',
    'Deploys',
    'Deploys happen before noon.',
    'writeback:p1',
    null,
    'claude',
    'writeback',
    now,
    now,
    now,
  );
  const rowid = (id: string) =>
    (db.prepare('SELECT rowid FROM items WHERE id = ?').get(id) as { rowid: number }).rowid;
  db.prepare('INSERT INTO items_fts (rowid, label, body) VALUES (?, ?, ?)').run(
    rowid(section),
    'Billing',
    'The billing migration is owned by Dana.',
  );
  const oldEdge = `g_${hex(`${file}\0HAS_SECTION`).slice(0, 8)}${hex(`${file}\0HAS_SECTION\0${section}`).slice(0, 12)}`;
  db.prepare(
    `INSERT INTO edges (id, type, from_id, to_id, origin_actor, origin_source, origin_at)
     VALUES (?, 'HAS_SECTION', ?, ?, 'dana', 'index', ?)`,
  ).run(oldEdge, file, section, now);
  if (connected) {
    db.prepare(
      "UPDATE sync_state SET server = 'http://old-server', user_id = 'dana', cursor = 40 WHERE id = 1",
    ).run();
  }
  return db;
}

describe('[S25] upgrading a workspace of the previous release', () => {
  it('re-keys items and edges to protocol-2 ids and keeps rows, index and origins', () => {
    const db = previousRelease(false);
    // Everything after the previous release, 0011's re-keying first.
    expect(migrate(db)[0]).toBe('0011-authority');
    const items = db
      .prepare('SELECT rowid, id, storage_kind, source_key, file_id, origin_actor FROM items')
      .all() as {
      rowid: number;
      id: string;
      storage_kind: string;
      source_key: string;
      file_id: string | null;
      origin_actor: string;
    }[];
    expect(items).toHaveLength(3);
    const file = items.find((i) => i.storage_kind === 'file');
    const section = items.find((i) => i.storage_kind === 'section');
    const note = items.find((i) => i.storage_kind === 'note');
    expect(file?.id).toBe(ownedItemId('ws-old', 'file', 'dana', 'file:/docs/handbook.md'));
    expect(section?.id).toBe(sectionId(file?.id ?? '', 'file:/docs/handbook.md@ab#billing'));
    expect(section?.file_id).toBe(file?.id);
    expect(note).toMatchObject({
      id: ownedItemId('ws-old', 'note', 'dana', 'writeback:p1'),
      origin_actor: 'writeback:claude/user:dana',
    });
    const edges = db.prepare('SELECT id, from_id, to_id FROM edges').all();
    expect(edges).toEqual([
      { id: edgeId(file?.id ?? '', 'HAS_SECTION', section?.id ?? ''), from_id: file?.id, to_id: section?.id },
    ]);
    // The full-text row still belongs to the section (rowids did not move).
    const hit = db.prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH 'billing'").get() as {
      rowid: number;
    };
    expect(hit.rowid).toBe(section?.rowid);
    db.close();
  });

  it('disconnects a replica connected to an older server, keeping its items, and says why', () => {
    const db = previousRelease(true);
    migrate(db);
    const state = db.prepare('SELECT server, cursor, last_error FROM sync_state').get();
    expect(state).toEqual({
      server: null,
      cursor: 0,
      last_error: expect.stringMatching(/sync protocol 2.*Connect again/),
    });
    expect((db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n).toBe(3);
    expect((db.prepare('SELECT COUNT(*) AS n FROM sync_changes').get() as { n: number }).n).toBe(0);
    db.close();
  });
});

describe('[G12] a workspace with agent brains from before agents had ids (migration 0023)', () => {
  it('gives each agent its id, each version one from its agent and number, and keeps versions and observations immutable', () => {
    dir = mkdtempSync(join(tmpdir(), 'brain-upgrade-'));
    const db = new Database(join(dir, 'brain.db'));
    sqliteVec.load(db);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.id < '0023'),
    );
    const ws = 'ws-agents';
    const now = '2026-11-30T00:00:00.000Z';
    db.prepare('INSERT INTO users (id, name, created_at) VALUES (?, ?, ?)').run('dana', 'dana', now);
    db.prepare(
      `INSERT INTO observations (id, workspace_id, agent, type, text, importance, scope, user_id, created_at)
       VALUES ('o_00000000000000000001', ?, 'coder', 'gotcha', 'node 20', 0.8, 'user:dana', 'dana', ?)`,
    ).run(ws, now);
    db.prepare(
      `INSERT INTO agents (workspace_id, name, scope, active_version, compare_a, compare_b, compare_split, created_at, updated_at)
       VALUES (?, 'coder', 'user:dana', 1, 1, 1, 50, ?, ?)`,
    ).run(ws, now, now);
    db.prepare(
      `INSERT INTO agent_brain_versions (id, workspace_id, agent, number, parent, brain, observation_ids, model, created_at, created_by)
       VALUES ('b_old', ?, 'coder', 1, NULL, '{"summary":"s","sections":{}}', '["o_00000000000000000001"]', 'm', ?, 'dana')`,
    ).run(ws, now);
    db.prepare(
      `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, ended_at, updated_at, brain_version)
       VALUES ('r1', ?, 'dana', 'coder', 'succeeded', '', 'skipped', ?, ?, 1)`,
    ).run(ws, now, now);
    migrate(db);
    const agent = agentId(ws, 'dana', 'coder');
    expect(db.prepare('SELECT id, creator, active_version, compare_since FROM agents').all()).toEqual([
      { id: agent, creator: 'dana', active_version: 1, compare_since: now },
    ]);
    expect(db.prepare('SELECT id, agent_id, number FROM agent_brain_versions').all()).toEqual([
      { id: brainVersionId(ws, agent, 1), agent_id: agent, number: 1 },
    ]);
    expect(db.prepare('SELECT agent_id, key FROM observations').get()).toEqual({
      agent_id: agent,
      key: 'o_00000000000000000001',
    });
    expect(db.prepare('SELECT agent_id FROM runs').get()).toEqual({ agent_id: agent });
    expect(() => db.prepare("UPDATE agent_brain_versions SET model = 'x'").run()).toThrow(/immutable/);
    expect(() => db.prepare('DELETE FROM agent_brain_versions').run()).toThrow(/immutable/);
    expect(() => db.prepare("UPDATE observations SET key = 'x'").run()).toThrow(/append-only/);
    db.close();
  });
});
