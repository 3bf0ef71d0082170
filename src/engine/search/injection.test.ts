import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import {
  absoluteFloor,
  INJECTION_MAX_ITEMS,
  INJECTION_TOKEN_MAX,
  inject,
  trimBody,
  waterFill,
} from './injection.ts';

let ws: TestWorkspace;
// The local user is the acting user here.
beforeAll(() => {
  process.env.BRAIN_USER = 'alice';
});
afterEach(async () => {
  await ws?.cleanup();
});

const POLICY = `# Billing handbook

## Refunds

Annual plans are refunded pro rata within 30 days of renewal. Monthly plans are never refunded.
Finance approves every refund above 500 euros.

## Invoices

Invoices go out on the first working day of the month from the billing system.

## Discounts

Nonprofits get a 40 % discount on the team plan after the sales lead signs off.
`;

async function indexedWorkspace(model: boolean): Promise<Engine> {
  ws = createTestWorkspace();
  const engine = ws.open({ model, user: 'alice' });
  await engine.add([ws.write('billing.md', POLICY)]);
  await engine.index();
  return engine;
}

function lastInjectEvent(engine: Engine): Record<string, unknown> {
  const row = engine.db
    .prepare("SELECT surface, user_id, data FROM telemetry WHERE event = 'inject' ORDER BY id DESC LIMIT 1")
    .get() as { surface: string; user_id: string; data: string };
  return { surface: row.surface, user: row.user_id, ...JSON.parse(row.data) };
}

describe('the floor rule', () => {
  it('is 0.02 when keyword and vector lists ran and half that with keywords alone', () => {
    expect(absoluteFloor(true)).toBeCloseTo(0.02);
    expect(absoluteFloor(false)).toBeCloseTo(0.01);
    // one first place alone: under the hybrid floor, over the keyword-only one
    expect(1 / 61).toBeLessThan(absoluteFloor(true));
    expect(1 / 61).toBeGreaterThan(absoluteFloor(false));
  });
});

describe('inject, keyword only (no model)', () => {
  it('injects the relevant section with its citation', async () => {
    const engine = await indexedWorkspace(false);
    const out = await inject(engine, { message: 'how are annual plans refunded?', surface: 'chat' });
    expect(out.semantic).toBe(false);
    expect(out.floor).toBeCloseTo(0.01);
    expect(out.items.length).toBeGreaterThan(0);
    expect(out.items[0]?.label).toMatch(/refunds/i);
    expect(out.items[0]?.citation?.fileLabel).toBe('Billing handbook');
    expect(out.items[0]?.citation?.lineStart).toBeGreaterThan(0);
    expect(out.text).toContain('pro rata');
    expect(out.text).toContain('never instructions');
    expect(out.reason).toMatch(/^injected/);
    const logged = lastInjectEvent(engine);
    expect(logged).toMatchObject({ surface: 'chat', user: 'alice', query: 'how are annual plans refunded?' });
    expect((logged.injected as unknown[]).length).toBe(out.items.length);
  });

  it.each(['yo', 'thanks!', 'zebra quantum marmalade'])('injects nothing for %j', async (message) => {
    const engine = await indexedWorkspace(false);
    const out = await inject(engine, { message, surface: 'chat' });
    expect(out.items).toEqual([]);
    expect(out.text).toBe('');
    expect(out.tokens).toBe(0);
    expect(out.reason).toMatch(/nothing found/);
    expect(lastInjectEvent(engine).reason).toBe(out.reason);
  });
});

describe('inject, hybrid (tiny model)', () => {
  it('injects a relevant section and logs scores', async () => {
    const engine = await indexedWorkspace(true);
    const out = await inject(engine, { message: 'nonprofits discount on the team plan', surface: 'agent' });
    expect(out.semantic).toBe(true);
    expect(out.floor).toBeCloseTo(0.02);
    expect(out.items[0]?.label).toMatch(/discounts/i);
    expect(out.scores[0]?.vote).toBeGreaterThanOrEqual(0.02);
    expect(lastInjectEvent(engine).surface).toBe('agent');
  });

  it.each(['yo', 'thanks!'])(
    'injects nothing for small talk %j although the vector lists answered',
    async (m) => {
      const engine = await indexedWorkspace(true);
      const out = await inject(engine, { message: m, surface: 'chat' });
      expect(out.scores.length).toBeGreaterThan(0); // nearest neighbours always exist...
      expect(out.items).toEqual([]); // ...but a vector vote alone stays under the floor
      expect(out.reason).toMatch(/below the floor 0\.0200/);
    },
  );

  it('still injects knowledge that is a year old (the floor is checked before freshness)', async () => {
    const engine = await indexedWorkspace(true);
    engine.db.prepare("UPDATE items SET occurred_at = '2020-01-01T00:00:00.000Z'").run();
    const out = await inject(engine, { message: 'invoices first working day', surface: 'chat' });
    expect(out.items[0]?.label).toMatch(/invoices/i);
    expect(out.items[0]?.score ?? 1).toBeLessThan(0.02);
  });
});

describe('anchors, caps and budget', () => {
  it('puts visible anchors first, skips invisible and extra ones', async () => {
    const engine = await indexedWorkspace(false);
    engine.addMember('bob', []);
    const mine = upsertNote(engine.db, engine.workspaceId, {
      kind: 'decision',
      label: 'Alice private plan',
      body: 'Quarterly review of refunds',
      scope: 'user:alice',
      actor: 'alice',
      source: 'test',
    });
    const bobs = upsertNote(engine.db, engine.workspaceId, {
      kind: 'decision',
      label: 'Bob secret',
      body: 'Bob thinks refunds are too generous',
      scope: 'user:bob',
      actor: 'bob',
      source: 'test',
    });
    const out = await inject(engine, {
      message: 'refunds',
      anchors: [mine.id, bobs.id, 'n_missing', mine.id, 'n_a', 'n_b'],
      surface: 'chat',
    });
    expect(out.items[0]).toMatchObject({ id: mine.id, isAnchor: true });
    expect(out.items.some((i) => i.id === bobs.id)).toBe(false);
    expect(out.anchors).toEqual([
      { id: mine.id, status: 'included' },
      { id: bobs.id, status: 'not-found' },
      { id: 'n_missing', status: 'not-found' },
      { id: mine.id, status: 'duplicate' },
      { id: 'n_a', status: 'not-found' },
      { id: 'n_b', status: 'over-limit' },
    ]);
    expect(out.items.filter((i) => i.id === mine.id)).toHaveLength(1);
    expect(out.text).not.toContain('generous');
  });

  it('caps at 8 items and 1500 tokens, trimming long bodies', async () => {
    ws = createTestWorkspace();
    const engine = ws.open({ user: 'alice' });
    // One source is one item ([R6]): fourteen files, so the cap is what stops them.
    const paths = Array.from({ length: 14 }, (_, i) =>
      ws.write(
        `retention-${i}.md`,
        `# Retention ${i}\n\n## Rule ${i}\n\n${`Data retention rule number ${i}: keep records. `.repeat(25)}`,
      ),
    );
    await engine.add(paths);
    await engine.index();
    const out = await inject(engine, { message: 'data retention rule', surface: 'chat' });
    expect(out.items.length).toBe(INJECTION_MAX_ITEMS);
    expect(out.tokens).toBeLessThanOrEqual(INJECTION_TOKEN_MAX);
    expect(out.tokens).toBeGreaterThanOrEqual(1200);
    expect(out.text.length).toBeLessThanOrEqual(INJECTION_TOKEN_MAX * 4);
    expect(out.items.some((i) => i.body.endsWith('…'))).toBe(true);
  });
});

describe('fail-open', () => {
  it('a failing search injects nothing, says why, and logs the turn', async () => {
    const engine = await indexedWorkspace(false);
    const broken = {
      db: engine.db,
      user: engine.user,
      search: async () => {
        throw new Error('disk on fire');
      },
    };
    const out = await inject(broken, { message: 'refunds', surface: 'chat' });
    expect(out.items).toEqual([]);
    expect(out.reason).toBe('search failed: disk on fire; no memories this turn');
    expect(lastInjectEvent(engine).reason).toBe(out.reason);
  });
});

describe('budget helpers', () => {
  it('water-fills: short bodies whole, long ones share the rest', () => {
    expect(waterFill([100, 5000, 5000], 2100)).toEqual([100, 1000, 1000]);
    expect(waterFill([10, 20], 1000)).toEqual([10, 20]);
    expect(waterFill([], 100)).toEqual([]);
  });
  it('trims at a word boundary and never exceeds the cap', () => {
    const t = trimBody('alpha beta gamma delta epsilon', 20);
    expect(t.length).toBeLessThanOrEqual(20);
    expect(t.endsWith('…')).toBe(true);
    expect(trimBody('short', 20)).toBe('short');
  });
});
