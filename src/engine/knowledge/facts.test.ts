/**
 * Facts over time (docs/FACTS.md [K1]–[K6]) on a real workspace: files added and indexed, facts
 * stated through the contract's commands as an agent would, the page read back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { retireFile } from './retire.ts';

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
  attribute: string | null;
  status: string;
  reason: string | null;
  supersededBy: string | null;
  validAt: string;
  citations: { item: { id: string }; quote: string; citation: { fileId: string } | null }[];
};

const call = async (name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'agent'), name, input)) as Record<string, unknown>;
/** Removing a source is a person's act (not offered to agents). */
const remove = async (id: string) =>
  (await runCommand(memberContext(engine, 'cli'), 'items.remove', { id })) as Record<string, unknown>;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

async function state(input: Record<string, unknown>): Promise<{ fact: Fact; entity: { id: string } }> {
  return (await call('facts.state', input)) as never;
}

async function page(entity: string, history = false): Promise<Fact[]> {
  return ((await call('facts.list', { entity, history })) as { facts: Fact[] }).facts;
}

const invoice = (n: number, price: string, date: string) =>
  `# Invoice ${n}\n\nSupplier: Acme Paper Ltd. Date: ${date}.\n\nAcme Paper supplies our office paper. Price per box: ${price}.\n`;

describe('facts over time', () => {
  it('[K2] [K4] three invoices of one supplier: one fact per figure, all cited; a new figure replaces the old', async () => {
    const ids = [
      await addFile('inv1.md', invoice(1, 'EUR 10', '2026-01-10')),
      await addFile('inv2.md', invoice(2, 'EUR 10', '2026-02-10')),
      await addFile('inv3.md', invoice(3, 'EUR 12', '2026-03-10')),
    ];
    const dates = ['2026-01-10', '2026-02-10', '2026-03-10'];
    const prices = ['EUR 10', 'EUR 10', 'EUR 12'];
    let entity = '';
    for (const [i, id] of ids.entries()) {
      const supplies = await state({
        entity: 'Acme Paper Ltd.',
        kind: 'company',
        statement: 'Acme Paper supplies our office paper.',
        item_id: id,
        quote: 'Acme Paper supplies our office paper.',
        valid_at: dates[i],
      });
      entity = supplies.entity.id;
      await state({
        entity,
        statement: `A box of paper costs ${prices[i]}.`,
        attribute: 'price',
        item_id: id,
        quote: `Price per box: ${prices[i]}`,
        valid_at: dates[i],
      });
    }
    const current = await page(entity);
    expect(current.map((f) => [f.attribute, f.statement, f.citations.length])).toEqual([
      ['price', 'A box of paper costs EUR 12.', 1],
      [null, 'Acme Paper supplies our office paper.', 3],
    ]);
    // The old figure is history, cited twice, pointing to the new one.
    const history = await page(entity, true);
    const old = history.find((f) => f.statement === 'A box of paper costs EUR 10.');
    expect(old).toMatchObject({ status: 'retired', reason: 'superseded', supersededBy: current[0]?.id });
    expect(old?.citations.map((c) => c.item.id).sort()).toEqual([ids[0], ids[1]].sort());
    // Stating the same fact from the same source again changes nothing.
    await state({
      entity,
      statement: 'acme paper  supplies our office paper.',
      item_id: ids[0],
      quote: 'Acme Paper supplies our office paper.',
      valid_at: dates[0],
    });
    expect((await page(entity)).find((f) => f.attribute === null)?.citations).toHaveLength(3);

    // [K3] Deleting the newest invoice: the older price is current again; the supply fact keeps two citations.
    retireFile(engine.db, ids[2] as string);
    const after = await page(entity);
    expect(after.map((f) => [f.statement, f.citations.length])).toEqual([
      ['A box of paper costs EUR 10.', 2],
      ['Acme Paper supplies our office paper.', 2],
    ]);
    // Deleting the rest leaves an empty page, its facts retired for want of a source.
    retireFile(engine.db, ids[0] as string);
    retireFile(engine.db, ids[1] as string);
    expect(await page(entity)).toEqual([]);
    expect((await page(entity, true)).map((f) => f.reason).sort()).toEqual([
      'no source',
      'no source',
      'no source',
    ]);
  });

  it('[K2] sources of two scopes never consolidate; a reader sees only the face they may read', async () => {
    engine.db
      .prepare("INSERT INTO teams (id, name, created_at) VALUES ('legal', 'legal', '2026-01-01')")
      .run();
    engine.db.prepare('INSERT INTO team_members (team_id, user_id) VALUES (?, ?)').run('legal', engine.user);
    const org = await addFile('memo.md', '# Memo\n\nGlobex owns the Riverside site.\n');
    const team = await addFile('legal.md', '# Legal\n\nGlobex owns the Riverside site.\n', 'team:legal');
    const a = await state({
      entity: 'Globex',
      kind: 'company',
      statement: 'Globex owns the Riverside site.',
      item_id: org,
      quote: 'Globex owns the Riverside site.',
    });
    const b = await state({
      entity: a.entity.id,
      statement: 'Globex owns the Riverside site.',
      item_id: team,
      quote: 'Globex owns the Riverside site.',
    });
    expect(b.entity.id).not.toBe(a.entity.id);
    expect((await page(a.entity.id)).map((f) => f.citations.map((c) => c.item.id))).toEqual([[org]]);
    expect((await page(b.entity.id)).map((f) => f.citations.map((c) => c.item.id))).toEqual([[team]]);
  });

  it('[K6] a quote the source does not hold, or a source the member cannot see, changes nothing', async () => {
    const id = await addFile('note.md', '# Note\n\nInitech moved to Austin.\n');
    const before = engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get();
    await expect(
      state({
        entity: 'Initech',
        kind: 'company',
        statement: 'Initech moved to Dallas.',
        item_id: id,
        quote: 'moved to Dallas',
      }),
    ).rejects.toThrow(/does not occur/);
    await expect(
      state({
        entity: 'Initech',
        kind: 'company',
        statement: 'x',
        item_id: 'f_00000000000000000000',
        quote: 'x',
      }),
    ).rejects.toThrow(/No item with id/);
    await expect(
      state({ entity: 'Initech', kind: 'company', statement: 'Initech moved.', item_id: id }),
    ).rejects.toThrow(/span.*quote/);
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM edges').get()).toEqual(before);
  });

  it('[K5] [K6] a retired fact leaves the page and stays in its history', async () => {
    const id = await addFile('note.md', '# Note\n\nInitech moved to Austin in 2025.\n');
    const { fact, entity } = await state({
      entity: 'Initech',
      kind: 'company',
      statement: 'Initech is based in Austin.',
      item_id: id,
      quote: 'Initech moved to Austin in 2025.',
    });
    const retired = (await call('facts.retire', { fact: fact.id })) as { fact: Fact };
    expect(retired.fact).toMatchObject({ status: 'retired', reason: 'retired' });
    expect(await page(entity.id)).toEqual([]);
    expect((await page(entity.id, true)).map((f) => f.id)).toEqual([fact.id]);
    await expect(call('facts.retire', { fact: `${entity.id}.000000000000` })).rejects.toThrow(/No fact/);
  });

  it('[K8] removing a source retires what only it supported and names the pages it left empty', async () => {
    const a = await addFile('a.md', '# A\n\nHooli builds phones. Hooli is in Palo Alto.\n');
    const b = await addFile('b.md', '# B\n\nHooli builds phones.\n');
    const phones = await state({
      entity: 'Hooli',
      kind: 'company',
      statement: 'Hooli builds phones.',
      item_id: a,
      quote: 'Hooli builds phones.',
    });
    await state({
      entity: phones.entity.id,
      statement: 'Hooli builds phones.',
      item_id: b,
      quote: 'Hooli builds phones.',
    });
    await state({
      entity: phones.entity.id,
      statement: 'Hooli is in Palo Alto.',
      item_id: a,
      quote: 'Hooli is in Palo Alto.',
    });
    const first = await remove(a);
    expect(first).toMatchObject({ id: a, removed: true, retiredFacts: 1, emptied: [] });
    expect((await page(phones.entity.id)).map((f) => [f.statement, f.citations.length])).toEqual([
      ['Hooli builds phones.', 1],
    ]);
    expect(await remove(a)).toMatchObject({ removed: false, retiredFacts: 0 });
    const last = await remove(b);
    expect(last).toMatchObject({
      removed: true,
      retiredFacts: 1,
      emptied: [{ id: phones.entity.id, label: 'Hooli' }],
    });
    expect(await page(phones.entity.id)).toEqual([]);
    // Search finds neither any more; adding the file again brings it back, with its fact.
    expect((await engine.search('Hooli phones', { mode: 'keyword' })).hits.filter((h) => h.id === a)).toEqual(
      [],
    );
    await engine.add([ws.write('a.md', '# A\n\nHooli builds phones. Hooli is in Palo Alto.\n\nAgain.\n')]);
    expect((await page(phones.entity.id)).map((f) => f.statement).sort()).toEqual([
      'Hooli builds phones.',
      'Hooli is in Palo Alto.',
    ]);
    await expect(remove(phones.entity.id)).rejects.toThrow(/is an entity/);
    await expect(call('items.remove', { id: a })).rejects.toThrow(/Unknown operation/);
  });

  it("a fact cited on a whole file opens its dossier on the quoted words of the file's text", async () => {
    const id = await addFile(
      'contract.md',
      '---\ntitle: Supply contract 2026\nowner: Legal\n---\n\n# Supply contract\n\nAcme Paper Ltd. supplies paper.\n\n## Term\n\nThe contract runs until 2027-12-31.\n',
    );
    const { fact } = await state({
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'The supply contract runs until 2027-12-31.',
      attribute: 'term',
      item_id: id,
      quote: 'The contract runs until 2027-12-31.',
    });
    const cited = fact.citations[0] as unknown as {
      item: { id: string };
      span: { start: number; end: number };
    };
    const opened = (await call('items.dossier', { id: cited.item.id, at: cited.span })) as {
      text: string;
      highlight: { start: number; end: number };
    };
    expect(opened.text.slice(opened.highlight.start, opened.highlight.end)).toBe(
      'The contract runs until 2027-12-31.',
    );
  });
});
