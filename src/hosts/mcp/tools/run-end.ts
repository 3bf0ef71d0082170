/** `brain_run_end`: the contract's runs.end for agents (src/shared/api/ops/graph.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RunsEnd } from '#shared/api/ops/graph.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerRunEnd(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, RunsEnd, {
    // The text form agents have always read; where the pass runs is in structuredContent and telemetry.
    text: ({ writebackBy: _by, ...record }) => jsonText(record),
    summary: ({ writebackBy, chars: _chars, ...record }) => ({
      ...record,
      ...(writebackBy ? { writebackBy } : {}),
    }),
  });
}
