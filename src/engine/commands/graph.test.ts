/**
 * The rules of src/engine/commands/graph.ts that differ by caller, on a real engine: who a write
 * is by (the member on the app and the command line, `agent:<name>/user:<user>` for an agent), the
 * run runs.end ends (an agent's own by default, named by everyone else) and where its write-back
 * pass runs ([J4] in docs/WORKSPACE.md). What every surface answers alike is test/parity.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputOn, type Surface } from '#shared/api/operation.ts';
import { LinksAdd, MentionsObserve, RunsEnd } from '#shared/api/ops/graph.ts';
import { AppError } from '#shared/errors.ts';
import { removeOwnerFile, writeOwnerFile } from '../embed/remote.ts';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { linksAdd, mentionsObserve, runsEnd } from './graph.ts';
import { type CommandContext, memberContext } from './types.ts';

let ws: TestWorkspace;
let engine: Engine;
let noteId: string;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  noteId = upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label: 'Lease',
    body: 'Dana owns the renewal of the Lisbon lease.',
    scope: 'org',
    actor: engine.user,
    source: 'test',
  }).id;
});
afterEach(async () => {
  removeOwnerFile(engine.home);
  await ws.cleanup();
});

function agentContext(run = 'run-7'): CommandContext {
  return {
    engine,
    surface: 'agent',
    origin: { actor: `agent:claude/user:${engine.user}`, source: 'agent-tool', run },
    agent: { name: 'claude', run, startedAt: '2026-01-02T03:04:05.000Z' },
  };
}

const endInput = (surface: Surface, input: Record<string, unknown>) => inputOn(RunsEnd, surface).parse(input);

function runRow(id: string): Record<string, unknown> | undefined {
  return engine.db.prepare('SELECT user_id, agent, started_at FROM runs WHERE id = ?').get(id) as
    | Record<string, unknown>
    | undefined;
}

function edgeOrigin(id: string): Record<string, unknown> | undefined {
  return engine.db
    .prepare('SELECT origin_actor, origin_source, origin_run FROM edges WHERE id = ?')
    .get(id) as Record<string, unknown> | undefined;
}

describe('graph commands: origins', () => {
  it('a member on the command line or the app writes as themselves, with no run', async () => {
    const input = inputOn(MentionsObserve, 'cli').parse({
      item_id: noteId,
      name: 'Dana',
      kind: 'person',
      quote: 'Dana',
    });
    const mention = await mentionsObserve(memberContext(engine, 'cli'), input);
    expect(edgeOrigin(mention.edge.id)).toEqual({
      origin_actor: engine.user,
      origin_source: 'cli',
      origin_run: null,
    });
    const entity = (await mentionsObserve(memberContext(engine, 'app'), input)).entity;
    expect(entity).toMatchObject({ id: mention.entity.id, created: false });

    const link = await linksAdd(
      memberContext(engine, 'app'),
      inputOn(LinksAdd, 'app').parse({ from_id: noteId, to_id: entity.id, type: 'about' }),
    );
    expect(edgeOrigin(link.id)).toEqual({
      origin_actor: engine.user,
      origin_source: 'app',
      origin_run: null,
    });
  });

  it('an agent writes as itself acting for the member, in its run', async () => {
    const input = inputOn(MentionsObserve, 'agent').parse({
      item_id: noteId,
      name: 'Lisbon',
      kind: 'other',
      quote: 'Lisbon',
    });
    const mention = await mentionsObserve(agentContext(), input);
    expect(edgeOrigin(mention.edge.id)).toEqual({
      origin_actor: `agent:claude/user:${engine.user}`,
      origin_source: 'agent-tool',
      origin_run: 'run-7',
    });
  });
});

describe('graph commands: runs.end', () => {
  it('an agent ends its own run by default, with the time it started', async () => {
    const out = await runsEnd(
      agentContext(),
      endInput('agent', { status: 'failed', work_products: 'No luck.' }),
    );
    expect(out).toEqual({
      run: 'run-7',
      status: 'failed',
      writeback: 'skipped',
      replaced: false,
      chars: 8,
      writebackBy: null,
    });
    expect(runRow('run-7')).toEqual({
      user_id: engine.user,
      agent: 'claude',
      started_at: '2026-01-02T03:04:05.000Z',
    });
    await runsEnd(
      agentContext(),
      endInput('agent', { status: 'failed', work_products: 'x', run_id: 'run-8' }),
    );
    expect(runRow('run-8')).toMatchObject({ agent: 'claude', started_at: null });
  });

  it('on the command line and in the app the run is named: there is no run of their own', async () => {
    for (const surface of ['cli', 'app'] as const) {
      const refused = runsEnd(
        memberContext(engine, surface),
        endInput(surface, { status: 'failed', work_products: 'x' }),
      );
      await expect(refused).rejects.toThrow(AppError);
      await expect(refused).rejects.toMatchObject({ code: 'validation-failed' });
    }
    const out = await runsEnd(
      memberContext(engine, 'cli'),
      endInput('cli', { status: 'cancelled', work_products: 'Stopped.', run_id: 'script-1' }),
    );
    expect(out).toMatchObject({ run: 'script-1', writeback: 'skipped', writebackBy: null });
    expect(runRow('script-1')).toEqual({ user_id: engine.user, agent: 'cli', started_at: null });
  });

  it('[J4] a pending run goes to the host on the app, to a live owner, or waits on the command line', async () => {
    const end = (surface: Surface, run: string) =>
      runsEnd(
        surface === 'agent' ? agentContext(run) : memberContext(engine, surface),
        endInput(surface, { status: 'succeeded', work_products: 'Done.', run_id: run }),
      );
    expect((await end('app', 'r-app')).writebackBy).toBe('host');
    expect((await end('cli', 'r-cli')).writebackBy).toBe('later');
    writeOwnerFile(engine.home, { port: 1, token: 'owner-token' });
    expect((await end('cli', 'r-cli-owned')).writebackBy).toBe('owner');
    expect((await end('agent', 'r-agent-owned')).writebackBy).toBe('owner');
    const pending = engine.db
      .prepare("SELECT count(*) AS n FROM runs WHERE writeback_state = 'pending'")
      .get();
    expect(pending).toEqual({ n: 4 });
  });
});
