/**
 * [D2] and [D3] in docs/SCHEMA.md, for the SQLite store and the server: shipped migrations never
 * change (their hashes are pinned in src/engine/db/migration-hashes.json and
 * src/server/db/migration-hashes.json), ids are unique and in order with new ones after the last
 * shipped one, and no migration imports another. The checks themselves are tried on altered
 * copies of the real migration lists and on migration files written to a temporary folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationImports, migrationPins, pinProblems, STORES, type Store } from './migrations.ts';
import { readJson } from './snapshot.ts';

async function problemsOf(store: Store): Promise<string[]> {
  const problems = pinProblems(store, readJson(store.pinsFile), await migrationPins(store));
  return problems.map((p) => p.message);
}

/** `store` with its migrations replaced by what `edit` makes of them. */
function altered(store: Store, edit: (list: Store['migrations']) => Store['migrations']): Store {
  return { ...store, migrations: edit(store.migrations) };
}

describe('[D2] shipped migrations never change', () => {
  for (const store of STORES) {
    it(`${store.name}: every migration has its pinned hash, ids are unique and in order`, async () => {
      const problems = await problemsOf(store);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }

  const [engine] = STORES as [Store];

  it('a changed migration fails: add a new migration instead', async () => {
    const changed = altered(engine, (list) =>
      list.map((m) =>
        m.id === '0006-sync' ? { ...m, sql: `${m.sql}\nCREATE INDEX x ON items (label);` } : m,
      ),
    );
    expect(await problemsOf(changed)).toEqual([
      'migration 0006-sync changed after it shipped: add a new migration instead',
    ]);
  });

  it('a changed run step fails like changed SQL (it is hashed by the text of its source)', async () => {
    const pins = await migrationPins(engine);
    expect(pins['0011-authority']).toEqual({ sql: expect.any(String), run: expect.any(String) });
    const pinned = readJson(engine.pinsFile) as { [id: string]: { sql: string; run?: string } };
    const tampered = { ...pinned, '0011-authority': { ...pinned['0011-authority'], run: '0'.repeat(64) } };
    expect(pinProblems(engine, tampered, pins).map((p) => p.message)).toEqual([
      'migration 0011-authority changed after it shipped: add a new migration instead',
    ]);
  });

  it('a new migration fails until `npm run db:snapshot` records it, and must sort after the last one', async () => {
    const added = altered(engine, (list) => [...list, { id: '9999-new', sql: 'SELECT 1;' }]);
    const problems = pinProblems(added, readJson(engine.pinsFile), await migrationPins(added));
    expect(problems).toContainEqual({
      kind: 'new',
      id: '9999-new',
      message: expect.stringMatching(/^migration 9999-new is not recorded in .*run `npm run db:snapshot`/),
    });
    const early = altered(engine, (list) => [...list, { id: '0010-early', sql: 'SELECT 1;' }]);
    const last = engine.migrations.at(-1)?.id;
    expect(await problemsOf(early)).toEqual(
      expect.arrayContaining([
        `migration 0010-early is listed after ${last}`,
        `migration 0010-early is new but sorts before the last shipped one (${last}): give it a later id`,
      ]),
    );
  });

  it('ids are unique, and a shipped migration is never removed', async () => {
    const twice = altered(engine, (list) => [...list, list[list.length - 1] as Store['migrations'][number]]);
    expect(await problemsOf(twice)).toContain(`migration id ${engine.migrations.at(-1)?.id} is used twice`);
    const removed = altered(engine, (list) => list.filter((m) => m.id !== '0008-pull-ack'));
    expect(await problemsOf(removed)).toContain(
      'migration 0008-pull-ack shipped and is gone: shipped migrations are never removed',
    );
  });
});

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('[D3] no migration imports another', () => {
  for (const store of STORES) {
    it(`${store.name}: no file in ${store.dir} imports another migration`, () => {
      const imports = migrationImports(store.dir);
      const advice = 'move what they share into a module that is not a migration (docs/SCHEMA.md [D3])';
      expect(imports, `${imports.join('\n')}\n${advice}`).toEqual([]);
    });
  }

  it('finds a sibling import, a re-export and a dynamic import; shared modules are allowed', () => {
    dir = mkdtempSync(join(tmpdir(), 'brain-migrations-'));
    writeFileSync(
      join(dir, '0001-a.ts'),
      "import { part } from './sql-parts.ts';\nexport const sql = part;\n",
    );
    writeFileSync(join(dir, '0002-b.ts'), "import { sql as a } from './0001-a.ts';\nexport const sql = a;\n");
    writeFileSync(join(dir, '0003-c.ts'), "export { sql } from './0002-b.ts';\n");
    writeFileSync(
      join(dir, '0004-d.ts'),
      "export const load = () => import('../x/../' + 'y');\nimport('./0001-a.ts');\n",
    );
    writeFileSync(
      join(dir, 'sql-parts.ts'),
      "import { sql } from './0001-a.ts';\nexport const part = sql;\n",
    );
    expect(migrationImports(dir)).toEqual([
      `${dir}/0002-b.ts imports ./0001-a.ts`,
      `${dir}/0003-c.ts imports ./0002-b.ts`,
      `${dir}/0004-d.ts imports ./0001-a.ts`,
    ]);
  });
});
