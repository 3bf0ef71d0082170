import { truncateSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from './engine.ts';
import { createTestWorkspace, type TestWorkspace } from './testing/test-engine.ts';

const HANDBOOK = `---
title: Team Handbook
date: 2026-01-15
---
Intro text before any heading.

# Billing

The billing migration is owned by Dana. It moves invoices to the new ledger.

## Refunds

Refunds over 500 euros need a second approval from finance.

# Travel

Book trains for trips under four hours.
`;

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => {
  await ws.cleanup();
});

describe('add', () => {
  it('adds supported files, refuses the rest with reasons, and is not answerable before indexing', async () => {
    const md = ws.write('handbook.md', HANDBOOK);
    ws.write('notes.txt', 'Plain text notes about the office wifi password policy.');
    ws.write('picture.bmp', Buffer.from([0x42, 0x4d, 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0]));
    ws.write('empty.md', '');
    const big = ws.write('big.txt', '');
    truncateSync(big, 101 * 1024 * 1024);
    const result = await engine.add([ws.files]);
    expect(result.added.map((a) => a.label).sort()).toEqual(['handbook.md', 'notes.txt']);
    const reasons = Object.fromEntries(result.refused.map((r) => [r.path.split('/').pop(), r.reason]));
    expect(reasons['picture.bmp']).toMatch(/unsupported/);
    expect(reasons['empty.md']).toMatch(/empty/);
    expect(reasons['big.txt']).toMatch(/too large: 101\.0 MB/);
    const row = engine.db
      .prepare('SELECT indexed, origin_actor, origin_source FROM items WHERE label = ?')
      .get('handbook.md');
    expect(row).toEqual({ indexed: 0, origin_actor: engine.user, origin_source: 'upload' });
    expect((await engine.search('billing migration')).hits).toHaveLength(0);
    expect((await engine.add([md])).unchanged).toHaveLength(1);
  });

  it('refuses a scope the user is not in, and bad scopes, changing nothing', async () => {
    const path = ws.write('a.md', '# A\ntext');
    await expect(engine.add([path], { scope: 'team:secret' })).rejects.toThrow(
      /cannot write in scope team:secret/,
    );
    await expect(engine.add([path], { scope: 'galaxy' })).rejects.toThrow(/Unknown scope/);
    expect(engine.status().counts.files).toBe(0);
  });
});

describe('index and read', () => {
  it('chunks on headings with breadcrumbs, and every citation reads back its exact text', async () => {
    ws.write('handbook.md', HANDBOOK);
    await engine.add([ws.files]);
    const report = await engine.index();
    expect(report.failed).toEqual([]);
    expect(report.indexed[0]?.sections).toBe(4);
    const sections = engine.db
      .prepare("SELECT id, label, body FROM items WHERE storage_kind = 'section' ORDER BY ordinal")
      .all() as { id: string; label: string; body: string }[];
    expect(sections.map((s) => s.label)).toEqual([
      'Team Handbook',
      'Team Handbook > Billing',
      'Team Handbook > Billing > Refunds',
      'Team Handbook > Travel',
    ]);
    for (const s of sections) {
      expect((await engine.read(s.id)).text).toBe(s.body);
    }
    const refunds = await engine.read(sections[2]!.id);
    expect(refunds.citation?.locator?.type).toBe('text');
    expect(refunds.lineStart).toBe(11);
  });

  it('re-indexing unchanged bytes changes nothing; changed bytes retire stale sections and mark old citations stale', async () => {
    const path = ws.write('handbook.md', HANDBOOK);
    const [file] = (await engine.add([path])).added;
    await engine.index();
    const snapshot = () =>
      engine.db.prepare('SELECT id, version, updated_at, retired_at FROM items ORDER BY id').all();
    const before = snapshot();
    const again = await engine.index([file!.id]);
    expect(again.indexed[0]?.sections).toBe(4);
    expect(snapshot()).toEqual(before);

    const travel = engine.db.prepare("SELECT id FROM items WHERE label LIKE '%Travel'").get() as {
      id: string;
    };
    writeFileSync(path, HANDBOOK.replace(/# Travel[\s\S]*$/, '# Security\n\nRotate keys yearly.\n'));
    expect((await engine.add([path])).added).toHaveLength(1);
    await expect(engine.read(travel.id)).rejects.toThrow(/has changed since this passage was indexed/);
    await engine.index();
    const retired = engine.db.prepare('SELECT retired_at FROM items WHERE id = ?').get(travel.id) as {
      retired_at: string | null;
    };
    expect(retired.retired_at).not.toBeNull();
    expect((await engine.search('trains trips hours')).hits.find((h) => h.id === travel.id)).toBeUndefined();
    expect((await engine.search('rotate keys')).hits[0]?.label).toBe('Team Handbook > Security');
    const billing = engine.db
      .prepare(
        "SELECT id, retired_at, superseded_by FROM items WHERE label = 'Team Handbook > Billing' ORDER BY rowid",
      )
      .all() as { id: string; retired_at: string | null; superseded_by: string | null }[];
    expect(billing).toHaveLength(2);
    expect(billing[0]?.retired_at).not.toBeNull();
    expect(billing[0]?.superseded_by).toBe(billing[1]?.id);
    expect(billing[1]?.retired_at).toBeNull();
    const supersedes = engine.db
      .prepare("SELECT COUNT(*) AS n FROM edges WHERE type = 'SUPERSEDES' AND from_id = ? AND to_id = ?")
      .get(billing[1]?.id, billing[0]?.id);
    expect(supersedes).toEqual({ n: 1 });
    const live = engine.db
      .prepare("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'section' AND retired_at IS NULL")
      .get();
    expect(live).toEqual({ n: 4 });
  });

  it('reads line ranges of a whole file', async () => {
    const [file] = (await engine.add([ws.write('n.txt', 'one\ntwo\nthree\nfour\n')])).added;
    await engine.index();
    const r = await engine.read(file!.id, { from: 2, to: 3 });
    expect(r.text).toBe('two\nthree');
    expect([r.lineStart, r.lineEnd]).toEqual([2, 3]);
  });
});

describe('search', () => {
  it('keyword-only when the model is missing, with citations', async () => {
    ws.write('handbook.md', HANDBOOK);
    await engine.add([ws.files]);
    await engine.index();
    expect(engine.status().model.status).toBe('off');
    const result = await engine.search('who owns the billing migration?');
    expect(result.semantic).toBe(false);
    const top = result.hits[0]!;
    expect(top.label).toBe('Team Handbook > Billing');
    expect(top.citation?.fileLabel).toBe('Team Handbook');
    expect(top.citation?.lineStart).toBeGreaterThan(0);
    expect((await engine.search('yo')).hits).toEqual([]);
  });

  it('caps k for agents at 8', async () => {
    await expect(engine.search('x', { k: 9 })).rejects.toThrow(/k must be a whole number from 1 to 8/);
  });

  it('with the model on, runs the vector streams and keeps scope filtering inside every stream', async () => {
    const withModel = ws.open({ model: true });
    withModel.addMember('alice', ['finance']);
    withModel.addMember('bob', []);
    const alice = ws.open({ model: true, user: 'alice' });
    const bob = ws.open({ model: true, user: 'bob' });
    await alice.add(
      [ws.write('payroll.md', '# Payroll\n\nSalaries are paid on the 25th by the finance team.')],
      { scope: 'team:finance' },
    );
    await alice.add([ws.write('private.md', '# Diary\n\nMy salary review is next week.')], {
      scope: 'user:alice',
    });
    await bob.add([
      ws.write('public.md', '# Office\n\nThe office opens at 8. Salaries questions go to finance.'),
    ]);
    await alice.index();
    await bob.index();
    const a = await alice.search('salaries paid finance', { k: 8 });
    expect(a.semantic).toBe(true);
    expect(new Set(a.hits.map((h) => h.scope))).toEqual(new Set(['team:finance', 'user:alice', 'org']));
    const b = await bob.search('salaries paid finance salary review', { k: 8 });
    expect(b.semantic).toBe(true);
    expect(b.hits.length).toBeGreaterThan(0);
    expect(b.hits.every((h) => h.scope === 'org')).toBe(true);
    const hidden = a.hits.find((h) => h.scope === 'team:finance')!;
    await expect(bob.read(hidden.id)).rejects.toThrow(/No item with id/);
    const vectorRows = withModel.db.prepare('SELECT COUNT(*) AS n FROM vec_items').get() as { n: number };
    expect(vectorRows.n).toBeGreaterThan(0);
  });
});
