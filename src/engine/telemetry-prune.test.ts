/**
 * [B3] in docs/WORKSPACE.md: activity is kept 90 days, on a real workspace file. Old searches, tool
 * calls and adds go, in batches; recent ones and an admin's act-as audit stay; the host's hourly
 * look does it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BackupSchedule } from './backup/schedule.ts';
import { stmt } from './db/driver.ts';
import { pruneTelemetry, TELEMETRY_KEEP_DAYS } from './telemetry.ts';
import { createTestWorkspace, type TestWorkspace } from './testing/test-engine.ts';

let ws: TestWorkspace;
afterEach(async () => ws?.cleanup());

const DAY = 86_400_000;
const NOW = new Date('2026-12-06T12:00:00Z');

function seed(ws: TestWorkspace, rows: { daysAgo: number; event: string }[]) {
  const engine = ws.open();
  const insert = stmt(
    engine.db,
    "INSERT INTO telemetry (at, surface, user_id, event, data) VALUES (?, 'cli', 'root', ?, '{}')",
  );
  engine.db.transaction(() => {
    for (const r of rows) insert.run(new Date(NOW.getTime() - r.daysAgo * DAY).toISOString(), r.event);
  })();
  return engine;
}

const left = (engine: ReturnType<TestWorkspace['open']>) =>
  engine.db.prepare('SELECT event, at FROM telemetry ORDER BY id').all() as { event: string; at: string }[];

describe('[B3] activity is kept 90 days', () => {
  it('removes what is older than 90 days, oldest first across batches, and keeps the act-as audit', () => {
    ws = createTestWorkspace();
    // 4,500 old rows (more than two batches), one old act-as, then 30 recent rows.
    const old = Array.from({ length: 4500 }, (_, i) => ({ daysAgo: 400 - i / 100, event: 'search' }));
    const engine = seed(ws, [
      ...old,
      { daysAgo: 200, event: 'act-as' },
      { daysAgo: TELEMETRY_KEEP_DAYS + 1, event: 'tool' },
      ...Array.from({ length: 30 }, (_, i) => ({ daysAgo: 30 - i, event: 'search' })),
    ]);
    expect(pruneTelemetry(engine.db, NOW)).toBe(4501);
    const rows = left(engine);
    expect(rows.filter((r) => r.event === 'act-as')).toHaveLength(1);
    expect(rows.filter((r) => r.event !== 'act-as')).toHaveLength(30);
    const cut = new Date(NOW.getTime() - TELEMETRY_KEEP_DAYS * DAY).toISOString();
    expect(rows.every((r) => r.event === 'act-as' || r.at >= cut)).toBe(true);
    // Nothing more to do: a second look removes nothing.
    expect(pruneTelemetry(engine.db, NOW)).toBe(0);
  });

  it('is part of the host schedule look, which never throws', async () => {
    ws = createTestWorkspace();
    const engine = seed(ws, [
      { daysAgo: 120, event: 'search' },
      { daysAgo: 1, event: 'search' },
    ]);
    await new BackupSchedule(engine.db, engine.home).look(NOW);
    expect(left(engine).map((r) => r.event)).toEqual(['search']);
  });
});
