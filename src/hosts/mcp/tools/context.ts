/** `brain_context`: the contract's context.get for agents (src/shared/api/ops/retrieval.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { frameFor } from '#engine/read/framing.ts';
import { ContextGet } from '#shared/api/ops/retrieval.ts';
import type { AgentContext } from '../context.ts';
import { framedJson } from '../framed.ts';
import { registerOperationTool } from '../operation-tool.ts';

export function registerBrainContext(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, ContextGet, {
    // `context` is fenced already; the labels in `items` get the same boundary (docs/SECURITY.md [F1]).
    text: ({ boundary, ...answer }) => framedJson(answer, frameFor(boundary)),
    summary: (out) => ({ injected: out.items.length, reason: out.reason }),
  });
}
