import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createFrame } from '#engine/read/framing.ts';
import type { ReadResult } from '#engine/read/read.ts';
import { ItemsRead } from '#shared/api/ops/retrieval.ts';
import type { AgentContext } from '../context.ts';
import { MCP_LIMITS } from '../limits.ts';
import { registerOperationTool } from '../operation-tool.ts';

/**
 * Numbered lines, cut at MCP_LIMITS.readChars with a pointer to the next range. The first lines are
 * ours (id, range, the framing rule); the item's own words (label, kind, file label, text) sit in one
 * fence with this answer's boundary, and the cut note comes after it (docs/SECURITY.md [F1]).
 */
function formatRead(result: ReadResult): string {
  const fileLabel = result.citation?.fileLabel ?? '';
  // Drawn against every text shown below, so none of it can carry the token.
  const frame = createFrame([result.label, result.kind, fileLabel, result.text]);
  const range = `${result.lineStart}-${result.lineEnd}`;
  const head =
    `id ${result.id}  [${result.storageKind}, ${result.scope}]  lines ${range}\n${frame.rule()}\n` +
    `${frame.open({ id: result.id, lines: range })}\n`;
  const close = `${frame.close()}\n`;
  const title = `${result.label}  [${result.kind}]${fileLabel ? ` of ${fileLabel}` : ''}\n`;
  const width = String(result.lineEnd).length;
  let out = head + title;
  const lines = result.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = `${String(result.lineStart + i).padStart(width)}  ${lines[i]}\n`;
    const next = result.lineStart + i;
    const cutNote = `… cut at ${MCP_LIMITS.readChars} characters: read from_line ${next} to_line ${result.lineEnd} next.\n`;
    // Room for the closing marker and the note, so the fence always closes within the limit.
    if (out.length + line.length + close.length + cutNote.length > MCP_LIMITS.readChars) {
      if (i > 0) return `${out}${close}${cutNote}`;
      // The first line alone is over the limit (a generated or minified file): its start, cut, and
      // the next line to read, never this one again (it would be cut the same way for ever).
      const after =
        next < result.lineEnd
          ? `… line ${next} is cut at ${MCP_LIMITS.readChars} characters: read from_line ${next + 1} to_line ${result.lineEnd} next.\n`
          : `… line ${next} is cut at ${MCP_LIMITS.readChars} characters; the rest of it is not shown.\n`;
      const room = MCP_LIMITS.readChars - out.length - close.length - after.length - 2;
      return `${out}${line.slice(0, Math.max(0, room))}…\n${close}${after}`;
    }
    out += line;
  }
  return out + close;
}

export function registerBrainRead(server: McpServer, ctx: AgentContext): void {
  registerOperationTool(server, ctx, ItemsRead, {
    text: (out) => formatRead(out),
    summary: (out) => ({ id: out.id, lines: [out.lineStart, out.lineEnd] }),
  });
}
