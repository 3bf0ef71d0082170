/**
 * An operation of the contract as an MCP tool (src/shared/api/operation.ts): the agent surface's
 * input schema, the output schema, annotations from `mutates`, and the answer both as
 * `structuredContent` and as text (fenced for the model, docs/SECURITY.md [F1]). The tool runs the
 * same engine command as every other surface, acting as this server's member and agent.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runCommand } from '#engine/commands/index.ts';
import type { CommandContext } from '#engine/commands/types.ts';
import { inputOn, type Operation, type OutputOf } from '#shared/api/operation.ts';
import { type AgentContext, originOf } from './context.ts';
import { framedJson } from './framed.ts';
import { runTool } from './tool-result.ts';

export type ToolPresentation<O extends Operation> = {
  /** The text form (default: the answer as fenced JSON). */
  text?: (out: OutputOf<O>) => string;
  /** What the telemetry line of the call keeps. */
  summary?: (out: OutputOf<O>, args: Record<string, unknown>) => Record<string, unknown>;
};

function agentCommandContext(ctx: AgentContext): CommandContext {
  return {
    engine: ctx.engine,
    surface: 'agent',
    origin: originOf(ctx),
    agent: { name: ctx.agentName(), run: ctx.run, startedAt: ctx.startedAt, mount: ctx.mount },
  };
}

export function registerOperationTool<O extends Operation>(
  server: McpServer,
  ctx: AgentContext,
  op: O,
  present: ToolPresentation<O> = {},
): void {
  const tool = op.tool;
  if (!tool) throw new Error(`operation ${op.name} is not a tool`);
  server.registerTool(
    tool.name,
    {
      title: op.summary,
      description: tool.description,
      inputSchema: inputOn(op, 'agent'),
      outputSchema: op.output,
      annotations: {
        readOnlyHint: !op.mutates,
        destructiveHint: false,
        idempotentHint: tool.idempotent ?? !op.mutates,
        openWorldHint: false,
      },
    },
    (args: Record<string, unknown>, extra) =>
      runTool(ctx, extra.requestId, async () => {
        const out = (await runCommand(agentCommandContext(ctx), op.name, args)) as OutputOf<O>;
        return {
          text: present.text ? present.text(out) : framedJson(out),
          structured: out as Record<string, unknown>,
          summary: present.summary?.(out, args),
        };
      }),
  );
}
