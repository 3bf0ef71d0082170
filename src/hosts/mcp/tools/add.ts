/** `add_to_brain`: the contract's notes.add for agents (src/shared/api/ops/notes.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { NotesAdd } from '#shared/api/ops/notes.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';
import { jsonText } from '../tool-result.ts';

export function registerAddToBrain(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, NotesAdd, {
    text: (out) => jsonText(out),
    summary: (out) => ({ id: out.id, created: out.created, scope: out.scope }),
  });
}
