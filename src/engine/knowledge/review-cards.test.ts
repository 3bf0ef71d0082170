/**
 * Possible duplicate cards (docs/FACTS.md [K12]) on a real workspace: files added and indexed, a
 * card added as the compile pass adds it (inside its write transaction), listed and resolved
 * through the contract's commands, the database compared whole before and after.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import { type Db, writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { addDuplicateCard, type DuplicateCardInput } from './review-cards.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

type Row = Record<string, unknown>;
type CardView = {
  kind: string;
  id: string;
  name: string;
  scope: string;
  stale: string | null;
  state: string;
  canResolve: boolean;
  candidates: { id: string; label: string; scope: string; score: number }[];
  source: { id: string } | null;
};
type Cards = {
  counts: { duplicate: number; emptyPage: number };
  pending: number;
  total: number;
  cards: CardView[];
};

const as = (e: Engine) => (name: string, input: unknown) => runCommand(memberContext(e, 'cli'), name, input);
const call = (name: string, input: unknown) => as(engine)(name, input);
const cards = async (e = engine, input: Row = {}) => (await as(e)('inbox.cards', input)) as Cards;

async function addFile(name: string, text: string, scope?: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)], scope ? { scope } : {});
  await engine.index();
  const id = result.added[0]?.id ?? result.unchanged[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

/** Every table of the workspace, row by row (FTS and vector tables included). */
function dump(db: Db, skip: readonly string[] = []): Record<string, unknown[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    if (skip.includes(name)) continue;
    out[name] = db.prepare(`SELECT * FROM "${name}"`).all() as unknown[];
    out[name].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

function edges(db: Db, type = 'FACT'): Row[] {
  return db
    .prepare(
      'SELECT id, from_id, to_id, props, origin_actor, origin_source, origin_run FROM edges WHERE type = ? ORDER BY id',
    )
    .all(type) as Row[];
}

function version(id: string): number {
  return (engine.db.prepare('SELECT version FROM items WHERE id = ?').get(id) as { version: number }).version;
}

const LEASE =
  '# Supplier\n\nAcme Paper supplies our office paper. A box costs EUR 12.\n\nThe contract runs until 2027.\n';

/** An org face "Acme Paper Ltd." with a fact, and a second file that names "ACME Papers". */
async function world(scope?: string) {
  const first = await addFile('acme.md', '# Acme\n\nAcme Paper Ltd. is our paper supplier.\n');
  const stated = (await call('facts.state', {
    entity: 'Acme Paper Ltd.',
    kind: 'company',
    statement: 'Acme Paper Ltd. is our paper supplier.',
    item_id: first,
    quote: 'Acme Paper Ltd. is our paper supplier.',
  })) as { entity: { id: string; label: string } };
  const source = await addFile('lease.md', LEASE, scope);
  return { face: stated.entity, source };
}

function input(source: string, candidates: DuplicateCardInput['candidates']): DuplicateCardInput {
  return {
    source,
    sourceVersion: version(source),
    name: 'ACME Papers',
    kind: 'company',
    candidates,
    facts: [
      {
        statement: 'Acme Papers supplies our office paper.',
        attribute: null,
        validAt: null,
        quote: 'Acme Paper supplies our office paper.',
      },
      {
        statement: 'A box of paper costs EUR 12.',
        attribute: 'price',
        validAt: '2026-03-01',
        quote: 'A box costs EUR 12.',
      },
    ],
    origin: {
      actor: `compile/user:${engine.user}`,
      source: 'compile',
      run: `compile:${source}:${version(source)}`,
    },
  };
}

/** As the compile pass calls it: inside its own write transaction. */
const add = (card: DuplicateCardInput, db: Db = engine.db) =>
  writeTx(db, () => addDuplicateCard(db, engine.workspaceId, card));

describe('Possible duplicate cards [K12]', () => {
  it('adds a card once per source and normalised name while it is pending', async () => {
    const { face, source } = await world();
    const candidates = [{ id: face.id, label: face.label, score: 0.82 }];
    const id = add(input(source, candidates));
    expect(id).toMatch(/^rc_[0-9a-f]{20}$/);
    expect(add(input(source, candidates))).toBe(id);
    // Another spelling of the same normalised name is the same card; its newer content replaces the held one.
    const respelled = { ...input(source, candidates), name: 'Acme Papers, Inc.' };
    expect(add(respelled)).toBe(id);
    const other = add({ ...input(source, candidates), name: 'Paper World' });
    expect(other).not.toBe(id);
    const list = await cards();
    expect(list.counts).toEqual({ duplicate: 2, emptyPage: 0 });
    expect(list.pending).toBe(2);
    expect(list.cards.map((c) => [c.id, c.name, c.stale, c.canResolve])).toEqual([
      [id, 'Acme Papers, Inc.', null, true],
      [other, 'Paper World', null, true],
    ]);
    expect(list.cards[0]?.candidates).toEqual([
      { id: face.id, label: 'Acme Paper Ltd.', scope: 'org', score: 0.82 },
    ]);
  });

  it('refuses a card for a missing source or a name without letters, and writes nothing', async () => {
    const { face, source } = await world();
    const before = dump(engine.db);
    const candidates = [{ id: face.id, label: face.label, score: 0.8 }];
    expect(() => add({ ...input(source, candidates), source: 'f_00000000000000000000' })).toThrow(
      'No item with id f_00000000000000000000.',
    );
    expect(() => add({ ...input(source, candidates), name: ' -- ' })).toThrow('has no letters or digits');
    expect(() => add({ ...input(source, candidates), source: face.id })).toThrow('is an entity');
    expect(dump(engine.db)).toEqual(before);
  });

  it('"same": states every held fact on the candidate, cited to the source, and keeps the name as an alias', async () => {
    const { face, source } = await world();
    const id = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const before = edges(engine.db);
    const out = (await call('inbox.resolveCard', { card: id, action: 'same', entity: face.id })) as {
      entity: { id: string };
      facts: string[];
      state: string;
    };
    expect(out.state).toBe('resolved');
    expect(out.entity.id).toBe(face.id);
    const added = edges(engine.db).filter((e) => !before.some((b) => b.id === e.id));
    expect(added).toHaveLength(2);
    // Cited to the piece whose text holds the quote: the file's section.
    const section = engine.db
      .prepare(
        "SELECT id FROM items WHERE file_id = ? AND storage_kind = 'section' AND instr(body, 'A box costs') > 0",
      )
      .get(source) as { id: string };
    for (const e of added) {
      expect(e.from_id).toBe(section.id);
      expect(e.to_id).toBe(face.id);
      expect(e.origin_actor).toBe(engine.user);
      expect(e.origin_source).toBe('compile');
      expect(e.origin_run).toBe(`compile:${source}:${version(source)}`);
    }
    const props = added.map((e) => JSON.parse(String(e.props)) as Row);
    expect(props.map((p) => [p.statement, p.attribute, p.quote]).sort()).toEqual([
      ['A box of paper costs EUR 12.', 'price', 'A box costs EUR 12.'],
      ['Acme Papers supplies our office paper.', null, 'Acme Paper supplies our office paper.'],
    ]);
    const page = (await call('facts.list', { entity: face.id })) as {
      facts: { id: string; citations: Row[] }[];
    };
    // The page had one fact; it now has the two the card held too.
    expect(page.facts).toHaveLength(3);
    expect(page.facts.map((f) => f.id)).toEqual(expect.arrayContaining(out.facts));
    const body = (engine.db.prepare('SELECT body FROM items WHERE id = ?').get(face.id) as { body: string })
      .body;
    expect(body.split('\n')).toEqual(['Acme Paper Ltd.', 'ACME Papers']);
    const list = await cards(engine, { all: true });
    expect(list.cards.map((c) => [c.id, c.state])).toEqual([[id, 'resolved']]);
    expect(list.counts.duplicate).toBe(0);
    await expect(call('inbox.resolveCard', { card: id, action: 'dismiss' })).rejects.toThrow(
      'is resolved already',
    );
  });

  it('"new": states them on a new page of that name and kind in the source\'s scope', async () => {
    const { face, source } = await world();
    const id = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const entitiesBefore = engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'entity'").all();
    const out = (await call('inbox.resolveCard', { card: id, action: 'new' })) as {
      entity: { id: string; label: string; kind: string; scope: string };
      facts: string[];
    };
    expect(out.entity).toMatchObject({ label: 'ACME Papers', kind: 'company', scope: 'org' });
    expect(out.entity.id).not.toBe(face.id);
    expect(engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'entity'").all()).toHaveLength(
      entitiesBefore.length + 1,
    );
    const claims = edges(engine.db).filter((e) => e.to_id === out.entity.id);
    expect(claims).toHaveLength(2);
    const page = (await call('facts.list', { entity: out.entity.id })) as { facts: { id: string }[] };
    expect(page.facts.map((f) => f.id).sort()).toEqual([...out.facts].sort());
    // The candidate's page is untouched.
    expect(edges(engine.db).filter((e) => e.to_id === face.id)).toHaveLength(1);
  });

  it('"dismiss" writes nothing but the decision (whole database compared)', async () => {
    const { face, source } = await world();
    const id = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const before = dump(engine.db, ['review_cards', 'telemetry']);
    const out = await call('inbox.resolveCard', { card: id, action: 'dismiss' });
    expect(out).toEqual({
      card: id,
      kind: 'duplicate',
      action: 'dismiss',
      state: 'dismissed',
      entity: null,
      facts: [],
    });
    expect(dump(engine.db, ['review_cards', 'telemetry'])).toEqual(before);
    const row = engine.db
      .prepare('SELECT state, decision, decided_by FROM review_cards WHERE id = ?')
      .get(id);
    expect(row).toEqual({ state: 'dismissed', decision: 'dismiss', decided_by: engine.user });
    expect((await cards()).cards).toEqual([]);
    // The same version compiled again does not ask again; a pending card is not made anew.
    expect(add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]))).toBe(id);
    expect((await cards()).cards).toEqual([]);
  });

  it('refuses a bad choice clearly and changes nothing', async () => {
    const { face, source } = await world();
    const id = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const before = dump(engine.db);
    await expect(call('inbox.resolveCard', { card: id, action: 'same', entity: source })).rejects.toThrow(
      `${source} is not a candidate of review card ${id}`,
    );
    await expect(call('inbox.resolveCard', { card: id, action: 'new', entity: face.id })).rejects.toThrow(
      'An entity is chosen only with "same"',
    );
    await expect(call('inbox.resolveCard', { card: 'rc_nope', action: 'dismiss' })).rejects.toThrow(
      'No review card rc_nope.',
    );
    expect(dump(engine.db)).toEqual(before);
  });

  it('a card whose source was removed or changed since is stale and can only be dismissed', async () => {
    const { face, source } = await world();
    const candidates = [{ id: face.id, label: face.label, score: 0.8 }];
    const removed = add(input(source, candidates));
    const other = await addFile(
      'memo.md',
      '# Memo\n\nAcme Paper supplies our office paper. A box costs EUR 12.\n',
    );
    const changed = add({ ...input(other, candidates) });
    await as(engine)('items.remove', { id: source });
    // A new version of memo.md: same path, new words.
    await addFile('memo.md', '# Memo\n\nAcme Paper supplies our office paper. A box costs EUR 14.\n');
    const list = await cards();
    const byId = new Map(list.cards.map((c) => [c.id, c]));
    expect(byId.get(removed)?.stale).toBe('its source lease.md was removed');
    expect(byId.get(changed)?.stale).toMatch(
      /^its source memo\.md changed since \(version \d+ now, the card is for version \d+\)$/,
    );
    const before = dump(engine.db);
    await expect(call('inbox.resolveCard', { card: removed, action: 'same' })).rejects.toThrow(
      `Review card ${removed} can only be dismissed: its source lease.md was removed.`,
    );
    await expect(call('inbox.resolveCard', { card: changed, action: 'new' })).rejects.toThrow(
      'can only be dismissed',
    );
    expect(dump(engine.db)).toEqual(before);
    await call('inbox.resolveCard', { card: removed, action: 'dismiss' });
    await call('inbox.resolveCard', { card: changed, action: 'dismiss' });
    expect((await cards()).counts.duplicate).toBe(0);
  });

  it("shows a card only to readers of its source's scope, and never a candidate they cannot see", async () => {
    engine.addMember(engine.user, ['ops']);
    engine.addMember('bob', []);
    const { face, source } = await world('team:ops');
    const hidden = (await call('facts.state', {
      entity: 'Acme Paper Ops Desk',
      kind: 'company',
      statement: 'The ops desk orders paper.',
      item_id: source,
      quote: 'Acme Paper supplies our office paper.',
    })) as { entity: { id: string } };
    const teamCard = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const orgSource = await addFile(
      'memo.md',
      '# Memo\n\nAcme Paper supplies our office paper. A box costs EUR 12.\n',
    );
    const orgCard = add(
      input(orgSource, [
        { id: hidden.entity.id, label: 'Acme Paper Ops Desk', score: 0.9 },
        { id: face.id, label: face.label, score: 0.8 },
      ]),
    );
    const mine = await cards();
    expect(mine.cards.map((c) => [c.id, c.scope])).toEqual([
      [teamCard, 'team:ops'],
      [orgCard, 'org'],
    ]);
    expect(mine.cards[1]?.candidates.map((c) => c.label)).toEqual(['Acme Paper Ops Desk', 'Acme Paper Ltd.']);

    const bob = ws.open({ user: 'bob' });
    const theirs = await cards(bob);
    expect(theirs.counts.duplicate).toBe(1);
    expect(theirs.cards.map((c) => c.id)).toEqual([orgCard]);
    expect(theirs.cards[0]?.candidates).toEqual([
      { id: face.id, label: 'Acme Paper Ltd.', scope: 'org', score: 0.8 },
    ]);
    expect(JSON.stringify(theirs)).not.toContain('Ops Desk');
    const before = dump(engine.db, ['telemetry']);
    await expect(as(bob)('inbox.resolveCard', { card: teamCard, action: 'dismiss' })).rejects.toThrow(
      `No review card ${teamCard}.`,
    );
    // Bob cannot pick the hidden face by its id either.
    await expect(
      as(bob)('inbox.resolveCard', { card: orgCard, action: 'same', entity: hidden.entity.id }),
    ).rejects.toThrow('is not a candidate');
    expect(dump(engine.db, ['telemetry'])).toEqual(before);
    // The first candidate Bob sees is the one "same" takes.
    const out = (await as(bob)('inbox.resolveCard', { card: orgCard, action: 'same' })) as {
      entity: { id: string };
    };
    expect(out.entity.id).toBe(face.id);
  });

  it('"same" as an org candidate for a team source states the facts on its face in the team, joined by SAME_AS', async () => {
    engine.addMember(engine.user, ['ops']);
    const { face, source } = await world('team:ops');
    const id = add(input(source, [{ id: face.id, label: face.label, score: 0.8 }]));
    const out = (await call('inbox.resolveCard', { card: id, action: 'same' })) as {
      entity: { id: string; label: string; scope: string };
      facts: string[];
    };
    expect(out.entity).toMatchObject({ label: 'Acme Paper Ltd.', scope: 'team:ops' });
    expect(out.entity.id).not.toBe(face.id);
    expect(out.facts).toHaveLength(2);
    expect(edges(engine.db, 'SAME_AS').map((e) => [e.from_id, e.to_id])).toEqual([[out.entity.id, face.id]]);
    const body = (
      engine.db.prepare('SELECT body FROM items WHERE id = ?').get(out.entity.id) as { body: string }
    ).body;
    expect(body.split('\n')).toEqual(['Acme Paper Ltd.', 'ACME Papers']);
    // The org page gets nothing from a team source ([K2]: scopes never consolidate).
    expect(edges(engine.db).filter((e) => e.to_id === face.id)).toHaveLength(1);
  });

  it('pages through the cards', async () => {
    const { face, source } = await world();
    const ids = ['Alpha Paper', 'Beta Paper', 'Gamma Paper'].map((name) =>
      add({ ...input(source, [{ id: face.id, label: face.label, score: 0.7 }]), name }),
    );
    const first = await cards(engine, { limit: 2 });
    expect(first.total).toBe(3);
    expect(first.cards.map((c) => c.id)).toEqual(ids.slice(0, 2));
    const next = await cards(engine, { offset: 2, limit: 2 });
    expect(next.cards.map((c) => c.id)).toEqual(ids.slice(2));
    expect((await cards(engine, { kind: 'empty-page' })).cards).toEqual([]);
    await expect(cards(engine, { limit: 0 })).rejects.toThrow('inbox.cards: limit');
  });
});
