/**
 * [P1] One contract, four adapters: a table of operations with the same inputs, run through the
 * IPC handler map (the BrainHost the engine process serves), HTTP (a real `brain serve`), the CLI
 * (a real `brain` process, --json) and MCP (the server over the SDK's in-memory transport), gives
 * the same answer, or the same error code, on each (docs/ARCHITECTURE.md).
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '#engine/engine.ts';
import { BrainHost } from '#engine/host/host.ts';
import { openAsLocalUser } from '#engine/testing/test-engine.ts';
import { OPERATIONS } from '#shared/api/contract.ts';
import { createAgentServer } from '../src/hosts/mcp/server.ts';
import { accessCases } from './parity/access.cases.ts';
import { agentRunCases } from './parity/agent-runs.cases.ts';
import { agentCases } from './parity/agents.cases.ts';
import type { Case, ParityWorld } from './parity/case.ts';
import { chatCases, workspaceCases } from './parity/chat.cases.ts';
import { compileCases } from './parity/compile.cases.ts';
import { factCases } from './parity/facts.cases.ts';
import { fileCases } from './parity/files.cases.ts';
import { graphCases } from './parity/graph.cases.ts';
import { type InboxCase, inboxCases } from './parity/inbox.cases.ts';
import { knowledgeCases } from './parity/knowledge.cases.ts';
import { noteCases } from './parity/notes.cases.ts';
import { retrievalCases } from './parity/retrieval.cases.ts';
import { settingsCases } from './parity/settings.cases.ts';
import { teamCases } from './parity/team.cases.ts';
import { treeCases } from './parity/trees.cases.ts';
import { startServe } from './serve-process.ts';

const run = promisify(execFile);
const BRAIN = resolve('bin/brain.mjs');

type Answer = { ok: true; data: unknown } | { ok: false; code: string };

let root: string;
let home: string;
let env: NodeJS.ProcessEnv;
let engine: Engine;
let host: BrainHost;
let mcp: Client;
let serve: ChildProcess;
let base: string;
let token: string;
let sectionId = '';

/**
 * What differs between two calls and says nothing about the answer: random per-answer tokens (the
 * framing boundary), and the last digits of scores (freshness ages by the millisecond).
 */
function normal(value: unknown): unknown {
  const text = JSON.stringify(value);
  const boundary = (value as { boundary?: string } | null)?.boundary;
  return JSON.parse(boundary ? text.split(boundary).join('BOUNDARY') : text, (key, v) =>
    key === 'score' && typeof v === 'number' ? Number(v.toPrecision(6)) : v,
  );
}

function without(answer: Answer, fields: readonly string[] = []): Answer {
  if (!answer.ok || typeof answer.data !== 'object' || answer.data === null) return answer;
  const data = { ...(answer.data as Record<string, unknown>) };
  for (const f of fields) delete data[f];
  return { ok: true, data };
}

function codeOf(text: string): string {
  // The MCP SDK refuses a call outside the tool's input schema itself, as MCP says (InvalidParams).
  if (/MCP error -32602|Input validation error/.test(text)) return 'validation-failed';
  return /^error\[([a-z-]+)\]/.exec(text)?.[1] ?? `unparsed: ${text.slice(0, 80)}`;
}

const adapters: Record<string, (c: Case) => Promise<Answer>> = {
  async ipc(c) {
    const r = await host.invoke(c.op, c.input);
    return r.ok ? { ok: true, data: normal(r.data) } : { ok: false, code: r.error.code };
  },
  async http(c) {
    const res = await fetch(`${base}/api/invoke/${c.op}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(c.input),
    });
    const body = (await res.json()) as { ok: boolean; data?: unknown; error?: { code: string } };
    return body.ok ? { ok: true, data: normal(body.data) } : { ok: false, code: body.error?.code ?? '?' };
  },
  async cli(c) {
    try {
      const { stdout } = await run('node', [BRAIN, '--home', home, ...c.cli, '--json'], { env });
      return { ok: true, data: normal(JSON.parse(stdout)) };
    } catch (err) {
      return { ok: false, code: codeOf(String((err as { stderr?: string }).stderr ?? '')) };
    }
  },
  async mcp(c) {
    const op = OPERATIONS.find((o) => o.name === c.op);
    const r = await mcp.callTool({ name: op?.tool?.name ?? c.op, arguments: c.input });
    const text = (r.content as { type: string; text: string }[])[0]?.text ?? '';
    return r.isError ? { ok: false, code: codeOf(text) } : { ok: true, data: normal(r.structuredContent) };
  },
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'brain-parity-'));
  home = join(root, 'home');
  env = { ...process.env, BRAIN_MODEL_DIR: join(root, 'no-model'), BRAIN_USER: 'tester' };
  const file = join(root, 'lease.md');
  writeFileSync(
    file,
    '# Office lease\n\nThe Lisbon office lease ends in March 2027; Dana owns the renewal.\n',
  );
  // The same local member as the `brain` processes (BRAIN_USER): who ends a run or decides a
  // proposal is part of the answer.
  engine = openAsLocalUser('tester', { home, modelDir: join(root, 'no-model') });
  await engine.add([file]);
  await engine.index();
  sectionId = (
    engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'section' LIMIT 1").get() as { id: string }
  ).id;
  host = await BrainHost.start(engine, { version: 'test' });
  const { server } = createAgentServer(engine, { agent: 'parity' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  mcp = new Client({ name: 'parity', version: '1' });
  await mcp.connect(b);
  ({ child: serve, base, token } = await startServe(home, env));
}, 180_000);

afterAll(async () => {
  serve?.kill('SIGTERM');
  await mcp?.close();
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

type Row = Case & Partial<Pick<InboxCase, 'before'>>;

/** Every domain's table (test/parity/*.cases.ts), built on the workspace made above. */
const DOMAINS: Record<string, (w: ParityWorld) => Row[]> = {
  retrieval: retrievalCases,
  notes: noteCases,
  graph: graphCases,
  inbox: inboxCases,
  knowledge: knowledgeCases,
  team: teamCases,
  settings: settingsCases,
  chat: chatCases,
  workspace: workspaceCases,
  trees: treeCases,
  access: accessCases,
  agents: agentCases,
  agentRuns: agentRunCases,
  facts: factCases,
  compile: compileCases,
  // Last: re-indexing the file runs on in the hosts' background.
  files: fileCases,
};

/**
 * The surfaces that offer a row's operation: MCP only for an operation with a tool, the command
 * line only where the row says how (`cli` empty: the app's alone, like confirming a duplicate).
 */
function surfacesOf(c: Case): string[] {
  const op = OPERATIONS.find((o) => o.name === c.op);
  return Object.keys(adapters).filter((s) =>
    s === 'mcp' ? Boolean(op?.tool) : s === 'cli' ? c.cli.length > 0 : true,
  );
}

// Each row starts a `brain` process: a domain's table takes a few seconds alone, minutes on a
// loaded two-core machine.
describe('[P1] every surface answers an operation alike', { timeout: 600_000 }, () => {
  for (const [domain, rows] of Object.entries(DOMAINS)) {
    it(`${domain}: the same result or the same error code through IPC, HTTP, the CLI and MCP`, async () => {
      for (const c of rows({ home, engine, sectionId })) {
        const answers: Record<string, Answer> = {};
        for (const surface of surfacesOf(c)) {
          c.before?.();
          const skip = surface === 'cli' ? [...(c.fresh ?? []), ...(c.cliOnly ?? [])] : c.fresh;
          answers[surface] = without(await (adapters[surface] as (c: Case) => Promise<Answer>)(c), skip);
        }
        const first = answers.ipc;
        for (const [surface, answer] of Object.entries(answers)) {
          expect(answer, `${c.name} through ${surface}`).toEqual(first);
        }
      }
    });
  }

  it('each surface keeps its own limits, declared in the contract: agents get at most 8 hits', async () => {
    const c: Case = {
      name: 'k 20',
      op: 'search.query',
      input: { query: 'lease', k: 20 },
      cli: ['search', 'lease', '--k', '20'],
    };
    expect(await adapters.mcp?.(c)).toEqual({ ok: false, code: 'validation-failed' });
    expect((await adapters.cli?.(c))?.ok).toBe(true);
    expect((await adapters.ipc?.(c))?.ok).toBe(true);
  });
});
