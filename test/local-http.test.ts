/**
 * The one guard of the local HTTP endpoints ([H1]–[H4] in docs/SECURITY.md, src/platform/http-guard.ts),
 * as a client on this machine sees it: the same table of requests against every endpoint, each
 * served by a real process on 127.0.0.1. `brain serve` serves the browser host's API, the MCP
 * endpoint it mounts and, as the embedding owner of its workspace, /embed; `brain mcp --http` in
 * another workspace serves its own MCP endpoint and /embed.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '#engine/testing/until.ts';
import { cli } from './cli-process.ts';
import { type Endpoint, type Probe, probe } from './local-http-probe.ts';

const MB = 1024 * 1024;
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'guard-test', version: '1' },
  },
});
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

let root: string;
const children: ChildProcess[] = [];

/** Starts `brain <args>` and waits until its stdout matches every pattern; returns the captures. */
async function start(home: string, args: string[], patterns: RegExp[]): Promise<string[]> {
  const child = cli(home, { modelDir: join(root, 'no-model') }).spawn(args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const matched = await until(
    () => (child.exitCode === null ? patterns.map((p) => p.exec(out)?.[1]) : 'exited'),
    (v) => v === 'exited' || v.every(Boolean),
    { label: `brain ${args.join(' ')} to start` },
  );
  if (matched === 'exited') throw new Error(`brain ${args.join(' ')} exited: ${out}`);
  return matched as string[];
}

function ownerOf(home: string): { port: number; token: string } {
  return JSON.parse(readFileSync(join(home, 'owner.json'), 'utf8')) as { port: number; token: string };
}

// Filled in by beforeAll: the tests read them when they run, after it.
const served = { port: 0, page: '', mcp: '' };
const alone = { port: 0, mcp: '' };
const ENDPOINTS: Endpoint[] = [
  { name: 'brain serve /api/invoke', path: '/api/invoke/app.info', cap: 2 * MB, port: 0, token: '' },
  {
    name: 'brain serve /mcp',
    path: '/mcp',
    cap: MB,
    port: 0,
    token: '',
    body: INITIALIZE,
    headers: MCP_HEADERS,
  },
  { name: 'brain serve /embed', path: '/embed', cap: 2 * MB, port: 0, token: '', method: 'GET' },
  {
    name: 'brain mcp --http /mcp',
    path: '/mcp',
    cap: MB,
    port: 0,
    token: '',
    body: INITIALIZE,
    headers: MCP_HEADERS,
  },
  { name: 'brain mcp --http /embed', path: '/embed', cap: 2 * MB, port: 0, token: '', method: 'GET' },
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'brain-guard-'));
  const serveHome = join(root, 'serve-home');
  const mcpHome = join(root, 'mcp-home');
  const [url, mcpToken] = await start(
    serveHome,
    ['serve', '--port', '0'],
    [/Org Brain is running at (\S+)/, /bearer token (\S+?)\)/],
  );
  const page = new URL(url ?? '');
  served.port = Number(page.port);
  served.page = page.hash.replace('#token=', '');
  served.mcp = mcpToken ?? '';
  const [mcpUrl, token] = await start(mcpHome, ['mcp', '--http'], [/url: (\S+)/, /token: (\S+)/]);
  alone.port = Number(new URL(mcpUrl ?? '').port);
  alone.mcp = token ?? '';
  const serveOwner = ownerOf(serveHome);
  const mcpOwner = ownerOf(mcpHome);
  expect(serveOwner.port).toBe(served.port); // /embed is mounted on the browser host's port
  expect(mcpOwner.port).toBe(alone.port);
  const ports = [served.port, served.port, served.port, alone.port, alone.port];
  const tokens = [served.page, served.mcp, serveOwner.token, alone.mcp, mcpOwner.token];
  ENDPOINTS.forEach((e, i) => {
    e.port = ports[i] ?? 0;
    e.token = tokens[i] ?? '';
  });
}, 180_000);

afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

type Case = { case: string; status: number; probe: (e: Endpoint) => Probe };

const CASES: Case[] = [
  { case: '[H1] no token', status: 401, probe: () => ({ token: null }) },
  { case: '[H1] a wrong token', status: 401, probe: () => ({ token: 'wrong' }) },
  {
    case: '[H1] the token of another endpoint',
    status: 401,
    probe: (e) => ({ token: ENDPOINTS.find((o) => o.token !== e.token)?.token ?? 'other' }),
  },
  {
    case: '[H1] the token as ?token= (only /api/events takes it)',
    status: 401,
    probe: (e) => ({ token: null, query: e.token }),
  },
  { case: '[H2] a foreign Host', status: 403, probe: (e) => ({ host: `evil.example:${e.port}` }) },
  {
    case: '[H2] a local Host with another port',
    status: 403,
    probe: (e) => ({ host: `127.0.0.1:${e.port + 1}` }),
  },
  { case: '[H2] a foreign Origin', status: 403, probe: () => ({ origin: 'https://evil.example' }) },
  {
    case: '[H2] the Origin of another local page',
    status: 403,
    probe: (e) => ({ origin: `http://127.0.0.1:${e.port + 1}` }),
  },
  { case: '[H2] a sandboxed page (Origin null)', status: 403, probe: () => ({ origin: 'null' }) },
  {
    case: '[H3] a declared body over the cap',
    status: 413,
    probe: (e) => ({ oversize: 'declared', cap: e.cap }),
  },
  {
    case: '[H3] a streamed body over the cap',
    status: 413,
    probe: (e) => ({ oversize: 'streamed', cap: e.cap }),
  },
  { case: 'the good request', status: 200, probe: () => ({}) },
  {
    case: 'the good request from its own page (same Origin)',
    status: 200,
    probe: (e) => ({ origin: `http://127.0.0.1:${e.port}` }),
  },
  {
    case: 'the good request on localhost, from its own page there',
    status: 200,
    probe: (e) => ({ host: `localhost:${e.port}`, origin: `http://localhost:${e.port}` }),
  },
  {
    case: 'the good request with a lowercase "bearer"',
    status: 200,
    probe: (e) => ({ auth: `bearer ${e.token}` }),
  },
  { case: 'the good request with Host [::1]', status: 200, probe: (e) => ({ host: `[::1]:${e.port}` }) },
];

describe.each(ENDPOINTS)('$name', (endpoint) => {
  it.each(CASES)('$case → $status', async ({ status, probe: p }) => {
    expect(await probe(endpoint, p(endpoint))).toBe(status);
  });
});

describe('brain serve: the page and its event stream', () => {
  const page = (): Endpoint => ({
    name: 'page',
    path: '/',
    cap: 0,
    port: served.port,
    token: '',
    method: 'GET',
  });
  const events = (): Endpoint => ({ ...page(), path: '/api/events' });
  it.each([
    {
      case: '[H2] the page for a foreign Host',
      status: 403,
      run: () => probe(page(), { host: 'evil.example' }),
    },
    {
      case: '[H2] the page for a foreign Origin',
      status: 403,
      run: () => probe(page(), { origin: 'https://evil.example' }),
    },
    { case: 'the page needs no token', status: 200, run: () => probe(page(), { token: null }) },
    { case: '[H1] events without a token', status: 401, run: () => probe(events(), { token: null }) },
    {
      case: '[H1] events with the token as ?token=',
      status: 200,
      run: () => probe(events(), { token: null, query: served.page }),
    },
    {
      case: '[H1] events with the bearer token',
      status: 200,
      run: () => probe(events(), { token: served.page }),
    },
  ])('$case → $status', async ({ status, run }) => {
    expect(await run()).toBe(status);
  });
});
