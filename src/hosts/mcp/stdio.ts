/**
 * `brain mcp`: the MCP server on stdio. stdout carries the protocol only; every log line goes to
 * stderr. Ends when the client closes stdin, or on SIGINT / SIGTERM.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { releaseLeases } from '#engine/jobs/jobs-lease.ts';
import { openEngineForAgent } from './agent-engine.ts';
import { createAgentServer, instrumentTransport } from './server.ts';

export type StdioOptions = { home?: string; user?: string; agent?: string; run?: string; modelDir?: string };

export async function runStdio(options: StdioOptions): Promise<void> {
  const { engine, embedding, owner } = await openEngineForAgent(options);
  const { server, ctx } = createAgentServer(engine, { agent: options.agent, run: options.run });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  instrumentTransport(transport, ctx);
  const via = embedding === 'owner' && owner ? `owner pid ${owner.pid} (port ${owner.port})` : 'local model';
  process.stderr.write(
    `brain mcp: workspace ${engine.home}, acting as ${engine.user}, run ${ctx.run}, embeddings via ${via}\n`,
  );
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    // Clients stop a server that lingers with SIGTERM; that is a clean stop too.
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    server.server.onclose = done;
  });
  // First of all, a write-back pass still in flight gives its claim back ([J3] in docs/WORKSPACE.md).
  releaseLeases(engine.db);
  await server.close().catch(() => undefined);
  await engine.close();
}
