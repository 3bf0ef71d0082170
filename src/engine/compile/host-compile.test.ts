/**
 * Where the compile pass runs in a long-lived host (docs/FACTS.md [K9], [K11]): the host's
 * background work (src/engine/host/writeback-host.ts) compiles a file after its audit and the
 * member's notes that agents write, one source at a time, never another member's; a failed file or
 * note is tried again after the retry delay; closing the host aborts the pass in flight, which
 * writes nothing ([K11]). Real workspace, the scripted model as the chat model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import { BrainWork } from '../host/writeback-host.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { setModelSetting } from '../llm/config.ts';
import { compileStep, jsonReply, requestText } from '../testing/compile-model.ts';
import { dumpTables } from '../testing/db-dump.ts';
import type { ScriptedModel, ScriptedReply } from '../testing/scripted-model.ts';
import { startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { until } from '../testing/until.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let work: BrainWork | null = null;
/** The model fails every extract (down), or never answers one (stalls). */
let failing = false;
let stall = false;
const events: string[] = [];

/** Every source says one thing about Dana, quoted from its text. */
function extractFor(text: string): ScriptedReply {
  if (failing) return { status: 503, error: 'the model is down' };
  if (stall) return { hang: true };
  const quote = /Dana [^.\n]*\./.exec(text)?.[0];
  return jsonReply(
    quote
      ? { entities: [{ name: 'Dana', kind: 'person' }], facts: [{ entity: 'Dana', statement: quote, quote }] }
      : { entities: [], facts: [] },
  );
}

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  failing = false;
  stall = false;
  events.length = 0;
  model = await startScriptedModel((req) => {
    if (compileStep(req) === 'extract') return extractFor(requestText(req));
    if (compileStep(req) === 'judge') return jsonReply({ decisions: [] });
    return { content: 'ok' }; // the model audit: a plan, then nothing to do
  });
  await setModelSetting(engine.db, ws.home, 'model.baseUrl', model.url);
  await setModelSetting(engine.db, ws.home, 'model.name', 'scripted');
});
afterEach(async () => {
  await work?.close();
  work = null;
  await model.close();
  await ws.cleanup();
});

const pass = (id: string) =>
  engine.db.prepare('SELECT state, facts FROM compile_passes WHERE source_id = ?').get(id) as
    | { state: string; facts: number }
    | undefined;

const claims = () => engine.db.prepare('SELECT * FROM compile_claims').all();
const extracts = () => model.requests.filter((r) => compileStep(r) === 'extract').length;

function startWork(): BrainWork {
  work = new BrainWork(engine, (event) => events.push(event), 50);
  return work;
}

describe('[K9] the compile pass in a long-lived host', () => {
  it("[K9] [K11] compiles a file after its audit and the notes agents write; never another member's", async () => {
    const w = startWork();
    const file =
      (await engine.add([ws.write('keys.md', '# Keys\n\nDana keeps the spare keys.\n')])).added[0]?.id ?? '';
    await engine.index([file]);
    w.audit(file);
    await until(
      () => pass(file),
      (p) => p?.state === 'done',
      { label: 'the file compiled' },
    );
    expect(pass(file)?.facts).toBe(1);
    expect(engine.db.prepare('SELECT file_id FROM audit_passes WHERE file_id = ?').get(file)).toBeTruthy();

    const note = (await runCommand(memberContext(engine, 'agent'), 'notes.add', {
      kind: 'fact',
      label: 'Parking',
      body: 'Dana parks in bay 4.',
    })) as { id: string };
    const bobs = upsertNote(engine.db, engine.workspaceId, {
      kind: 'fact',
      label: 'Bob',
      body: 'Dana lent Bob a bike.',
      scope: 'org',
      actor: 'agent:claude/user:bob',
      source: 'agent',
    });
    w.start();
    await until(
      () => pass(note.id),
      (p) => p?.state === 'done',
      { label: 'the note compiled' },
    );
    expect(pass(bobs.id)).toBeUndefined();
    expect(model.requests.filter((r) => compileStep(r) === 'extract')).toHaveLength(2);
    expect(events).toContain('activity.changed');
  });

  it('[K9] [K11] closing the host aborts the compile in flight: it returns while the model stalls, nothing is written', async () => {
    stall = true;
    const w = startWork();
    const note = (await runCommand(memberContext(engine, 'agent'), 'notes.add', {
      kind: 'fact',
      label: 'Keys',
      body: 'Dana keeps the keys.',
    })) as { id: string };
    w.kick();
    await until(() => model.requests.some((r) => compileStep(r) === 'extract'), Boolean, {
      label: 'extract asked',
    });
    expect(claims()).toHaveLength(1);
    const before = dumpTables(engine.db);
    await w.close(); // the model never answers: only an aborted call lets this return
    work = null;
    expect(pass(note.id)).toBeUndefined();
    expect(claims()).toEqual([]);
    const { compile_claims: _held, ...after } = dumpTables(engine.db);
    const { compile_claims: _heldBefore, ...rest } = before;
    expect(after).toEqual(rest);
  });

  it('[K9] a file whose compile a closing host stopped is compiled by the next host', async () => {
    stall = true;
    const w = startWork();
    const file =
      (await engine.add([ws.write('keys.md', '# Keys\n\nDana keeps the spare keys.\n')])).added[0]?.id ?? '';
    await engine.index([file]);
    w.audit(file);
    await until(() => model.requests.some((r) => compileStep(r) === 'extract'), Boolean, {
      label: 'extract asked',
    });
    await w.close();
    work = null;
    expect(pass(file)).toBeUndefined();
    stall = false;
    startWork().start();
    await until(
      () => pass(file),
      (p) => p?.state === 'done',
      { label: 'the stopped file compiled by the next host' },
    );
    expect(pass(file)?.facts).toBe(1);
  });

  it('[K9] a file whose compile failed is tried again after the retry delay, like a note', async () => {
    failing = true;
    const w = startWork();
    const file =
      (await engine.add([ws.write('keys.md', '# Keys\n\nDana keeps the spare keys.\n')])).added[0]?.id ?? '';
    await engine.index([file]);
    w.audit(file);
    await until(
      () => pass(file),
      (p) => p?.state === 'failed',
      { label: 'the file failed' },
    );
    failing = false;
    w.start();
    // A note compiled by the poll: the failed file, listed before it, would have been queued first.
    const note = (await runCommand(memberContext(engine, 'agent'), 'notes.add', {
      kind: 'fact',
      label: 'Parking',
      body: 'Dana parks in bay 4.',
    })) as { id: string };
    await until(
      () => pass(note.id),
      (p) => p?.state === 'done',
      { label: 'the note compiled' },
    );
    expect(pass(file)?.state).toBe('failed'); // not before the delay
    expect(extracts()).toBe(2);
    // The failure is older than the retry delay now.
    engine.db
      .prepare('UPDATE compile_passes SET at = ? WHERE source_id = ?')
      .run(new Date(Date.now() - 11 * 60_000).toISOString(), file);
    await until(
      () => pass(file),
      (p) => p?.state === 'done',
      { label: 'the file compiled on retry' },
    );
    expect(pass(file)?.facts).toBe(1);
    expect(extracts()).toBe(3);
  });
});
