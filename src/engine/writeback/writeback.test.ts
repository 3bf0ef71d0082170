/** Write-back passes, the gate's outcomes and the inbox, against a scripted OpenAI-compatible server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { setModelSetting } from '../llm/config.ts';
import {
  type Script,
  type ScriptedModel,
  startScriptedModel,
  writerScript,
} from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { approveProposal, listInbox, rejectProposal } from './inbox.ts';
import { runWritebackPass } from './pass.ts';
import { recordRunEnd } from './run-end.ts';
import { listRuns } from './runs.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel | null = null;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
  engine.addMember('alice', ['ops']);
  engine.addMember('bob', []);
});
afterEach(async () => {
  await model?.close();
  model = null;
  await ws.cleanup();
});

async function configureModel(script: Script): Promise<ScriptedModel> {
  model = await startScriptedModel(script);
  await setModelSetting(engine.db, engine.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, engine.home, 'model.name', 'scripted');
  return model;
}

function endRun(
  run: string,
  user = 'alice',
  work = 'We decided that supplier invoices above 5000 EUR need finance approval.',
) {
  return recordRunEnd(engine.db, {
    run,
    workspaceId: engine.workspaceId,
    user,
    agent: 'test-agent',
    status: 'succeeded',
    workProducts: work,
    startedAt: null,
  });
}

const orgFact = (n: number) => ({
  kind: 'decision',
  label: `Decision number ${n}`,
  body: `Supplier invoices above ${n}000 EUR need approval by the finance team before payment.`,
  scope: 'org',
  confidence: 0.9,
  sensitive: false,
});

const notes = () =>
  engine.db.prepare("SELECT * FROM items WHERE storage_kind = 'note'").all() as {
    id: string;
    label: string;
    body: string;
    scope: string;
    origin_source: string;
    origin_run: string;
    origin_actor: string;
  }[];

describe('the write-back pass', () => {
  it('keeps at most three proposals even when the model offers five, and applies the gate to each', async () => {
    await configureModel(
      writerScript([
        orgFact(1),
        { ...orgFact(2), confidence: 0.5 },
        { ...orgFact(3), scope: 'user' },
        orgFact(4),
        orgFact(5),
      ]),
    );
    endRun('run-1');
    const result = await runWritebackPass(engine, 'run-1');
    expect(result.state).toBe('done');
    if (result.state !== 'done') return;
    expect(result.offered).toBe(5);
    expect(result.decisions.map((d) => d.decision)).toEqual(['write', 'review', 'review']);
    const written = notes();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      scope: 'org',
      origin_source: 'writeback',
      origin_run: 'run-1',
      origin_actor: 'writeback:test-agent/user:alice',
    });
    const rows = engine.db.prepare('SELECT decision, reason, state FROM proposals ORDER BY ordinal').all();
    expect(rows).toEqual([
      { decision: 'write', reason: expect.stringMatching(/confident org/), state: 'written' },
      { decision: 'review', reason: expect.stringMatching(/low confidence/), state: 'pending' },
      { decision: 'review', reason: expect.stringMatching(/user scope/), state: 'pending' },
    ]);
    // Every decision is logged with its reason.
    const logged = engine.db
      .prepare("SELECT data FROM telemetry WHERE event = 'writeback.decision'")
      .all() as { data: string }[];
    expect(logged.map((l) => JSON.parse(l.data).reason)).toHaveLength(3);
    expect(listRuns(engine.db, 'alice')[0]?.pass).toMatchObject({
      state: 'done',
      proposed: 3,
      written: 1,
      reviewed: 2,
    });
  });

  it('may propose nothing', async () => {
    await configureModel(() => ({ content: 'Nothing here is durable.' }));
    endRun('run-0');
    const result = await runWritebackPass(engine, 'run-0');
    expect(result).toMatchObject({ state: 'done', offered: 0, decisions: [] });
    expect(notes()).toEqual([]);
    expect(listRuns(engine.db, 'alice')[0]).toMatchObject({ writeback: 'done', pass: { proposed: 0 } });
  });

  it('skips empty, nonsense and user-scope-without-user proposals, and reviews sensitive ones', async () => {
    await configureModel(
      writerScript([
        { ...orgFact(1), body: '' },
        { ...orgFact(2), body: '%%%% #### 1234 !!!!' },
        {
          ...orgFact(3),
          body: 'The deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 for the CI pipeline.',
        },
      ]),
    );
    endRun('run-s');
    const result = await runWritebackPass(engine, 'run-s');
    if (result.state !== 'done') throw new Error(result.state);
    expect(result.decisions.map((d) => [d.decision, d.reason.split(/[ :(]/)[0]])).toEqual([
      ['skip', 'empty'],
      ['skip', 'nonsense'],
      ['review', 'sensitive'],
    ]);
    expect(notes()).toEqual([]);
  });

  it('runs one pass per run, even when the run ends twice and two hosts race for it', async () => {
    const m = await configureModel(writerScript([orgFact(1)]));
    endRun('run-2');
    endRun(
      'run-2',
      'alice',
      'Ended again with more detail: supplier invoices above 5000 EUR need finance approval.',
    );
    const [a, b] = await Promise.all([runWritebackPass(engine, 'run-2'), runWritebackPass(engine, 'run-2')]);
    expect([a.state, b.state].sort()).toEqual(['done', 'not-claimed']);
    expect(await runWritebackPass(engine, 'run-2')).toMatchObject({ state: 'not-claimed' });
    expect(() => endRun('run-2')).toThrow(/already with write-back/);
    expect(notes()).toHaveLength(1);
    // The writer saw the second hand-in, once.
    const writerTurns = m.requests.filter((r) =>
      r.messages.some((x) => String(x.content).includes('Ended again')),
    );
    expect(writerTurns.length).toBe(2); // the propose turn and the final turn of one pass
  });

  it('changes nothing when the model fails mid-pass, and logs it', async () => {
    let turn = 0;
    await configureModel(() => {
      turn += 1;
      return turn === 1
        ? { toolCalls: [{ name: 'propose', arguments: orgFact(1) }] }
        : { status: 500, error: 'model crashed' };
    });
    endRun('run-f');
    const result = await runWritebackPass(engine, 'run-f');
    expect(result).toMatchObject({ state: 'failed', error: expect.stringMatching(/500|crashed/) });
    expect(notes()).toEqual([]);
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM proposals').get()).toEqual({ n: 0 });
    const log = engine.db.prepare("SELECT data FROM telemetry WHERE event = 'writeback'").get() as {
      data: string;
    };
    expect(JSON.parse(log.data)).toMatchObject({ run: 'run-f', ok: false });
    expect(listRuns(engine.db, 'alice')[0]?.pass).toMatchObject({
      state: 'failed',
      error: expect.any(String),
    });
  });

  it('changes nothing when the model times out mid-pass', async () => {
    let turn = 0;
    await configureModel(() => {
      turn += 1;
      return turn === 1 ? { toolCalls: [{ name: 'propose', arguments: orgFact(1) }] } : { hang: true };
    });
    endRun('run-t');
    const result = await runWritebackPass(engine, 'run-t', { timeoutMs: 300 });
    expect(result).toMatchObject({ state: 'failed', error: expect.stringMatching(/time/i) });
    expect(notes()).toEqual([]);
  });

  it('is off without a model: the run waits', async () => {
    endRun('run-off');
    expect(await runWritebackPass(engine, 'run-off')).toMatchObject({
      state: 'off',
      reason: expect.stringMatching(/write-back is off/),
    });
    expect(listRuns(engine.db, 'alice')[0]).toMatchObject({ writeback: 'pending', pass: null });
  });
});

describe('the inbox', () => {
  async function pending() {
    await configureModel(
      writerScript([
        { ...orgFact(1), confidence: 0.6 },
        { ...orgFact(2), scope: 'user', label: 'Alice prefers morning standups' },
      ]),
    );
    endRun('run-i');
    await runWritebackPass(engine, 'run-i');
    const items = listInbox(engine.db, engine.user).items;
    const org = items.find((i) => i.scope === 'org');
    const mine = listInbox(engine.db, 'alice').items.find((i) => i.scope === 'user:alice');
    if (!org || !mine) throw new Error('missing proposals');
    return { org, mine };
  }
  const as = (user: string) => ({
    db: engine.db,
    workspaceId: engine.workspaceId,
    user,
    surface: 'cli' as const,
  });

  it('shows each card with why it is in review and the run it came from', async () => {
    const { org, mine } = await pending();
    expect(org).toMatchObject({
      reason: expect.stringMatching(/low confidence/),
      canDecide: true,
      run: { id: 'run-i', agent: 'test-agent' },
    });
    expect(org.run?.excerpt).toContain('5000 EUR');
    // Nobody else sees alice's personal proposal.
    expect(listInbox(engine.db, engine.user).items.map((i) => i.scope)).toEqual(['org']);
    expect(mine.canDecide).toBe(true);
    expect(listInbox(engine.db, 'bob').items.find((i) => i.scope === 'org')?.canDecide).toBe(false);
  });

  it('lets only the scoped user approve a user-scope proposal, and only an admin an org one', async () => {
    const { org, mine } = await pending();
    expect(() => approveProposal(as('bob'), mine.id)).toThrow(/No proposal/);
    expect(() => approveProposal(as(engine.user), mine.id)).toThrow(/No proposal/);
    expect(() => approveProposal(as('alice'), org.id)).toThrow(/admin/);
    const approved = approveProposal(as('alice'), mine.id);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: 'alice', edited: false });
    const note = notes().find((n) => n.id === approved.itemId);
    expect(note).toMatchObject({
      scope: 'user:alice',
      origin_source: 'writeback',
      origin_run: 'run-i',
      origin_actor: 'alice',
    });
    expect(approveProposal(as(engine.user), org.id).state).toBe('approved');
  });

  it('[W5] approves a sensitive proposal as it is only once confirmed; an edited body is not asked about', async () => {
    await configureModel(
      writerScript([
        {
          ...orgFact(1),
          label: 'Office wifi',
          body: 'The office wifi password is hunter2.',
          sensitive: true,
        },
        {
          ...orgFact(2),
          label: 'Server wifi',
          body: 'The server room wifi password is swordfish.',
          sensitive: true,
        },
      ]),
    );
    endRun('run-s');
    await runWritebackPass(engine, 'run-s');
    const items = listInbox(engine.db, engine.user).items;
    const [wifi, server] = ['Office wifi', 'Server wifi'].map((l) => items.find((i) => i.label === l));
    if (!wifi || !server) throw new Error('missing proposals');
    expect(wifi.sensitive).toBe(true);
    expect(() => approveProposal(as(engine.user), wifi.id)).toThrow(
      `Proposal ${wifi.id} was flagged sensitive`,
    );
    // Approving it "edited" with its own words is approving it as it is.
    expect(() => approveProposal(as(engine.user), wifi.id, { body: wifi.body, label: 'Wifi' })).toThrow(
      /confirmSensitive/,
    );
    expect(notes()).toEqual([]);
    expect(listInbox(engine.db, engine.user).items.find((i) => i.id === wifi.id)?.state).toBe('pending');
    expect(approveProposal(as(engine.user), wifi.id, {}, true).state).toBe('approved');
    const edited = approveProposal(as(engine.user), server.id, {
      body: 'The server room wifi password is in the safe.',
    });
    expect(edited).toMatchObject({ state: 'approved', edited: true });
    expect(
      notes()
        .map((n) => n.body)
        .sort(),
    ).toEqual(['The office wifi password is hunter2.', 'The server room wifi password is in the safe.']);
  });

  it('keeps the edit of an edited approval, and rejects only with a reason', async () => {
    const { org, mine } = await pending();
    const edited = approveProposal(as(engine.user), org.id, {
      body: 'Invoices above 1000 EUR need finance approval (edited).',
    });
    expect(edited).toMatchObject({
      edited: true,
      body: 'Invoices above 1000 EUR need finance approval (edited).',
    });
    expect(notes().find((n) => n.id === edited.itemId)?.body).toBe(
      'Invoices above 1000 EUR need finance approval (edited).',
    );
    expect(() => approveProposal(as(engine.user), org.id)).toThrow(/not waiting/);
    expect(() => rejectProposal(as('alice'), mine.id, '  ')).toThrow(/why/);
    expect(rejectProposal(as('alice'), mine.id, 'not true any more')).toMatchObject({
      state: 'rejected',
      rejectReason: 'not true any more',
    });
    expect(listInbox(engine.db, 'alice').pending).toBe(0);
  });
});
