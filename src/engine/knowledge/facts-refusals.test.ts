/**
 * Facts refused with a clear reason, on a real workspace through the contract's commands as each
 * surface runs them (docs/FACTS.md [K6]): a fact retired already is not retired again; a date that
 * is not one names the field as the caller's surface spells it; an item that is not an entity,
 * given by its id as the entity, is refused rather than made into an entity named after the id.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Surface } from '#shared/api/operation.ts';
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

type Fact = { id: string; status: string; reason: string | null };

const call = async (name: string, input: unknown, surface: Surface = 'agent') =>
  (await runCommand(memberContext(engine, surface), name, input)) as Record<string, unknown>;

async function addFile(name: string, text: string): Promise<string> {
  const result = await engine.add([ws.write(name, text)]);
  await engine.index();
  const id = result.added[0]?.id;
  if (!id) throw new Error(`${name} was not added`);
  return id;
}

const counts = () =>
  engine.db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM items WHERE storage_kind = 'entity') AS entities,
         (SELECT COUNT(*) FROM edges) AS edges,
         (SELECT COUNT(*) FROM edges WHERE retired_at IS NOT NULL) AS retired`,
    )
    .get();

describe('facts refused with a clear reason', () => {
  it('[K6] a fact retired already is refused by name and nothing changes', async () => {
    const id = await addFile('note.md', '# Note\n\nInitech moved to Austin in 2025.\n');
    const { fact } = (await call('facts.state', {
      entity: 'Initech',
      kind: 'company',
      statement: 'Initech is based in Austin.',
      item_id: id,
      quote: 'Initech moved to Austin in 2025.',
    })) as { fact: Fact };
    expect(((await call('facts.retire', { fact: fact.id }, 'app')) as { fact: Fact }).fact).toMatchObject({
      status: 'retired',
      reason: 'retired',
    });
    const before = counts();
    for (const surface of ['app', 'cli'] as const)
      await expect(call('facts.retire', { fact: fact.id }, surface)).rejects.toMatchObject({
        code: 'conflict',
        message: `Fact ${fact.id} ("Initech is based in Austin.") was retired already: nothing changed.`,
      });
    expect(counts()).toEqual(before);
  });

  it('[K4] a fact a newer one replaced can still be retired: its claims are live', async () => {
    const old = await addFile('inv1.md', '# Invoice 1\n\nPrice per box: EUR 10.\n');
    const newer = await addFile('inv2.md', '# Invoice 2\n\nPrice per box: EUR 12.\n');
    const price = (item: string, figure: string, date: string) =>
      call('facts.state', {
        entity: 'Acme Paper',
        kind: 'company',
        attribute: 'price',
        statement: `A box costs ${figure}.`,
        item_id: item,
        quote: `Price per box: ${figure}`,
        valid_at: date,
      }) as Promise<{ fact: Fact }>;
    const first = (await price(old, 'EUR 10', '2026-01-10')).fact;
    await price(newer, 'EUR 12', '2026-03-10');
    const retired = (await call('facts.retire', { fact: first.id }, 'cli')) as { fact: Fact };
    expect(retired.fact).toMatchObject({ status: 'retired', reason: 'retired' });
  });

  it('[K6] a date that is not one names the field as each surface spells it, and writes nothing', async () => {
    const id = await addFile('acme.md', '# Acme\n\nAcme Paper Ltd. Price per box: EUR 12.\n');
    const input = {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'A box costs EUR 12.',
      item_id: id,
      quote: 'Price per box: EUR 12',
      valid_at: '2026-02-30',
    };
    const before = counts();
    const named: [Surface, string][] = [
      ['agent', 'valid_at'],
      ['app', 'valid_at'],
      ['cli', '--valid-at'],
    ];
    for (const [surface, field] of named)
      await expect(call('facts.state', input, surface)).rejects.toMatchObject({
        code: 'validation-failed',
        message: `${field} "2026-02-30" is not a date (use YYYY-MM-DD, or an ISO 8601 time with its zone).`,
      });
    expect(counts()).toEqual(before);
  });

  it("[K6] an item's id as the entity: an entity's is that entity; another item's is refused, no entity made", async () => {
    const file = await addFile('acme.md', '# Acme\n\nAcme Paper Ltd. Price per box: EUR 12.\n');
    const note = (await call('notes.add', {
      kind: 'fact',
      label: 'Acme pricing',
      body: 'Acme Paper Ltd. charges EUR 12 a box.',
    })) as { id: string };
    const section = engine.db
      .prepare("SELECT id FROM items WHERE storage_kind = 'section' AND file_id = ? LIMIT 1")
      .get(file) as { id: string };
    const stated = (id: string, entity: string) =>
      call('facts.state', {
        entity,
        statement: 'A box costs EUR 12.',
        item_id: id,
        quote: 'EUR 12',
      }) as Promise<{
        entity: { id: string; label: string };
      }>;
    const before = counts();
    for (const [id, what, label] of [
      [note.id, 'a note', 'Acme pricing'],
      [file, 'a file', 'acme.md'],
      [section.id, 'a section', null],
    ] as const) {
      const refused = stated(file, id);
      await expect(refused).rejects.toMatchObject({ code: 'validation-failed' });
      await expect(refused).rejects.toThrow(
        new RegExp(
          `^${id} \\(${label ?? '[^)]*'}\\) is ${what}, not an entity: name the entity \\(with kind\\), or give an entity's id \\(e_…\\)\\.$`,
        ),
      );
    }
    // An id that names nothing here answers as a missing item, not as a new entity of that name.
    await expect(stated(file, 'n_00000000000000000000')).rejects.toMatchObject({ code: 'not-found' });
    expect(counts()).toEqual(before);
    // An entity's id is that entity.
    const made = await call('facts.state', {
      entity: 'Acme Paper Ltd.',
      kind: 'company',
      statement: 'Acme sells paper.',
      item_id: file,
      quote: 'Acme Paper Ltd.',
    });
    const entity = (made as { entity: { id: string } }).entity.id;
    expect((await stated(file, entity)).entity).toMatchObject({
      id: entity,
      label: 'Acme Paper Ltd.',
    });
  });
});
