/**
 * The repository tree tools (src/shared/api/ops/trees.ts, docs/TREES.md): brain_tree,
 * brain_tree_read, brain_lookup, brain_grep, brain_changes, brain_backlinks and brain_broken. Their answers
 * are fenced as project data (docs/SECURITY.md [F1]); the telemetry line keeps the node, the
 * commit and the lines read, never the text.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  TreesBacklinks,
  TreesBroken,
  TreesChanges,
  TreesGrep,
  TreesLookup,
  TreesRead,
  TreesTree,
} from '#shared/api/ops/trees.ts';
import type { AgentContext } from '../context.ts';
import { registerOperationTool } from '../operation-tool.ts';

export function registerTreeTools(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, TreesTree, {
    summary: (out) => ({
      tree: out.tree,
      node: out.node.id,
      commit: out.commit,
      children: out.children.length,
    }),
  });
  registerOperationTool(server, ctx, TreesRead, {
    summary: (out) => ({
      tree: out.tree,
      node: out.citation.nodeId,
      commit: out.citation.commit,
      lines: [out.citation.lineStart, out.citation.lineEnd],
    }),
  });
  registerOperationTool(server, ctx, TreesLookup, {
    summary: (out, args) => ({ tree: out.tree, query: args.query, matches: out.matches.length }),
  });
  registerOperationTool(server, ctx, TreesGrep, {
    summary: (out) => ({ tree: out.tree, matches: out.matches.length, truncated: out.truncated }),
  });
  registerOperationTool(server, ctx, TreesBacklinks, {
    summary: (out, args) => ({ tree: out.tree, node: args.node, total: out.total }),
  });
  registerOperationTool(server, ctx, TreesChanges, {
    summary: (out) => ({
      tree: out.tree,
      since: out.since,
      commit: out.commit,
      documents: out.documents.length,
    }),
  });
  registerOperationTool(server, ctx, TreesBroken, {
    summary: (out) => ({ tree: out.tree, links: out.links.length }),
  });
}
