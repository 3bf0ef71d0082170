/**
 * Versioned sources (docs/FACTS.md [K16]) on a real workspace: a file added again under the same
 * external id, a note rewritten under the same source key. The source keeps its id, its earlier
 * versions are kept, and only the facts whose words changed change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

type Fact = {
  id: string;
  statement: string;
  status: string;
  reason: string | null;
  supersededBy: string | null;
  citations: { item: { id: string }; quote: string; citation: { fileId: string } | null }[];
};
type Version = { id: string; number: number; current: boolean; at: string; replacedAt: string | null };

const agent = async (name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'agent'), name, input)) as Record<string, unknown>;
const person = async (name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'cli'), name, input)) as Record<string, unknown>;

const versions = async (id: string) =>
  ((await person('items.versions', { id })) as { versions: Version[] }).versions;
const page = async (entity: string, history = false) =>
  ((await agent('facts.list', { entity, history })) as { facts: Fact[] }).facts;

/** Every row of every table but the usage log, as text: two dumps are equal when nothing changed. */
function dump(): string {
  const tables = engine.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  return tables
    .filter((t) => !/_fts|_vec|vec_|^telemetry$/.test(t.name))
    .map((t) => `${t.name}\n${JSON.stringify(engine.db.prepare(`SELECT * FROM "${t.name}"`).all())}`)
    .join('\n');
}

const contract = (term: string, extra = '') =>
  `# Supply contract\n\n## Parties\n\nAcme Paper Ltd. supplies our office paper.\n\n## Term\n\nThe contract runs ${term}.\n${extra}`;

async function addAs(externalId: string, name: string, text: string) {
  const out = (await person('files.add', { paths: [ws.write(name, text)], external_id: externalId })) as {
    added: { id: string }[];
    unchanged: { id: string }[];
    refused: { path: string; reason: string }[];
  };
  await engine.index();
  return out;
}

describe('versioned sources', () => {
  it('[K16] the same external id with new bytes is the next version: unchanged facts stay, changed ones go', async () => {
    const first = await addAs('CONTRACT-7', 'contract-2025.md', contract('until 2026-12-31'));
    const id = first.added[0]?.id as string;
    const parties = (await agent('facts.state', {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'Acme Paper supplies our office paper.',
      item_id: sectionWith(id, 'supplies our office paper'),
      quote: 'Acme Paper Ltd. supplies our office paper.',
    })) as { fact: Fact; entity: { id: string } };
    const entity = parties.entity.id;
    const term = (await agent('facts.state', {
      entity,
      statement: 'The supply contract runs until 2026-12-31.',
      attribute: 'term',
      item_id: sectionWith(id, 'runs until'),
      quote: 'The contract runs until 2026-12-31.',
    })) as { fact: Fact };

    // A different file (another path) under the same id: the same source, its next version.
    const second = await addAs('CONTRACT-7', 'contract-2026.md', contract('until 2027-12-31'));
    expect(second.added.map((a) => a.id)).toEqual([id]);
    const list = await versions(id);
    expect(list.map((v) => [v.number, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(list[0]?.id).toBe(id);
    expect(list[1]?.replacedAt).not.toBeNull();

    const now = await page(entity, true);
    const kept = now.find((f) => f.id === parties.fact.id);
    // The parties' section did not change in words: the fact stays current, citing the live section.
    expect(kept?.status).toBe('current');
    expect(kept?.citations.map((c) => c.item.id)).toEqual([sectionWith(id, 'supplies our office paper')]);
    const old = now.find((f) => f.id === term.fact.id);
    expect(old).toMatchObject({ status: 'retired', reason: 'no source' });
    expect((await page(entity)).map((f) => f.id)).toEqual([parties.fact.id]);

    // Moving the source moves its earlier versions too: their text is its text.
    await person('items.move', { id, scope: 'user:root' });
    const scopes = engine.db
      .prepare('SELECT DISTINCT scope FROM items WHERE id = ? OR superseded_by = ? OR file_id = ?')
      .all(id, id, id) as { scope: string }[];
    expect(scopes.map((r) => r.scope)).toEqual(['user:root']);
    await person('items.move', { id, scope: 'org' });

    // The same bytes under the same id again: nothing at all changes.
    const before = dump();
    const again = await addAs('CONTRACT-7', 'contract-2026.md', contract('until 2027-12-31'));
    expect(again.unchanged.map((u) => u.id)).toEqual([id]);
    expect(dump()).toBe(before);
    expect(await versions(id)).toHaveLength(2);
  });

  it('[K16] a newer version stating a new term replaces the old term, which points to it', async () => {
    const id = (await addAs('C-9', 'c.md', contract('until 2026-12-31'))).added[0]?.id as string;
    const first = (await agent('facts.state', {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'The supply contract runs until 2026-12-31.',
      attribute: 'term',
      valid_at: '2025-01-01',
      item_id: sectionWith(id, 'runs until'),
      quote: 'The contract runs until 2026-12-31.',
    })) as { fact: Fact; entity: { id: string } };
    await addAs('C-9', 'c.md', contract('until 2027-12-31'));
    const second = (await agent('facts.state', {
      entity: first.entity.id,
      statement: 'The supply contract runs until 2027-12-31.',
      attribute: 'term',
      valid_at: '2026-01-01',
      item_id: sectionWith(id, 'runs until'),
      quote: 'The contract runs until 2027-12-31.',
    })) as { fact: Fact };
    const all = await page(first.entity.id, true);
    expect(all.find((f) => f.id === second.fact.id)?.status).toBe('current');
    // The old term lost its words with the old version; its history still cites where it was said.
    const old = all.find((f) => f.id === first.fact.id);
    expect(old?.status).toBe('retired');
    expect(old?.citations[0]?.quote).toBe('The contract runs until 2026-12-31.');
  });

  it('refuses an external id for more than one file, naming why, and adds nothing', async () => {
    ws.write('a/one.md', '# One\n');
    ws.write('a/two.md', '# Two\n');
    await expect(
      person('files.add', {
        paths: [ws.write('a/three.md', '# Three\n').replace(/three\.md$/, '')],
        external_id: 'X',
      }),
    ).rejects.toThrow(/one source: add one file with it/);
    expect(engine.db.prepare("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'file'").get()).toEqual({
      n: 0,
    });
  });

  it('[K16] rewriting a note under its source key keeps the old text as its earlier version', async () => {
    const write = async (body: string) =>
      (await agent('notes.add', {
        kind: 'decision',
        label: 'Paper supplier',
        body,
        source_key: 'supplier',
      })) as {
        id: string;
      };
    const note = await write('We buy office paper from Acme Paper Ltd. at EUR 10 a box.');
    const fact = (await agent('facts.state', {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'We buy office paper from Acme Paper.',
      item_id: note.id,
      quote: 'We buy office paper from Acme Paper Ltd.',
    })) as { fact: Fact; entity: { id: string } };
    const price = (await agent('facts.state', {
      entity: fact.entity.id,
      statement: 'A box of paper costs EUR 10.',
      attribute: 'price',
      item_id: note.id,
      quote: 'at EUR 10 a box',
    })) as { fact: Fact };

    const before = dump();
    await write('We buy office paper from Acme Paper Ltd. at EUR 10 a box.');
    expect(dump()).toBe(before);

    const again = await write('We buy office paper from Acme Paper Ltd. at EUR 12 a box.');
    expect(again.id).toBe(note.id);
    const list = await versions(note.id);
    expect(list.map((v) => v.current)).toEqual([true, false]);
    const archived = engine.db
      .prepare('SELECT body, retired_at, superseded_by FROM items WHERE id = ?')
      .get(list[1]?.id) as {
      body: string;
      retired_at: string | null;
      superseded_by: string;
    };
    expect(archived).toMatchObject({
      body: 'We buy office paper from Acme Paper Ltd. at EUR 10 a box.',
      superseded_by: note.id,
    });
    expect(archived.retired_at).not.toBeNull();

    // A row another member made that claims to be an earlier version of it is none.
    const keyed = engine.db.prepare('SELECT source_key FROM items WHERE id = ?').get(note.id) as {
      source_key: string;
    };
    engine.db
      .prepare(
        `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, scope, origin_actor,
         origin_source, origin_at, retired_at, superseded_by, created_at, updated_at)
         SELECT 'n_00000000000000000bad', workspace_id, 'note', kind, label, 'forged text', ?, scope, 'mallory', 'mcp',
           origin_at, origin_at, id, created_at, updated_at FROM items WHERE id = ?`,
      )
      .run(`${keyed.source_key}@v9`, note.id);
    expect((await versions(note.id)).map((v) => v.id)).toEqual(list.map((v) => v.id));

    const all = await page(fact.entity.id, true);
    expect(all.find((f) => f.id === fact.fact.id)?.status).toBe('current');
    const old = all.find((f) => f.id === price.fact.id);
    expect(old).toMatchObject({ status: 'retired', reason: 'no source' });
    // Its history cites the version that said it.
    expect(old?.citations.map((c) => c.item.id)).toEqual([list[1]?.id]);
    // Search finds the note's current text, not the old one.
    const found = (await agent('search.query', { query: 'paper box' })) as { hits: { id: string }[] };
    expect(found.hits.map((h) => h.id)).toContain(note.id);
    expect(found.hits.map((h) => h.id)).not.toContain(list[1]?.id);
  });
});

/** The live section of a file whose text holds `words`. */
function sectionWith(fileId: string, words: string): string {
  const row = engine.db
    .prepare(
      `SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' AND retired_at IS NULL AND instr(body, ?) > 0
       ORDER BY ordinal LIMIT 1`,
    )
    .get(fileId, words) as { id: string } | undefined;
  if (!row) throw new Error(`no live section of ${fileId} says "${words}"`);
  return row.id;
}
