/**
 * Export and import ([N16], [N17] in docs/PACKAGING.md) on real workspaces: files added and
 * indexed, a note, a fact with its citation, a mention; exported to plain files, imported into a
 * new workspace with the same ids, and compared row by row.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { dumpTables } from '../testing/db-dump.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';
import { exportWorkspace } from './export.ts';
import { importWorkspace } from './import.ts';
import { NameBook, safeFileName } from './layout.ts';

let source: TestWorkspace;
let target: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  source = createTestWorkspace();
  target = createTestWorkspace();
  engine = source.open();
});
afterEach(async () => {
  await source.cleanup();
  await target.cleanup();
});

const call = async (e: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(e, 'cli'), name, input)) as Record<string, unknown>;

const PDF_LIKE = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f, 0x0a, 0x0d, 0x00]);

/** A workspace with a bit of everything: files in three scopes, a note, a fact, a mention, a binary blob. */
async function fill(): Promise<{ handbook: string; secret: string; other: string }> {
  engine.addMember(engine.user, ['blue']);
  const added = await engine.add([
    source.write(
      'handbook.md',
      '# Handbook\n\nAcme Paper supplies our paper. Price per box: EUR 10.\n\n## Leave\n\nSix weeks of sabbatical.\n',
    ),
    source.write('sub/index.md', '# Sub\n\nAn index file in a folder.\n'),
  ]);
  const blue = await engine.add(
    [source.write('blue.md', '# Blue plan\n\nOnly the blue team reads this.\n')],
    {
      scope: 'team:blue',
    },
  );
  const mine = await engine.add([source.write('mine.md', '# Diary\n\nMy own words.\n')], {
    scope: `user:${engine.user}`,
  });
  await engine.index();
  const handbook = added.added[0]?.id as string;
  await call(engine, 'notes.add', {
    kind: 'decision',
    label: 'Paper: keep Acme',
    body: 'We stay with Acme Paper.',
  });
  await call(engine, 'facts.state', {
    entity: 'Acme Paper',
    kind: 'company',
    statement: 'Acme Paper charges EUR 10 per box',
    attribute: 'price',
    item_id: handbook,
    quote: 'Price per box: EUR 10',
  });
  await call(engine, 'mentions.observe', {
    item_id: handbook,
    name: 'Acme Paper',
    kind: 'company',
    quote: 'Acme Paper',
  });
  // Another local member's team: not this member's to export.
  engine.addMember('bob', ['red']);
  const bob = openAsLocalUser('bob', { home: source.home, modelDir: join(source.home, 'no-model') });
  const red = await bob.add([source.write('red.md', '# Red secret\n\nOnly red reads this.\n')], {
    scope: 'team:red',
  });
  await bob.close();
  writeFileSync(join(source.files, 'bytes.bin'), PDF_LIKE);
  return {
    handbook,
    secret: red.added[0]?.id as string,
    other: (blue.added[0]?.id ?? mine.added[0]?.id) as string,
  };
}

/** Rows as a member reads them: local bookkeeping (rowid, workspace, vectors) aside. */
function rows(e: Engine) {
  const t = dumpTables(e.db);
  const items = (t.items ?? [])
    .map(({ rowid: _r, workspace_id: _w, embedded_model: _m, ...rest }) => rest)
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const edges = [...(t.edges ?? [])].sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return { items, edges };
}

function search(e: Engine, query: string) {
  return call(e, 'search.query', { query }) as Promise<{ hits: { item: { id: string } }[] }>;
}

describe('[N16] brain export', () => {
  it('writes every visible file, note, entity, fact and edge as plain files and JSON lines, and nothing of a team the member is not in', async () => {
    const { secret } = await fill();
    const out = join(source.files, 'export');
    const phases: string[] = [];
    const { folder, counts } = await exportWorkspace(engine, out, {
      onProgress: (p) => phases.push(p.phase),
    });
    expect(folder).toBe(out);
    expect(phases).toContain('items');
    expect(phases.at(-1)).toBe('done');
    expect(counts.files).toBe(4);
    expect(counts.notes).toBe(1);
    expect(counts.facts).toBe(1);
    expect(counts.entities).toBeGreaterThan(0);
    expect(counts.sections).toBeGreaterThan(4);

    expect(readdirSync(join(out, 'files')).sort()).toEqual([
      'blue.md',
      'handbook.md',
      'index.md',
      'mine.md',
      'retired',
    ]);
    expect(readFileSync(join(out, 'files', 'handbook.md'), 'utf8')).toContain('Price per box: EUR 10.');
    expect(readdirSync(join(out, 'notes'))).toEqual(['Paper_ keep Acme.md']);
    expect(readFileSync(join(out, 'README.txt'), 'utf8')).toContain('brain import');

    const items = readFileSync(join(out, 'items.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(items.some((i) => i.id === secret || i.scope === 'team:red')).toBe(false);
    const handbook = items.find((i) => i.label === 'handbook.md');
    expect(handbook).toMatchObject({ storage_kind: 'file', scope: 'org', path: 'files/handbook.md' });
    expect(handbook.origin_actor).toBe(engine.user);
    expect(items.find((i) => i.label === 'blue.md').scope).toBe('team:blue');

    const facts = readFileSync(join(out, 'facts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(facts).toEqual([
      expect.objectContaining({
        entity: 'Acme Paper',
        statement: 'Acme Paper charges EUR 10 per box',
        attribute: 'price',
        source: 'handbook.md',
      }),
    ]);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'org-brain-export', version: 1, member: engine.user });
    expect(readFileSync(join(out, 'teams.jsonl'), 'utf8')).toContain('"blue"');
    expect(readFileSync(join(out, 'teams.jsonl'), 'utf8')).not.toContain('"red"');
  });

  it('refuses a folder that is not empty, and a file, writing nothing', async () => {
    await fill();
    const full = join(source.files, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'keep.txt'), 'mine');
    await expect(exportWorkspace(engine, full)).rejects.toThrow(/not empty/);
    expect(readdirSync(full)).toEqual(['keep.txt']);
    await expect(exportWorkspace(engine, join(full, 'keep.txt'))).rejects.toThrow(/is a file/);
    expect(readdirSync(source.files).filter((n) => n.includes('partial'))).toEqual([]);
  });

  it('stopped half way leaves no folder and no partial one', async () => {
    await fill();
    const stop = new AbortController();
    const out = join(source.files, 'stopped');
    await expect(
      exportWorkspace(engine, out, { signal: stop.signal, onProgress: () => stop.abort() }),
    ).rejects.toThrow(/stopped/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(source.files).filter((n) => n.includes('partial'))).toEqual([]);
  });
});

describe('[N17] brain import', () => {
  it('round trip: an empty workspace gets every item and edge back with the same ids, scopes and origins, and finds them', async () => {
    await fill();
    const out = join(source.files, 'export');
    await exportWorkspace(engine, out);
    const before = rows(engine);
    // The red team's file is not the member's: it is not in the export, so not compared.
    before.items = before.items.filter(
      (i) => i.scope !== 'team:red' && i.file_id !== before.items.find((f) => f.scope === 'team:red')?.id,
    );
    const redIds = new Set(
      dumpTables(engine.db)
        .items?.filter((i) => i.scope === 'team:red')
        .map((i) => i.id as string),
    );
    before.edges = before.edges.filter(
      (e) => !redIds.has(e.from_id as string) && !redIds.has(e.to_id as string),
    );

    const fresh = openAsLocalUser(engine.user, {
      home: target.home,
      modelDir: join(target.home, 'no-model'),
    });
    // [N20] An import makes nobody a member of a team: the member is made one of blue here first.
    fresh.addMember(fresh.user, ['blue']);
    const report = importWorkspace(fresh, out);
    expect(report.personalScope).toBeNull();
    expect(report.leftOut.teams).toEqual([]);
    expect(report.counts.files).toBe(4);
    const after = rows(fresh);
    expect(after.items).toEqual(before.items);
    expect(after.edges).toEqual(before.edges);

    const handbook = after.items.find((i) => i.label === 'handbook.md');
    expect(fresh.blobs.get(handbook?.blob as string).toString('utf8')).toContain('Price per box');
    const hits = await search(fresh, 'sabbatical');
    expect(hits.hits.length).toBeGreaterThan(0);
    const acme = after.items.find((i) => i.storage_kind === 'entity' && i.label === 'Acme Paper');
    const facts = (await call(fresh, 'facts.list', { entity: acme?.id })) as {
      facts: { statement: string }[];
    };
    expect(facts.facts.map((f) => f.statement)).toEqual(['Acme Paper charges EUR 10 per box']);
    // The blue team's file came along: the member is in blue here.
    expect((await search(fresh, 'blue team')).hits.length).toBeGreaterThan(0);
    await fresh.close();
  });

  it("gives the exporting member's own scope to the member importing", async () => {
    await fill();
    const out = join(source.files, 'export');
    await exportWorkspace(engine, out);
    const fresh = openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
    const report = importWorkspace(fresh, out);
    expect(report.personalScope).toEqual({ from: `user:${engine.user}`, to: 'user:carol' });
    expect((await search(fresh, 'diary own words')).hits.length).toBeGreaterThan(0);
    await fresh.close();
  });

  it('refuses a workspace that holds anything, changing nothing', async () => {
    await fill();
    const out = join(source.files, 'export');
    await exportWorkspace(engine, out);
    const fresh = target.open();
    await fresh.add([target.write('x.md', '# X\n\nalready here\n')]);
    const before = dumpTables(fresh.db);
    expect(() => importWorkspace(fresh, out)).toThrow(/already holds 2 items|already holds \d+ items/);
    expect(dumpTables(fresh.db)).toEqual(before);
  });

  it('bad input names the file and line and imports nothing: a changed original, a broken line, a path out of files/', async () => {
    await fill();
    const out = join(source.files, 'export');
    await exportWorkspace(engine, out);
    const fresh = target.open();
    const empty = dumpTables(fresh.db);

    const original = readFileSync(join(out, 'files', 'handbook.md'));
    writeFileSync(join(out, 'files', 'handbook.md'), 'tampered');
    expect(() => importWorkspace(fresh, out)).toThrow(
      /items\.jsonl line \d+: files\/handbook\.md is not the file that was exported/,
    );
    writeFileSync(join(out, 'files', 'handbook.md'), original);

    const lines = readFileSync(join(out, 'items.jsonl'), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"path":"files/handbook.md"'));
    const escaped = lines.map((l, i) =>
      i === at ? l.replace('"path":"files/handbook.md"', '"path":"files/../../../etc/passwd"') : l,
    );
    writeFileSync(join(out, 'items.jsonl'), escaped.join('\n'));
    expect(() => importWorkspace(fresh, out)).toThrow(
      new RegExp(`items\\.jsonl line ${at + 1}: path .* is outside files/`),
    );

    writeFileSync(
      join(out, 'items.jsonl'),
      [...lines.slice(0, 2), '{"id": 5}', ...lines.slice(2)].join('\n'),
    );
    expect(() => importWorkspace(fresh, out)).toThrow(/items\.jsonl line 3: /);
    writeFileSync(join(out, 'items.jsonl'), lines.join('\n'));

    expect(() => importWorkspace(fresh, source.files)).toThrow(/not an Org Brain export/);
    expect(dumpTables(fresh.db)).toEqual(empty);
    importWorkspace(fresh, out);
    expect((await search(fresh, 'sabbatical')).hits.length).toBeGreaterThan(0);
  });
});

describe('export names', () => {
  it('makes names every file system takes, once per folder', () => {
    expect(safeFileName('a/b\\c:d*?.md')).toBe('a_b_c_d__.md');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName('CON.txt')).toBe('_CON.txt');
    expect(safeFileName('trailing. ')).toBe('trailing');
    const long = safeFileName(`${'ж'.repeat(200)}.pdf`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(180);
    expect(long.endsWith('.pdf')).toBe(true);
    const book = new NameBook();
    expect([book.claim('index.md'), book.claim('INDEX.md'), book.claim('index.md')]).toEqual([
      'index.md',
      'INDEX (2).md',
      'index (3).md',
    ]);
  });
});
