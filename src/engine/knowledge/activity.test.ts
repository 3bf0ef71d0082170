import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { logEvent } from '../telemetry.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listActivity } from './activity.ts';
import { upsertNote } from './notes.ts';

let ws: TestWorkspace;
beforeAll(() => {
  process.env.BRAIN_USER = 'alice';
});
afterEach(async () => {
  await ws?.cleanup();
});

describe('listActivity', () => {
  it("lists one user's entries newest first, pages with before, hides labels now out of scope", async () => {
    ws = createTestWorkspace();
    const engine = ws.open();
    engine.addMember('bob', ['sales']);
    engine.addMember('alice', ['sales']);
    const note = upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label: 'Sales target',
      body: 'Ten deals.',
      scope: 'team:sales',
      actor: 'alice',
      source: 'test',
    });
    const inject = { query: 'q', semantic: false, floor: 0.01, scores: [], anchors: [], tokens: 10, ms: 1 };
    logEvent(engine.db, 'chat', 'alice', 'inject', {
      ...inject,
      injected: [{ id: note.id, score: 0.016, isAnchor: false }],
      reason: 'injected 1',
    });
    logEvent(engine.db, 'chat', 'alice', 'inject', {
      ...inject,
      injected: [],
      reason: 'nothing found for this message',
    });
    logEvent(engine.db, 'agent', 'bob', 'search', { query: 'bob secret', semantic: false, ms: 1, hits: [] });
    logEvent(engine.db, 'agent', 'alice', 'tool', {
      tool: 'brain_search',
      agent: 'a',
      run: 'r',
      ok: false,
      ms: 2,
      error: { code: 'validation-failed', message: 'k' },
    });

    const all = listActivity(engine.db, { user: 'alice' });
    expect(all.map((e) => e.event)).toEqual(['tool', 'inject', 'inject']);
    expect(all.every((e) => e.user === 'alice')).toBe(true);
    expect(all[0]).toMatchObject({ tool: 'brain_search', ok: false });
    expect(all[1]).toMatchObject({ spoke: false, reason: 'nothing found for this message' });
    expect(all[2]).toMatchObject({ spoke: true, items: [{ id: note.id, label: 'Sales target' }] });
    const page = listActivity(engine.db, { user: 'alice', limit: 1, before: all[0]?.id });
    expect(page.map((e) => e.id)).toEqual([all[1]?.id]);

    engine.db.prepare("DELETE FROM team_members WHERE user_id = 'alice'").run();
    const later = listActivity(engine.db, { user: 'alice' });
    expect(later[2]?.items?.[0]).toMatchObject({ id: note.id, label: null });
  });
});
