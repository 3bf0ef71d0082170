/** Every tool answers the same way: text for the model, `isError: true` with an actionable message on failure. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, toTransferable } from '#shared/errors.ts';
import type { AgentContext } from './context.ts';

/**
 * `structured`: the operation's answer as its output schema says (docs/ARCHITECTURE.md), sent
 * as `structuredContent` beside the text form (clients that read text keep working).
 */
export type ToolOutput = {
  text: string;
  summary?: Record<string, unknown>;
  structured?: Record<string, unknown>;
};

export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

/**
 * Runs a tool body: its summary goes to the telemetry line of this request (see instrument.ts),
 * an expected failure becomes `error[<code>]: message` with isError, so the model can fix the call
 * and retry. Unexpected failures are logged with their stack on stderr (never stdout: that is the
 * protocol on stdio).
 */
export async function runTool(
  ctx: AgentContext,
  requestId: string | number,
  body: () => Promise<ToolOutput> | ToolOutput,
): Promise<CallToolResult> {
  try {
    const out = await body();
    if (out.summary) ctx.results.set(requestId, out.summary);
    const content: CallToolResult['content'] = [{ type: 'text', text: out.text }];
    return out.structured ? { content, structuredContent: out.structured } : { content };
  } catch (err) {
    if (!(err instanceof AppError))
      process.stderr.write(`brain mcp: ${(err as Error)?.stack ?? String(err)}\n`);
    const t = toTransferable(err);
    return { content: [{ type: 'text', text: `error[${t.code}]: ${t.message}` }], isError: true };
  }
}
