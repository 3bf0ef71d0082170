/**
 * The write-back pass under its lease, in one process against a scripted model ([J2], [J3] in
 * docs/WORKSPACE.md; the cross-process cases are in test/background-work.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import {
  roleOf,
  type Script,
  type ScriptedModel,
  type ScriptedReply,
  startScriptedModel,
  writerScript,
} from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';
import { runPendingWritebacks, runWritebackPass } from './pass.ts';
import { recordRunEnd } from './run-end.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel | null = null;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => {
  await model?.close();
  model = null;
  await ws.cleanup();
});

const fact = (n: number) => ({
  kind: 'decision',
  label: `Decision number ${n}`,
  body: `Supplier invoices above ${n}000 EUR need approval by the finance team before payment.`,
  scope: 'org',
  confidence: 0.9,
});

/** The first writer request gets `first`; every later one is the writer script proposing `later`. */
async function configure(first: ScriptedReply, later = fact(2)): Promise<ScriptedModel> {
  let answered = false;
  const rest = writerScript([later]);
  const script: Script = (req, i) => {
    if (roleOf(req) !== 'writer' || answered) return rest(req, i);
    answered = true;
    return first;
  };
  model = await startScriptedModel(script);
  await setModelSetting(engine.db, engine.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, engine.home, 'model.name', 'scripted');
  return model;
}

function endRun(db: Engine['db'], run: string) {
  recordRunEnd(db, {
    run,
    workspaceId: engine.workspaceId,
    user: engine.user,
    agent: 'test-agent',
    status: 'succeeded',
    workProducts: 'We decided that supplier invoices above 5000 EUR need finance approval.',
    startedAt: null,
  });
}

const notes = (db: Engine['db']) =>
  (
    db.prepare("SELECT label FROM items WHERE storage_kind = 'note' ORDER BY label").all() as {
      label: string;
    }[]
  ).map((n) => n.label);
const passRow = (db: Engine['db'], run: string) =>
  db.prepare('SELECT state, attempts, error FROM writeback_passes WHERE run_id = ?').get(run);
const runState = (db: Engine['db'], run: string) =>
  (db.prepare('SELECT writeback_state FROM runs WHERE id = ?').get(run) as { writeback_state: string })
    .writeback_state;
/** As if the holder froze past its lease (a laptop lid closed mid-pass): the lease ran out. */
const expireLease = (db: Engine['db'], run: string) =>
  db.prepare('UPDATE writeback_passes SET lease_until = 0 WHERE run_id = ?').run(run);

describe('the write-back pass under its lease', () => {
  it('[J2] writes nothing when its claim was taken over while the model answered late', async () => {
    let answer: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const m = await configure({
      after: late,
      reply: { toolCalls: [{ name: 'propose', arguments: fact(1) }] },
    });
    endRun(engine.db, 'run-late');
    const first = runWritebackPass(engine, 'run-late');
    await until(() => m.requests.some((r) => roleOf(r) === 'writer'));
    expireLease(engine.db, 'run-late');
    const takeover = await runWritebackPass(engine, 'run-late');
    expect(takeover).toMatchObject({ state: 'done', decisions: [{ decision: 'write' }] });
    answer();
    expect(await first).toMatchObject({
      state: 'released',
      reason: expect.stringMatching(/nothing written/),
    });
    expect(notes(engine.db)).toEqual(['Decision number 2']);
    expect(passRow(engine.db, 'run-late')).toMatchObject({ state: 'done', attempts: 2 });
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM proposals').get()).toEqual({ n: 1 });
  });

  it('[J2] does not mark a run failed when the pass that fails late was taken over', async () => {
    let fail: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const m = await configure({ after: late, reply: { status: 500, error: 'model crashed' } });
    endRun(engine.db, 'run-fail');
    const first = runWritebackPass(engine, 'run-fail');
    await until(() => m.requests.some((r) => roleOf(r) === 'writer'));
    expireLease(engine.db, 'run-fail');
    expect(await runWritebackPass(engine, 'run-fail')).toMatchObject({ state: 'done' });
    fail();
    expect(await first).toMatchObject({ state: 'released' });
    expect(passRow(engine.db, 'run-fail')).toMatchObject({ state: 'done', error: null });
  });

  it('[J3] gives its claim back when the engine closes mid-pass, and the next process does the pass', async () => {
    const m = await configure({ hang: true });
    endRun(engine.db, 'run-closed');
    const first = runWritebackPass(engine, 'run-closed');
    await until(() => m.requests.some((r) => roleOf(r) === 'writer'));
    await engine.close(); // the model call is aborted: nothing waits for its timeout
    expect(await first).toMatchObject({ state: 'released' });
    const next = ws.open();
    expect(runState(next.db, 'run-closed')).toBe('pending');
    expect(passRow(next.db, 'run-closed')).toBeUndefined();
    expect(await runWritebackPass(next, 'run-closed')).toMatchObject({ state: 'done' });
    expect(notes(next.db)).toEqual(['Decision number 2']);
  });

  it('[J3] a host that stops gives back the pass in flight and claims no further run', async () => {
    const m = await configure({ hang: true });
    endRun(engine.db, 'run-a');
    endRun(engine.db, 'run-b');
    const stop = new AbortController();
    const all = runPendingWritebacks(engine, { signal: stop.signal });
    await until(() => m.requests.some((r) => roleOf(r) === 'writer'));
    stop.abort();
    expect(await all).toEqual([expect.objectContaining({ run: 'run-a', state: 'released' })]);
    expect([runState(engine.db, 'run-a'), runState(engine.db, 'run-b')]).toEqual(['pending', 'pending']);
    expect(notes(engine.db)).toEqual([]);
  });
});
