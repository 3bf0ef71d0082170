import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilesList } from '#shared/api/ops/files.ts';
import type { Engine } from '../engine.ts';
import { dossier } from '../read/dossier.ts';
import { listFiles } from '../read/files-list.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

const TEXT = '# Salaries\n\nThe salary bands for 2026, by level.\n';

let ws: TestWorkspace;
let alice: Engine;
let bob: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  const local = ws.open();
  local.addMember('alice', ['ops']);
  local.addMember('bob', ['ops']);
  alice = ws.open({ user: 'alice' });
  bob = ws.open({ user: 'bob' });
});
afterEach(async () => {
  await ws.cleanup();
});

async function addAs(engine: Engine, name: string, scope: string): Promise<string> {
  const [file] = (await engine.add([ws.write(`${engine.user}/${name}`, TEXT)], { scope })).added;
  return file?.id ?? '';
}

function storedHealth(engine: Engine, id: string): string[] {
  const row = engine.db.prepare('SELECT health FROM items WHERE id = ?').get(id) as { health: string };
  return JSON.parse(row.health) as string[];
}

function listedHealth(engine: Engine, id: string): string[] | undefined {
  return listFiles(engine, FilesList.input.parse({})).rows.find((r) => r.id === id)?.health;
}

describe('same-bytes health notes', () => {
  it('an org file with the same bytes as a user-scope file does not name it', async () => {
    await addAs(alice, 'my-salary.md', 'user:alice');
    const org = await addAs(alice, 'bands.md', 'org');
    expect(storedHealth(alice, org)).toEqual([]);
    // Everyone who sees the new file sees an org file, and a file in exactly its scope.
    const copy = await addAs(bob, 'bands-copy.md', 'team:ops');
    expect(storedHealth(bob, copy)).toEqual(['same bytes as bands.md']);
    const mine = await addAs(alice, 'again.md', 'user:alice');
    expect(storedHealth(alice, mine)).toEqual(['same bytes as my-salary.md']);
  });

  it('a note an older release stored about a file the viewer cannot see is not shown to them', async () => {
    await addAs(alice, 'my-salary.md', 'user:alice');
    const org = await addAs(alice, 'bands.md', 'org');
    alice.db
      .prepare('UPDATE items SET health = ? WHERE id = ?')
      .run(JSON.stringify(['same bytes as my-salary.md', 'invalid YAML front matter: ignored']), org);
    expect(listedHealth(bob, org)).toEqual(['invalid YAML front matter: ignored']);
    expect((await dossier(bob, org)).item.health).toEqual(['invalid YAML front matter: ignored']);
    // Its author sees that file, so the note is true for her and stays.
    expect(listedHealth(alice, org)).toEqual([
      'same bytes as my-salary.md',
      'invalid YAML front matter: ignored',
    ]);
    // Re-indexing keeps only what every reader of the file may see.
    await alice.index();
    expect(storedHealth(alice, org)).not.toContain('same bytes as my-salary.md');
  });

  it('a moved file keeps only a note every reader of its new scope may see', async () => {
    const ops = await addAs(alice, 'ops-bands.md', 'team:ops');
    const mine = await addAs(alice, 'bands.md', 'team:ops');
    expect(storedHealth(alice, mine)).toEqual(['same bytes as ops-bands.md']);
    alice.move(mine, 'org');
    expect(storedHealth(alice, mine)).toEqual([]);
    alice.move(mine, 'team:ops');
    expect(storedHealth(alice, mine)).toEqual(['same bytes as ops-bands.md']);
    expect(listedHealth(bob, ops)).toEqual([]);
  });
});
