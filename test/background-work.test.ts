/**
 * An agent's `brain mcp` that exits right after `brain_run_end`, as MCP clients run it: a real
 * stdio server process driven by the SDK's Client, a real workspace, `brain serve` and
 * `brain runs --process` as real processes, the chat model a scripted OpenAI-compatible server in
 * this process ([J1]–[J5] in docs/WORKSPACE.md).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  roleOf,
  type ScriptedModel,
  startScriptedModel,
  writerScript,
} from '#engine/testing/scripted-model.ts';
import { until } from '#engine/testing/until.ts';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;
let model: ScriptedModel;
let hangFirstWriter = false;
const children: ChildProcess[] = [];

const fact = {
  kind: 'decision',
  label: 'Invoice approval threshold',
  body: 'Supplier invoices above 5000 EUR need approval by the finance team before payment.',
  scope: 'org',
  confidence: 0.9,
};

beforeEach(async () => {
  ws = cliWorkspace('brain-bg-');
  hangFirstWriter = false;
  let hung = false;
  const writer = writerScript([fact]);
  model = await startScriptedModel((req, i) => {
    if (hangFirstWriter && !hung && roleOf(req) === 'writer') {
      hung = true;
      return { hang: true }; // the model is still thinking when the process goes away
    }
    return writer(req, i);
  });
  // As a new user sets it up: the workspace and its model from the command line.
  await ws.brainText('config', 'set', 'model.baseUrl', model.url);
  await ws.brainText('config', 'set', 'model.name', 'scripted');
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await model.close();
  ws.remove();
});

/** `brain mcp` on stdio, as Claude Code or Cursor start it. */
async function agent(extraEnv: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    ...ws.with({ env: extraEnv }).command('mcp', '--agent', 'bg-test'),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bg-test', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid ?? 0;
  const endRun = (id: string) =>
    client.callTool({
      name: 'brain_run_end',
      arguments: {
        status: 'succeeded',
        work_products: 'Decided: invoices above 5000 EUR need finance approval.',
        run_id: id,
      },
    });
  return { client, pid, endRun };
}

function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

type PassRow = { state: string; owner: string; lease_until: number | null; attempts: number };
function read<T>(sql: string, ...args: unknown[]): T | undefined {
  const db = new Database(join(ws.home, 'brain.db'), { readonly: true });
  try {
    return db.prepare(sql).get(...args) as T | undefined;
  } finally {
    db.close();
  }
}
const pass = (id: string) => read<PassRow>('SELECT * FROM writeback_passes WHERE run_id = ?', id);
/** The machine and process named by the pass's claim (`host:pid:nonce`, src/engine/jobs/jobs-lease.ts). */
const holder = (id: string) => pass(id)?.owner.split(':').slice(0, 2);
const runState = (id: string) =>
  read<{ writeback_state: string }>('SELECT writeback_state FROM runs WHERE id = ?', id)?.writeback_state;
const note = () => read<{ origin_run: string }>('SELECT origin_run FROM items WHERE label = ?', fact.label);
const writerAsked = () => model.requests.some((r) => roleOf(r) === 'writer');

const processRuns = () => ws.brainText('runs', '--process');

/** A process that writes <home>/owner.json: `brain serve`, or `brain mcp --http` when no other owns. */
const OWNERS = {
  'brain serve': { args: ['serve', '--port', '0'], ready: /Org Brain is running at/ },
  'brain mcp --http': { args: ['mcp', '--http'], ready: /token: \S+/ },
} as const;

async function startOwner(kind: keyof typeof OWNERS): Promise<ChildProcess> {
  const child = ws.spawn(OWNERS[kind].args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (OWNERS[kind].ready.test(out)) done();
    });
    child.once('exit', (code) => fail(new Error(`${kind} exited with ${code}: ${out}`)));
  });
  return child;
}

describe('background work when the agent process exits right after brain_run_end', () => {
  it.each(Object.keys(OWNERS) as (keyof typeof OWNERS)[])(
    '[J4] leaves the pass to the live owner (%s), which writes it back within seconds',
    async (kind) => {
      const owner = await startOwner(kind);
      await until(() => existsSync(join(ws.home, 'owner.json')), Boolean, { label: 'owner.json' });
      const a = await agent();
      await a.endRun('run-owner');
      await a.client.close(); // the client closes the server: the process exits
      await until(() => exited(a.pid), Boolean, { label: 'the MCP process to exit' });
      await until(() => pass('run-owner')?.state === 'done', Boolean, {
        label: 'the owner to write the run back',
      });
      expect(holder('run-owner')).toEqual([hostname(), String(owner.pid)]);
      expect(note()).toMatchObject({ origin_run: 'run-owner' });
    },
    120_000,
  );

  it('[J3] [J5] without an owner, the pass the MCP process gave back on exit is done by brain runs --process at once', async () => {
    hangFirstWriter = true;
    const a = await agent();
    await a.endRun('run-alone');
    await until(writerAsked, Boolean, { label: 'the MCP process to start the pass' });
    expect(holder('run-alone')).toEqual([hostname(), String(a.pid)]);
    await a.client.close();
    await until(() => exited(a.pid), Boolean, { label: 'the MCP process to exit' });
    expect(runState('run-alone')).toBe('pending'); // given back, no lease to wait out
    expect(pass('run-alone')).toBeUndefined();
    expect(await processRuns()).toMatch(/run-alone .* 1 proposed: 1 written/);
    expect(note()).toMatchObject({ origin_run: 'run-alone' });
  }, 120_000);

  it('[J1] a pass whose process was killed mid-pass is taken over once its short lease runs out', async () => {
    hangFirstWriter = true;
    const short = { BRAIN_LEASE_MS: '3000' };
    const a = await agent(short);
    await a.endRun('run-killed');
    await until(writerAsked, Boolean, { label: 'the MCP process to start the pass' });
    const first = pass('run-killed')?.lease_until ?? 0;
    // The heartbeat renews the lease while the model call runs; nobody may take the pass meanwhile.
    await until(() => (pass('run-killed')?.lease_until ?? 0) > first, Boolean, { label: 'a heartbeat' });
    process.kill(a.pid, 'SIGKILL');
    await until(() => exited(a.pid), Boolean, { label: 'the MCP process to die' });
    expect(runState('run-killed')).toBe('running'); // a killed process gives nothing back
    await until(
      async () => {
        await processRuns();
        return pass('run-killed')?.state;
      },
      (state) => state === 'done',
      { label: 'brain runs --process to take the pass over', every: 200 },
    );
    expect(pass('run-killed')).toMatchObject({ attempts: 2, lease_until: null });
    expect(note()).toMatchObject({ origin_run: 'run-killed' });
    await a.client.close();
  }, 120_000);
});
