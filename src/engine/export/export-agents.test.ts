/**
 * Agent brains in export and import ([N16], [N17] in docs/PACKAGING.md; docs/AGENTS.md): an agent
 * with two brain versions made by the real synthesis (the scripted OpenAI-compatible model), its
 * observations, a person's feedback on its run and the run itself, on real workspace files;
 * exported, imported into a new workspace with the same ids, and compared row by row. Another
 * member's own agent stays out; tampered lines are refused by file and line, changing nothing.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { versionAtRunEnd } from '../agents/mount.ts';
import { observe } from '../agents/observations.ts';
import { synthesizeAgent } from '../agents/synthesize.ts';
import { runCommand } from '../commands/index.ts';
import { memberContext } from '../commands/types.ts';
import type { Engine } from '../engine.ts';
import type { ModelAccess } from '../llm/config.ts';
import { dumpTables } from '../testing/db-dump.ts';
import { brainOf } from '../testing/scripted-brain.ts';
import { type ScriptedModel, startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, openAsLocalUser, type TestWorkspace } from '../testing/test-engine.ts';
import { recordRunEnd } from '../writeback/run-end.ts';
import { exportWorkspace } from './export.ts';
import { importWorkspace } from './import.ts';

let source: TestWorkspace;
let target: TestWorkspace;
let engine: Engine;
let model: ScriptedModel;
let access: ModelAccess;

beforeEach(async () => {
  source = createTestWorkspace();
  target = createTestWorkspace();
  engine = source.open();
  model = await startScriptedModel((req) => brainOf(req, { prompt_tokens: 900, completion_tokens: 150 }));
  access = { baseUrl: model.url, model: 'scripted', key: null };
});
afterEach(async () => {
  await model.close();
  await source.cleanup();
  await target.cleanup();
});

const call = async (e: Engine, name: string, input: unknown) =>
  (await runCommand(memberContext(e, 'cli'), name, input)) as Record<string, unknown>;

const AGENT_TABLES = ['agents', 'agent_brain_versions', 'observations', 'runs'] as const;

/** The four tables' rows, less the workspace they are in; in insertion (rowid) order. */
function agentRows(e: Engine) {
  const t = dumpTables(e.db);
  return Object.fromEntries(
    AGENT_TABLES.map((name) => [name, (t[name] ?? []).map(({ workspace_id: _w, ...rest }) => rest)]),
  ) as Record<(typeof AGENT_TABLES)[number], Record<string, unknown>[]>;
}

/** `user`'s agent `agent` records an observation, then a forced synthesis makes its next version. */
async function newVersion(user: string, agent: string, text: string): Promise<number> {
  observe(
    engine.db,
    { workspaceId: engine.workspaceId, user, agent, run: null },
    { type: 'gotcha', text, importance: 0.8, payload: { file: `${text}.ts` } },
  );
  const row = engine.db
    .prepare('SELECT * FROM agents WHERE name = ? AND creator = ?')
    .get(agent, user) as Parameters<typeof synthesizeAgent>[1];
  const out = await synthesizeAgent(engine.db, row, access, { user, force: true });
  if (!out.version) throw new Error(`no version: ${out.reason}`);
  return out.version.number;
}

function endRun(user: string, agent: string, run: string): void {
  const read = versionAtRunEnd(engine.db, { workspaceId: engine.workspaceId, user }, agent, run);
  recordRunEnd(engine.db, {
    run,
    workspaceId: engine.workspaceId,
    user,
    agent,
    status: 'succeeded',
    workProducts: `the work of ${run}`,
    startedAt: null,
    brainVersion: read.version,
    brainAgent: read.agentId,
  });
}

/**
 * The member's agent `coder` with two versions, an observation after them, a run that read v2 and
 * the member's thumbs-up on it; another member's own agent `spy` (one version, a run).
 */
async function fill(): Promise<void> {
  await engine.add([source.write('handbook.md', '# Handbook\n\nSix weeks of sabbatical.\n')]);
  await engine.index();
  expect(await newVersion(engine.user, 'coder', 'first lesson')).toBe(1);
  expect(await newVersion(engine.user, 'coder', 'second lesson')).toBe(2);
  observe(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user, agent: 'coder', run: 'run-1' },
    { type: 'gotcha', text: 'waiting for the next synthesis', importance: 0.7 },
  );
  endRun(engine.user, 'coder', 'run-1');
  observe(
    engine.db,
    { workspaceId: engine.workspaceId, user: engine.user, agent: null, run: 'run-1' },
    { type: 'human_thumbs_up', text: 'good run' },
  );
  engine.addMember('bob', []);
  expect(await newVersion('bob', 'spy', 'bob only')).toBe(1);
  endRun('bob', 'spy', 'run-bob');
}

async function exported(): Promise<string> {
  const out = join(source.files, 'export');
  await exportWorkspace(engine, out);
  return out;
}

function jsonl(out: string, file: string): Record<string, unknown>[] {
  return readFileSync(join(out, file), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('[N16] brain export: agent brains', () => {
  it("writes the member's agents, every version in order, the observations and runs they can see; nothing of another member's own agent", async () => {
    await fill();
    const out = join(source.files, 'export');
    const phases: string[] = [];
    const { counts } = await exportWorkspace(engine, out, { onProgress: (p) => phases.push(p.phase) });
    expect(counts).toMatchObject({ agents: 1, agentVersions: 2, observations: 4, runs: 1 });
    expect(phases.at(-1)).toBe('done');

    const agents = jsonl(out, 'agents.jsonl');
    expect(agents).toEqual([
      expect.objectContaining({ name: 'coder', creator: engine.user, scope: `user:${engine.user}` }),
    ]);
    expect(agents[0]).not.toHaveProperty('synthesis_owner');
    const versions = jsonl(out, 'agent_versions.jsonl');
    expect(versions.map((v) => [v.agent, v.number])).toEqual([
      ['coder', 1],
      ['coder', 2],
    ]);
    expect(versions[1]?.brain).toMatchObject({ summary: expect.stringContaining('observations') });
    expect(Array.isArray(versions[1]?.observation_ids)).toBe(true);
    const observations = jsonl(out, 'observations.jsonl');
    expect(observations.map((o) => o.type)).toEqual(['gotcha', 'gotcha', 'gotcha', 'human_thumbs_up']);
    expect(observations[0]?.payload).toEqual({ file: 'first lesson.ts' });
    expect(jsonl(out, 'runs.jsonl')).toEqual([
      expect.objectContaining({ id: 'run-1', user_id: engine.user, agent: 'coder', brain_version: 2 }),
    ]);
    const everything = ['agents', 'agent_versions', 'observations', 'runs']
      .map((f) => readFileSync(join(out, `${f}.jsonl`), 'utf8'))
      .join('');
    expect(everything).not.toMatch(/spy|bob only|run-bob|user:bob/);

    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.counts).toMatchObject({ agents: 1, agentVersions: 2, observations: 4, runs: 1 });
    const readme = readFileSync(join(out, 'README.txt'), 'utf8');
    for (const f of ['agents.jsonl', 'agent_versions.jsonl', 'observations.jsonl', 'runs.jsonl'])
      expect(readme).toContain(f);
  });
});

describe('[N17] brain import: agent brains', () => {
  it('round trip: the agent, its versions in order, its observations and the run come back with the same ids', async () => {
    await fill();
    const out = await exported();
    const before = agentRows(engine);
    const visible = {
      agents: before.agents.filter((a) => a.creator === engine.user),
      agent_brain_versions: before.agent_brain_versions.filter((v) => v.agent === 'coder'),
      observations: before.observations.filter((o) => o.user_id === engine.user),
      runs: before.runs.filter((r) => r.user_id === engine.user),
    };
    expect(visible.agent_brain_versions).toHaveLength(2);

    const fresh = openAsLocalUser(engine.user, {
      home: target.home,
      modelDir: join(target.home, 'no-model'),
    });
    const report = importWorkspace(fresh, out);
    expect(report.counts).toMatchObject({ agents: 1, agentVersions: 2, observations: 4, runs: 1 });
    expect(agentRows(fresh)).toEqual(visible);

    // The engine reads them as its own: the versions newest first, the active one, the brain.
    const versions = (await call(fresh, 'agents.versions', { agent: 'coder' })) as {
      activeVersion: number;
      versions: { number: number }[];
    };
    expect(versions.activeVersion).toBe(2);
    expect(versions.versions.map((v) => v.number)).toEqual([2, 1]);
    const listed = (await call(fresh, 'observations.list', { agent: 'coder' })) as { total: number };
    expect(listed.total).toBe(3);
    // Versions stay immutable after an import.
    expect(() => fresh.db.prepare("UPDATE agent_brain_versions SET model = 'x'").run()).toThrow(/immutable/);
    await fresh.close();
  });

  it("gives the exporting member's agents, observations and runs to the member importing", async () => {
    await fill();
    const out = await exported();
    const fresh = openAsLocalUser('carol', { home: target.home, modelDir: join(target.home, 'no-model') });
    const report = importWorkspace(fresh, out);
    expect(report.personalScope).toEqual({ from: `user:${engine.user}`, to: 'user:carol' });
    const after = agentRows(fresh);
    expect(after.agents).toEqual([
      expect.objectContaining({ name: 'coder', creator: 'carol', scope: 'user:carol' }),
    ]);
    expect(after.agent_brain_versions.map((v) => v.created_by)).toEqual(['carol', 'carol']);
    expect(new Set(after.observations.map((o) => `${o.user_id} ${o.scope}`))).toEqual(
      new Set(['carol user:carol']),
    );
    expect(after.runs.map((r) => r.user_id)).toEqual(['carol']);

    const agents = (await call(fresh, 'agents.list', {})) as { agents: { name: string; versions: number }[] };
    expect(agents.agents).toEqual([
      expect.objectContaining({ name: 'coder', versions: 2, activeVersion: 2 }),
    ]);
    const runs = (await call(fresh, 'runs.list', {})) as { runs: { id: string }[] };
    expect(runs.runs.map((r) => r.id)).toEqual(['run-1']);
    // Carol's next observation of coder feeds the imported agent, not a new one.
    observe(
      fresh.db,
      { workspaceId: fresh.workspaceId, user: 'carol', agent: 'coder', run: null },
      { type: 'gotcha', text: 'after the move' },
    );
    expect(agentRows(fresh).agents).toHaveLength(1);
    await fresh.close();
  });

  it('refuses a tampered line by file and line, importing nothing: a wrong version id, an observation of an unknown agent, a line that is not JSON', async () => {
    await fill();
    const out = await exported();
    const fresh = target.open();
    const empty = dumpTables(fresh.db);
    const edit = (file: string, change: (lines: string[]) => string[]) => {
      const path = join(out, file);
      const original = readFileSync(path, 'utf8');
      writeFileSync(path, change(original.split('\n')).join('\n'));
      return () => writeFileSync(path, original);
    };

    let restore = edit('agent_versions.jsonl', (lines) =>
      lines.map((l, i) => (i === 1 ? l.replace('"number":2', '"number":3') : l)),
    );
    expect(() => importWorkspace(fresh, out)).toThrow(
      /agent_versions\.jsonl line 2: id b_[0-9a-f]{20} is not the id of version 3 of agent "coder"/,
    );
    restore();

    restore = edit('observations.jsonl', (lines) =>
      lines.map((l, i) =>
        i === 2 ? l.replace(/"agent_id":"a_[0-9a-f]{20}"/, `"agent_id":"a_${'0'.repeat(20)}"`) : l,
      ),
    );
    expect(() => importWorkspace(fresh, out)).toThrow(
      /observations\.jsonl line 3: agent_id a_0{20} is not an agent of agents\.jsonl/,
    );
    restore();

    restore = edit('runs.jsonl', (lines) => ['{"id": "run-1",', ...lines]);
    expect(() => importWorkspace(fresh, out)).toThrow(/runs\.jsonl line 1: not JSON/);
    restore();

    restore = edit('agents.jsonl', (lines) =>
      lines.map((l) => l.replace('"name":"coder"', '"name":"c0der"')),
    );
    expect(() => importWorkspace(fresh, out)).toThrow(
      /agents\.jsonl line 1: id a_[0-9a-f]{20} is not the id of/,
    );
    restore();

    restore = edit('observations.jsonl', (lines) =>
      lines.map((l, i) => (i === 0 ? l.replace('"importance":0.8', '"importance":7') : l)),
    );
    expect(() => importWorkspace(fresh, out)).toThrow(/observations\.jsonl line 1: importance: /);
    restore();

    expect(dumpTables(fresh.db)).toEqual(empty);
    expect(existsSync(join(out, 'agents.jsonl'))).toBe(true);
    importWorkspace(fresh, out);
    expect(agentRows(fresh).agent_brain_versions).toHaveLength(2);
  });

  it('a run exported while its write-back pass was running waits for write-back again (the pass is not exported)', async () => {
    await fill();
    engine.db.prepare("UPDATE runs SET writeback_state = 'running' WHERE id = 'run-1'").run();
    const out = await exported();
    expect(jsonl(out, 'runs.jsonl')).toEqual([expect.objectContaining({ writeback_state: 'running' })]);
    const fresh = target.open();
    importWorkspace(fresh, out);
    const runs = (await call(fresh, 'runs.list', {})) as { runs: { id: string; writeback: string }[] };
    expect(runs.runs).toEqual([expect.objectContaining({ id: 'run-1', writeback: 'pending' })]);
    await fresh.close();
  });

  it('refuses a workspace that already holds agent brains or runs, changing nothing', async () => {
    await fill();
    const out = await exported();
    const fresh = target.open();
    observe(
      fresh.db,
      { workspaceId: fresh.workspaceId, user: fresh.user, agent: 'other', run: null },
      { type: 'gotcha', text: 'already here' },
    );
    const before = dumpTables(fresh.db);
    expect(() => importWorkspace(fresh, out)).toThrow(
      /already holds agents, brain versions, observations or runs/,
    );
    expect(dumpTables(fresh.db)).toEqual(before);
  });

  it('an export made before agent brains were exported imports, with none', async () => {
    await fill();
    const out = await exported();
    for (const f of ['agents.jsonl', 'agent_versions.jsonl', 'observations.jsonl', 'runs.jsonl'])
      rmSync(join(out, f));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    for (const k of ['agents', 'agentVersions', 'observations', 'runs']) delete manifest.counts[k];
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
    const fresh = target.open();
    const report = importWorkspace(fresh, out);
    expect(report.counts).toMatchObject({ files: 1, agents: 0, agentVersions: 0, observations: 0, runs: 0 });
    expect(agentRows(fresh)).toEqual({ agents: [], agent_brain_versions: [], observations: [], runs: [] });
    const hits = (await call(fresh, 'search.query', { query: 'sabbatical' })) as { hits: unknown[] };
    expect(hits.hits.length).toBeGreaterThan(0);
  });
});
