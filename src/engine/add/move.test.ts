import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

const HANDBOOK = `# Handbook

Intro to the onboarding handbook.

## Payroll

Salaries are paid on the 25th by the payroll desk.

## Travel

Book trains for trips under four hours.
`;

let ws: TestWorkspace;
let local: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  local = ws.open();
  local.addMember('alice', ['ops']);
  local.addMember('bob', ['ops']);
  local.addMember('carol', []);
});
afterEach(async () => {
  await ws.cleanup();
});

type Row = { id: string; storage_kind: string; scope: string; version: number; updated_at: string };

function rowsOf(engine: Engine, fileId: string): Row[] {
  return engine.db
    .prepare(
      `SELECT id, storage_kind, scope, version, updated_at FROM items WHERE id = ? OR file_id = ?
       ORDER BY rowid`,
    )
    .all(fileId, fileId) as Row[];
}

describe('[S24] re-adding a file never changes its scope', () => {
  it('keeps the scope for the same bytes and for new bytes, and reports scopeKept', async () => {
    const alice = ws.open({ user: 'alice' });
    const path = ws.write('handbook.md', HANDBOOK);
    const [file] = (await alice.add([path])).added;
    const same = await alice.add([path], { scope: 'team:ops' });
    expect(same.unchanged.map((u) => u.id)).toEqual([file?.id]);
    expect(same.scopeKept).toEqual([
      { id: file?.id, label: 'handbook.md', path: file?.path, scope: 'org', asked: 'team:ops' },
    ]);
    writeFileSync(path, `${HANDBOOK}\n## Food\n\nLunch is at noon.\n`);
    const changed = await alice.add([path], { scope: 'user:alice' });
    expect(changed.added.map((a) => a.id)).toEqual([file?.id]);
    expect(changed.scopeKept?.map((k) => [k.scope, k.asked])).toEqual([['org', 'user:alice']]);
    expect(rowsOf(alice, file?.id ?? '')[0]?.scope).toBe('org');
  });

  it('reports nothing when no scope was asked for, or the same one', async () => {
    const alice = ws.open({ user: 'alice' });
    const path = ws.write('ops.md', HANDBOOK);
    await alice.add([path], { scope: 'team:ops' });
    expect((await alice.add([path])).scopeKept).toEqual([]);
    expect((await alice.add([path], { scope: 'team:ops' })).scopeKept).toEqual([]);
  });
});

describe('[S24] moving a file to another scope', () => {
  it('moves the file and its sections and re-files their vectors: only the new scope finds it', async () => {
    const alice = ws.open({ user: 'alice', model: true });
    const [file] = (await alice.add([ws.write('handbook.md', HANDBOOK)], { scope: 'user:alice' })).added;
    const id = file?.id ?? '';
    await alice.index();
    const before = rowsOf(alice, id);
    const fts = alice.db.prepare('SELECT COUNT(*) AS n FROM items_fts').get();
    expect(alice.planMove(id, 'team:ops')).toMatchObject({ from: 'user:alice', to: 'team:ops', sections: 3 });
    const result = alice.move(id, 'team:ops');
    expect(result).toMatchObject({ moved: true, items: before.length, vectors: before.length });
    const after = rowsOf(alice, id);
    for (const [i, row] of after.entries()) {
      expect(row.scope).toBe('team:ops');
      expect(row.version).toBe((before[i]?.version ?? 0) + 1);
      expect(row.updated_at > (before[i]?.updated_at ?? '')).toBe(true);
    }
    const vectors = alice.db
      .prepare(
        'SELECT DISTINCT v.scope FROM vec_items v JOIN items i ON i.rowid = v.item_rowid WHERE i.id = ?',
      )
      .all(id);
    expect(vectors).toEqual([{ scope: 'team:ops' }]);
    expect(alice.db.prepare('SELECT COUNT(*) AS n FROM items_fts').get()).toEqual(fts);
    const bob = ws.open({ user: 'bob', model: true });
    const carol = ws.open({ user: 'carol', model: true });
    for (const mode of ['vector', 'keyword'] as const) {
      const found = await bob.search('salaries paid payroll desk', { k: 8, mode });
      expect(found.hits.some((h) => h.id === id || h.citation?.fileId === id)).toBe(true);
      const hidden = await carol.search('salaries paid payroll desk', { k: 8, mode });
      expect(hidden.hits.some((h) => h.id === id || h.citation?.fileId === id)).toBe(false);
    }
    expect(alice.move(id, 'team:ops')).toMatchObject({ moved: false, items: 0 });
  });

  it('records every moved row for sync when connected', async () => {
    const alice = ws.open({ user: 'alice' });
    const [file] = (await alice.add([ws.write('handbook.md', HANDBOOK)])).added;
    await alice.index();
    alice.db.prepare("UPDATE sync_state SET server = 'http://fake', user_id = 'alice' WHERE id = 1").run();
    alice.db.prepare('DELETE FROM sync_changes').run();
    alice.move(file?.id ?? '', 'team:ops');
    const changed = alice.db.prepare("SELECT ref FROM sync_changes WHERE kind = 'item' ORDER BY ref").all();
    expect(changed).toEqual(
      rowsOf(alice, file?.id ?? '')
        .map((r) => ({ ref: r.id }))
        .sort((a, b) => a.ref.localeCompare(b.ref)),
    );
  });

  it('moves a note the same way', () => {
    const note = upsertNote(local.db, local.workspaceId, {
      kind: 'fact',
      label: 'Door code',
      body: 'The door code changes every month.',
      scope: 'org',
      actor: 'alice',
      source: 'test',
    });
    const alice = ws.open({ user: 'alice' });
    expect(alice.move(note.id, 'user:alice')).toMatchObject({ storageKind: 'note', moved: true, items: 1 });
  });
});

describe('[S24] who may move what where', () => {
  it('refuses a mover who is neither the author nor a workspace admin', async () => {
    const alice = ws.open({ user: 'alice' });
    const [file] = (await alice.add([ws.write('handbook.md', HANDBOOK)])).added;
    const bob = ws.open({ user: 'bob' });
    expect(() => bob.move(file?.id ?? '', 'team:ops')).toThrow(
      /bob cannot move handbook.md: only its author \(alice\) or a workspace admin can/,
    );
    // Connected, the server says who is an admin ([S24]): bob once it says so, and nobody else.
    bob.db.prepare("UPDATE sync_state SET server = 'http://fake', user_id = 'bob', is_admin = 1").run();
    expect(() => local.planMove(file?.id ?? '', 'team:ops')).toThrow(/only its author/);
    expect(bob.move(file?.id ?? '', 'team:ops').moved).toBe(true);
  });

  it('refuses a scope the author cannot see, even for an admin', async () => {
    local.addMember(local.user, ['secret']);
    const alice = ws.open({ user: 'alice' });
    const [file] = (await alice.add([ws.write('handbook.md', HANDBOOK)])).added;
    expect(() => local.move(file?.id ?? '', 'team:secret')).toThrow(
      /its author \(alice\) cannot see team:secret/,
    );
    expect(rowsOf(local, file?.id ?? '')[0]?.scope).toBe('org');
  });

  it('refuses a scope the mover cannot write, unknown scopes, sections and unseen items', async () => {
    const alice = ws.open({ user: 'alice' });
    const [file] = (await alice.add([ws.write('handbook.md', HANDBOOK)], { scope: 'user:alice' })).added;
    const id = file?.id ?? '';
    expect(() => alice.move(id, 'team:secret')).toThrow(/alice cannot move handbook.md to team:secret/);
    expect(() => alice.move(id, 'galaxy')).toThrow(/Unknown scope/);
    expect(() => ws.open({ user: 'bob' }).move(id, 'org')).toThrow(/No item with id/);
    await alice.index();
    const section = rowsOf(alice, id).find((r) => r.storage_kind === 'section');
    expect(() => alice.move(section?.id ?? '', 'org')).toThrow(/is a section: move its file/);
  });
});
