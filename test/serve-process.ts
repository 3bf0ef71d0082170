/**
 * A real `brain serve` for tests: started on a free port, ready once it prints its URL and its
 * MCP endpoint's bearer token. The browser host's origin and per-launch token come from
 * that URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export type ServeProcess = { child: ChildProcess; base: string; token: string; mcpToken: string };

export async function startServe(home: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn('node', [resolve('bin/brain.mjs'), '--home', home, 'serve', '--port', '0'], {
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
