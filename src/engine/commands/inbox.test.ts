/**
 * The inbox's engine commands beyond what the parity rows can show (test/parity/inbox.cases.ts:
 * every surface there is a local admin): a member lists their own runs only, and a decision tells
 * the app's windows what to refresh.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { listInbox } from '../writeback/inbox.ts';
import { inboxApprove, inboxNotices, runsList } from './inbox.ts';
import { memberContext } from './types.ts';

const ENDED = '2026-11-30T10:00:00.000Z';
let ws: TestWorkspace;
let admin: Engine;

function endRun(id: string, user: string): void {
  admin.db
    .prepare(
      `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, started_at, ended_at, updated_at)
       VALUES (?, ?, ?, 'test-agent', 'succeeded', 'Worked on the lease.', 'done', NULL, ?, ?)`,
    )
    .run(id, admin.workspaceId, user, ENDED, ENDED);
}

beforeEach(() => {
  ws = createTestWorkspace();
  admin = ws.open();
  admin.addMember('bob', []);
});
afterEach(async () => {
  await ws.cleanup();
});

describe('runs.list', () => {
  it("lists a member's own runs, and every run for an admin", async () => {
    endRun('run-admin', admin.user);
    endRun('run-bob', 'bob');
    const bob = ws.open({ user: 'bob' });
    const ids = async (e: Engine) => (await runsList(memberContext(e, 'cli'), {})).runs.map((r) => r.id);
    expect((await ids(admin)).sort()).toEqual(['run-admin', 'run-bob']);
    expect(await ids(bob)).toEqual(['run-bob']);
  });
});

describe('inbox.approve', () => {
  it('tells the windows that the inbox and the file list changed, with the note it wrote', async () => {
    endRun('run-1', admin.user);
    admin.db
      .prepare(
        `INSERT INTO proposals (id, run_id, ordinal, user_id, kind, label, body, scope, confidence, decision, reason,
           state, created_at)
         VALUES ('p1', 'run-1', 0, NULL, 'fact', 'Renewal owner', 'Dana renews the lease.', 'org', 0.6, 'review',
           'low confidence', 'pending', ?)`,
      )
      .run(ENDED);
    const approved = await inboxApprove(memberContext(admin, 'app'), { id: 'p1' });
    expect(approved).toMatchObject({ state: 'approved', decidedBy: admin.user, itemId: expect.any(String) });
    expect(listInbox(admin.db, admin.user).pending).toBe(0);
    expect(inboxNotices['inbox.approve'](approved)).toEqual([
      { event: 'inbox.changed', payload: { at: expect.any(String) } },
      { event: 'files.changed', payload: { ids: [approved.itemId] } },
    ]);
  });
});
