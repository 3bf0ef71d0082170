/**
 * Facts between replicas (docs/FACTS.md [K1]–[K4]) with real components: engines on real SQLite
 * files and the real workspace server over HTTP (PGlite and PostgreSQL). Claims travel as links, so
 * a teammate's replica shows the same page, and a removed source changes it there too.
 */
import { expect, it } from 'vitest';
import { runCommand } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { retireFile } from '#engine/knowledge/retire.ts';
import { syncNow } from '#engine/sync/index.ts';
import { forEachBackend, useServer } from '../server/harness.ts';
import { type Replica, useReplicas } from './replicas.ts';

type Fact = { id: string; statement: string; status: string; citations: { item: { id: string } }[] };

const call = async (engine: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(engine, 'agent'), name, input)) as Record<string, unknown>;

async function settle(...replicas: Replica[]): Promise<void> {
  for (let i = 0; i < 2; i++) for (const r of replicas) await syncNow(r.engine);
}

async function page(r: Replica, entity: string, history = false) {
  const facts = ((await call(r.engine, 'facts.list', { entity, history })) as { facts: Fact[] }).facts;
  return facts.map((f) => ({
    id: f.id,
    statement: f.statement,
    status: f.status,
    cited: f.citations.map((c) => c.item.id).sort(),
  }));
}

forEachBackend('[K1] facts between replicas', (backend) => {
  const env = useServer(backend);
  const replica = useReplicas(env);

  it("a teammate's replica shows the same page, and follows a removed source", async () => {
    const alice = await replica('alice');
    const bob = await replica('bob');
    const ids: string[] = [];
    for (const [n, price] of [
      [1, 'EUR 10'],
      [2, 'EUR 12'],
    ] as const) {
      const added = await alice.engine.add([
        alice.ws.write(
          `inv${n}.md`,
          `# Invoice ${n}\n\nAcme Paper supplies our paper. Price per box: ${price}.\n`,
        ),
      ]);
      ids.push(added.added[0]?.id as string);
    }
    await alice.engine.index();
    let entity = '';
    for (const [i, price] of ['EUR 10', 'EUR 12'].entries()) {
      const out = (await call(alice.engine, 'facts.state', {
        entity: 'Acme Paper',
        kind: 'company',
        statement: `A box costs ${price}.`,
        attribute: 'price',
        valid_at: `2026-0${i + 1}-01`,
        item_id: ids[i],
        quote: `Price per box: ${price}`,
      })) as { entity: { id: string } };
      await call(alice.engine, 'facts.state', {
        entity: out.entity.id,
        statement: 'Acme Paper supplies our paper.',
        item_id: ids[i],
        quote: 'Acme Paper supplies our paper.',
      });
      entity = out.entity.id;
    }
    await settle(alice, bob);
    const there = await page(bob, entity, true);
    expect(there).toEqual(await page(alice, entity, true));
    expect(there.filter((f) => f.status === 'current').map((f) => f.statement)).toEqual([
      'A box costs EUR 12.',
      'Acme Paper supplies our paper.',
    ]);

    // Alice removes the newer invoice: on both replicas the older price is current again and the
    // supply fact keeps one citation.
    retireFile(alice.engine.db, ids[1] as string);
    await settle(alice, bob);
    const after = await page(bob, entity);
    expect(after).toEqual(await page(alice, entity));
    expect(after.map((f) => [f.statement, f.cited])).toEqual([
      ['A box costs EUR 10.', [ids[0]]],
      ['Acme Paper supplies our paper.', [ids[0]]],
    ]);
  });
  it('[K16] a new version of a source reaches the teammate with its versions, and the same page', async () => {
    const alice = await replica('alice');
    const bob = await replica('bob');
    const text = (price: string) =>
      `# Price list\n\n## Supplier\n\nAcme Paper supplies our paper.\n\n## Price\n\nA box costs ${price}.\n`;
    const addAs = async (price: string) => {
      const out = await alice.engine.add([alice.ws.write('prices.md', text(price))], { externalId: 'PL-1' });
      await alice.engine.index();
      return out.added[0]?.id as string;
    };
    const sectionWith = (words: string) =>
      (
        alice.engine.db
          .prepare(
            `SELECT id FROM items WHERE storage_kind = 'section' AND retired_at IS NULL AND instr(body, ?) > 0`,
          )
          .get(words) as { id: string }
      ).id;
    const id = await addAs('EUR 10');
    const supplies = (await call(alice.engine, 'facts.state', {
      entity: 'Acme Paper',
      kind: 'company',
      statement: 'Acme Paper supplies our paper.',
      item_id: sectionWith('supplies our paper'),
      quote: 'Acme Paper supplies our paper.',
    })) as { entity: { id: string } };
    const entity = supplies.entity.id;
    await call(alice.engine, 'facts.state', {
      entity,
      statement: 'A box costs EUR 10.',
      attribute: 'price',
      item_id: sectionWith('A box costs'),
      quote: 'A box costs EUR 10.',
    });
    await settle(alice, bob);
    expect(await addAs('EUR 12')).toBe(id);
    await call(alice.engine, 'facts.state', {
      entity,
      statement: 'A box costs EUR 12.',
      attribute: 'price',
      item_id: sectionWith('A box costs'),
      quote: 'A box costs EUR 12.',
    });
    await settle(alice, bob);
    await bob.engine.index();
    const versions = async (r: Replica) =>
      ((await call(r.engine, 'items.versions', { id })) as { versions: { id: string; current: boolean }[] })
        .versions;
    expect(await versions(bob)).toEqual(await versions(alice));
    expect((await versions(bob)).map((v) => v.current)).toEqual([true, false]);
    const there = await page(bob, entity, true);
    expect(there).toEqual(await page(alice, entity, true));
    expect(there.filter((f) => f.status === 'current').map((f) => f.statement)).toEqual([
      'A box costs EUR 12.',
      'Acme Paper supplies our paper.',
    ]);
  });
});
