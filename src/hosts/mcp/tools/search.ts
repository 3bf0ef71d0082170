/** `brain_search`: the contract's search.query for agents (k ≤ 8, src/shared/api/ops/retrieval.ts). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SearchQuery } from '#shared/api/ops/retrieval.ts';
import type { AgentContext } from '../context.ts';
import { framedJson } from '../framed.ts';
import { registerOperationTool } from '../operation-tool.ts';

export function registerBrainSearch(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, SearchQuery, {
    // Labels and bodies fenced, one boundary for the answer (docs/SECURITY.md [F1]).
    // One hit per source, shown by its best passage; `more` counts the source's other matching
    // passages and `also` cites the best few (docs/RETRIEVAL.md [R6]).
    text: (out) => framedJson({ semantic: out.semantic, hits: out.hits }),
    summary: (out) => ({ hits: out.hits.length, semantic: out.semantic }),
  });
}
