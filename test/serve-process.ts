/**
 * A real `brain serve` for tests: started on a free port, ready once it prints its URL and its
 * MCP endpoint's bearer token. The browser host's origin and per-launch token come from
 * that URL. `servedWorkspace` gives a test file one on a fresh workspace.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { BRAIN, type CliWorkspace, cliWorkspace } from './cli-process.ts';

export type ServeProcess = { child: ChildProcess; base: string; token: string; mcpToken: string };

export async function startServe(home: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn('node', [BRAIN, '--home', home, 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { url, mcpToken } = await new Promise<{ url: string; mcpToken: string }>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Org Brain is running at (\S+)/.exec(out);
      const t = /bearer token (\S+?)\)/.exec(out);
      if (m?.[1] && t?.[1]) done({ url: m[1], mcpToken: t[1] });
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  const parsed = new URL(url);
  return { child, base: parsed.origin, token: parsed.hash.replace('#token=', ''), mcpToken };
}

/** A `brain serve` on a workspace of its own, which lives under `root`. */
export type Served = ServeProcess & { root: string; home: string };

/**
 * `brain serve` on a fresh workspace (see cliWorkspace) for the tests of one file: started in
 * beforeAll, stopped and its folder removed in afterAll. The getter answers once it is started.
 */
export function servedWorkspace(prefix: string): () => Served {
  let ws: CliWorkspace | null = null;
  let served: Served | null = null;
  beforeAll(async () => {
    ws = cliWorkspace(prefix);
    served = { ...(await startServe(ws.home, ws.env)), root: ws.root, home: ws.home };
  }, 120_000);
  afterAll(() => {
    served?.child.kill('SIGTERM');
    ws?.remove();
  });
  return () => {
    if (!served) throw new Error('brain serve is not started: call inside a test');
    return served;
  };
}

/** Reads the server-sent events of `/api/events` into `into` until `signal` aborts. */
export function readEvents(served: Served, into: string[], signal: AbortSignal): Promise<void> {
  return fetch(`${served.base}/api/events?token=${served.token}`, { signal }).then(async (res) => {
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) return;
      into.push(decoder.decode(chunk.value));
    }
  });
}
