/**
 * Empty pages (docs/FACTS.md [K13]) on a real workspace: facts stated on indexed files, sources
 * removed with items.remove, the inbox's cards read and dismissed through the contract's commands.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listEmptyPages } from './empty-pages.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

type EmptyCard = {
  kind: 'empty-page';
  id: string;
  entity: { id: string; label: string; scope: string };
  reason: string;
  why: string;
  sources: { id: string; label: string }[];
  claims: number;
  changedAt: string;
  canResolve: boolean;
};
type Cards = {
  counts: { duplicate: number; emptyPage: number };
  pending: number;
  total: number;
  cards: EmptyCard[];
};

const as = (e: Engine) => (name: string, input: unknown) => runCommand(memberContext(e, 'cli'), name, input);
const call = (name: string, input: unknown) => as(engine)(name, input);
const empties = async (e = engine) => (await as(e)('inbox.cards', { kind: 'empty-page' })) as Cards;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

async function state(entity: string, item: string, statement: string, quote = statement) {
  const out = (await call('facts.state', { entity, kind: 'company', statement, item_id: item, quote })) as {
    entity: { id: string };
    fact: { id: string };
  };
  return { entity: out.entity.id, fact: out.fact.id };
}

/** Claim times are milliseconds: the next change must fall in a later one to be a new change. */
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Empty pages [K13]', () => {
  it('a page whose last source is removed shows until dismissed, and again when it empties again', async () => {
    const a = await addFile('a.md', '# A\n\nNorthwind ships our chairs.\n');
    const b = await addFile('b.md', '# B\n\nNorthwind ships our chairs. Northwind is in Oslo.\n');
    const { entity } = await state('Northwind', a, 'Northwind ships our chairs.');
    await state(entity, b, 'Northwind ships our chairs.');
    await state(entity, b, 'Northwind is in Oslo.');
    expect((await empties()).cards).toEqual([]);

    await call('items.remove', { id: a });
    expect((await empties()).cards).toEqual([]); // b.md still supports both facts
    await tick();
    await call('items.remove', { id: b });
    const shown = await empties();
    expect(shown.counts.emptyPage).toBe(1);
    expect(shown.pending).toBe(1);
    const card = shown.cards[0] as EmptyCard;
    expect(card).toMatchObject({
      kind: 'empty-page',
      entity: { id: entity, label: 'Northwind', scope: 'org' },
      reason: 'sources-removed',
      why: 'Its last sources were removed: b.md, a.md.',
      sources: [
        { id: b, label: 'b.md' },
        { id: a, label: 'a.md' },
      ],
      claims: 3,
      canResolve: true,
    });
    expect(card.id).toBe(`empty:${entity}@${card.changedAt}`);

    const before = engine.db.prepare('SELECT * FROM edges ORDER BY id').all();
    const out = await call('inbox.resolveCard', { card: card.id, action: 'dismiss' });
    expect(out).toEqual({
      card: card.id,
      kind: 'empty-page',
      action: 'dismiss',
      state: 'dismissed',
      entity: null,
      facts: [],
    });
    expect(engine.db.prepare('SELECT * FROM edges ORDER BY id').all()).toEqual(before);
    expect((await empties()).cards).toEqual([]);
    expect((await empties()).counts.emptyPage).toBe(0);
    await expect(call('inbox.resolveCard', { card: card.id, action: 'dismiss' })).rejects.toThrow(
      "Northwind's page is not an empty page to review any more",
    );

    // A new source gives the page a fact again; removing it empties the page again: shown again.
    await tick();
    const c = await addFile('c.md', '# C\n\nNorthwind moved to Bergen.\n');
    await state(entity, c, 'Northwind moved to Bergen.');
    expect((await empties()).cards).toEqual([]);
    await tick();
    await call('items.remove', { id: c });
    const again = await empties();
    expect(again.cards.map((x) => [x.entity.id, x.reason])).toEqual([[entity, 'sources-removed']]);
    expect(again.cards[0]?.id).not.toBe(card.id);
    expect(again.cards[0]?.sources[0]).toEqual({ id: c, label: 'c.md' });
  });

  it('a page whose facts were retired says so; a card shown before a change cannot be dismissed after it', async () => {
    const a = await addFile('a.md', '# A\n\nContoso owns the Lisbon lease.\n');
    const { entity, fact } = await state('Contoso', a, 'Contoso owns the Lisbon lease.');
    await call('facts.retire', { fact });
    const [card] = (await empties()).cards;
    expect(card).toMatchObject({
      reason: 'facts-retired',
      why: 'Its facts were retired: no fact of Contoso is current.',
      sources: [],
      claims: 1,
    });
    // The page changes (a fact stated and retired again) while the card is on screen.
    await tick();
    const again = await state(
      entity,
      a,
      'Contoso owns the Lisbon lease, still.',
      'Contoso owns the Lisbon lease.',
    );
    await call('facts.retire', { fact: again.fact });
    const cardsBefore = engine.db.prepare('SELECT * FROM review_cards').all();
    await expect(call('inbox.resolveCard', { card: card?.id, action: 'dismiss' })).rejects.toThrow(
      "Contoso's page changed since this card was shown",
    );
    expect(engine.db.prepare('SELECT * FROM review_cards').all()).toEqual(cardsBefore);
    await expect(call('inbox.resolveCard', { card: card?.id, action: 'same' })).rejects.toThrow(
      'An empty page is opened or dismissed',
    );
  });

  it('a new version of a file that no longer says the words empties the page (not a removal)', async () => {
    const a = await addFile('terms.md', '# Terms\n\nFabrikam pays in 30 days.\n');
    const { entity } = await state('Fabrikam', a, 'Fabrikam pays in 30 days.');
    await addFile('terms.md', '# Terms\n\nPayment terms are negotiated yearly.\n');
    const [card] = (await empties()).cards;
    expect(card).toMatchObject({ entity: { id: entity }, reason: 'sources-changed', sources: [] });
  });

  it("shows only the pages of the reader's scopes, and only they may dismiss them", async () => {
    engine.addMember(engine.user, ['ops']);
    engine.addMember('bob', []);
    const team = await addFile('ops.md', '# Ops\n\nLitware repairs the printers.\n', 'team:ops');
    const org = await addFile('org.md', '# Org\n\nAdatum cleans the office.\n');
    const hidden = await state('Litware', team, 'Litware repairs the printers.');
    const open = await state('Adatum', org, 'Adatum cleans the office.');
    await call('items.remove', { id: team });
    await call('items.remove', { id: org });
    const mine = await empties();
    expect(mine.cards.map((c) => c.entity.id).sort()).toEqual([hidden.entity, open.entity].sort());

    const bob = ws.open({ user: 'bob' });
    const theirs = await empties(bob);
    expect(theirs.cards.map((c) => c.entity.id)).toEqual([open.entity]);
    expect(JSON.stringify(theirs)).not.toContain('Litware');
    const teamCard = mine.cards.find((c) => c.entity.id === hidden.entity) as EmptyCard;
    await expect(as(bob)('inbox.resolveCard', { card: teamCard.id, action: 'dismiss' })).rejects.toThrow(
      `No review card ${teamCard.id}.`,
    );
    expect(
      engine.db.prepare("SELECT count(*) AS n FROM review_cards WHERE kind = 'empty-page'").get(),
    ).toEqual({ n: 0 });
  });

  it('lists thousands of entities cheaply', async () => {
    const a = await addFile('many.md', '# Many\n\nA supplier of ours.\n');
    const section = (
      engine.db.prepare("SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section'").get(a) as {
        id: string;
      }
    ).id;
    // 3,000 faces with a claim each: the first 300 lose theirs. Written as the engine writes them.
    const { entity } = await state('Supplier 0', a, 'A supplier of ours.');
    const template = engine.db.prepare('SELECT * FROM items WHERE id = ?').get(entity) as Record<
      string,
      unknown
    >;
    const insertItem = engine.db.prepare(
      `INSERT INTO items (id, workspace_id, storage_kind, kind, label, body, source_key, canonical_type, canonical_value,
         indexed, scope, origin_actor, origin_source, origin_at, created_at, updated_at)
       VALUES (?, ?, 'entity', 'company', ?, ?, ?, 'company', ?, 1, 'org', ?, 'test', ?, ?, ?)`,
    );
    const insertEdge = engine.db.prepare(
      `INSERT INTO edges (id, type, from_id, to_id, props, origin_actor, origin_source, origin_at, retired_at)
       VALUES (?, 'FACT', ?, ?, ?, ?, 'test', ?, ?)`,
    );
    const now = new Date().toISOString();
    engine.db.transaction(() => {
      for (let i = 1; i < 3000; i++) {
        const id = `e_${i.toString(16).padStart(20, '0')}`;
        insertItem.run(
          id,
          template.workspace_id,
          `Supplier ${i}`,
          `Supplier ${i}`,
          `k${i}`,
          `supplier ${i}`,
          engine.user,
          now,
          now,
          now,
        );
        const props = JSON.stringify({
          statement: 'A supplier of ours.',
          attribute: null,
          validAt: now,
          quote: 'A supplier of ours.',
          span: null,
        });
        insertEdge.run(`x_${i}`, section, id, props, engine.user, now, i <= 300 ? now : null);
      }
    })();
    const started = performance.now();
    const list = (await as(engine)('inbox.cards', { kind: 'empty-page', limit: 50 })) as Cards;
    const ms = performance.now() - started;
    console.info(`inbox.cards over 3,000 entities, 300 empty: ${ms.toFixed(0)} ms`);
    expect(list.counts.emptyPage).toBe(300);
    expect(list.cards).toHaveLength(50);
    // Generous for a loaded two-core machine; a query per entity would take far longer.
    expect(ms).toBeLessThan(3000);
  });

  it('the count is derived again only after something was written: a badge refresh reads no claim', async () => {
    const a = await addFile('a.md', '# A\n\nNorthwind ships our chairs.\n');
    const { entity } = await state('Northwind', a, 'Northwind ships our chairs.');
    await call('items.remove', { id: a });
    // A second connection on the workspace file, telling every statement it runs.
    const ran: string[] = [];
    const db = new Database(join(ws.home, 'brain.db'), { verbose: (sql) => ran.push(String(sql)) });
    try {
      const reader = { user: engine.user, scopes: engine.scopes() };
      const count = () => listEmptyPages(db, reader, { offset: 0, limit: 0 });
      const reads = () => ran.filter((sql) => /\bFROM (edges|items)\b/.test(sql));
      expect(count().total).toBe(1);
      expect(reads().length).toBeGreaterThan(0);
      ran.length = 0;
      expect(count()).toEqual({ total: 1, cards: [] });
      expect(reads()).toEqual([]);
      // The other connection commits (a new source gives the page a fact): derived again.
      const b = await addFile('b.md', '# B\n\nNorthwind is in Oslo.\n');
      await state(entity, b, 'Northwind is in Oslo.');
      ran.length = 0;
      expect(count()).toEqual({ total: 0, cards: [] });
      expect(reads().length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
