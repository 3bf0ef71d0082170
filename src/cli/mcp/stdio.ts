/**
 * `brain mcp`: the MCP server on stdio. stdout carries the protocol only; every log line goes to
 * stderr. Ends when the client closes stdin.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
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
    server.server.onclose = done;
  });
  await server.close().catch(() => undefined);
  await engine.close();
}
