/**
 * `brain_observe`: the contract's observations.add for agents (src/shared/api/ops/agents.ts,
 * docs/AGENTS.md [G1], [G2]). The agent and run are this server's (--agent, --run), never the
 * arguments'.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ObservationsAdd } from '#shared/api/ops/agents.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerObserve(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, ObservationsAdd, {
    text: (out) => jsonText(out),
    summary: (out) => ({
      observation: out.observation.id,
      type: out.observation.type,
      importance: out.observation.importance,
    }),
  });
}
