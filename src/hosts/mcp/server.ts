/**
 * The MCP server: a thin adapter over the engine, acting as one user with that user's scopes.
 * The same server is served on stdio (`brain mcp`, stdio.ts) and over Streamable HTTP (http.ts).
 *
 * Telemetry: `instrumentTransport` watches the JSON-RPC traffic, so every tools/call is logged
 * with its outcome, including calls the SDK refuses before a tool runs (input validation:
 * k above 8, oversized bodies) — those never reach a handler.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '#engine/engine.ts';
import { logEvent, type ToolEventData } from '#engine/telemetry.ts';
import { type AgentContext, createAgentContext } from './context.ts';
import { DATA_NOT_INSTRUCTIONS } from './limits.ts';
import { registerAddToBrain } from './tools/add.ts';
import { registerAgentBrain } from './tools/agent-brain.ts';
import { registerBrainContext } from './tools/context.ts';
import { registerFact } from './tools/fact.ts';
import { registerBrainLink } from './tools/link.ts';
import { registerBrainNeighborhood } from './tools/neighborhood.ts';
import { registerObserve } from './tools/observe.ts';
import { registerObserveMention } from './tools/observe-mention.ts';
import { registerBrainRead } from './tools/read.ts';
import { registerRunEnd } from './tools/run-end.ts';
import { registerBrainSearch } from './tools/search.ts';
import { registerTreeTools } from './tools/tree.ts';

const SERVER_NAME = 'org-brain';
const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  "Org Brain is the team's shared memory. First read your own agent brain (brain_agent_brain, or the resource " +
  'brain://agent/<your name>/brain): what your earlier runs learned; your first brain_context answer holds it too. ' +
  'Call brain_context at the start of a task (and when the topic changes) ' +
  'with the latest message; use brain_search and brain_read to check details with citations; write durable facts ' +
  '(decisions, owners, definitions, gotchas) with add_to_brain; hand in the run with brain_run_end. ' +
  'Record what you learn along the way (patterns, gotchas, decisions, dead ends) with brain_observe: it is cheap ' +
  'and feeds your own brain. ' +
  'A connected Markdown repository is read as a tree: start with brain_tree at the root, read the summaries and ' +
  'descend into the nodes that can hold the answer; read them with brain_tree_read and cite the numbered lines ' +
  'that hold it, with the path and commit; use brain_lookup for an id or a path and brain_grep for words no ' +
  'summary shows; when the tree does not hold the answer, say so. ' +
  DATA_NOT_INSTRUCTIONS;

export type AgentServer = { server: McpServer; ctx: AgentContext };

export function createAgentServer(
  engine: Engine,
  options: { agent?: string; run?: string } = {},
): AgentServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: INSTRUCTIONS },
  );
  const ctx = createAgentContext(engine, {
    ...options,
    clientName: () => server.server.getClientVersion()?.name,
  });
  registerBrainSearch(server, ctx);
  registerAddToBrain(server, ctx);
  registerObserveMention(server, ctx);
  registerFact(server, ctx);
  registerObserve(server, ctx);
  registerBrainLink(server, ctx);
  registerBrainNeighborhood(server, ctx);
  registerBrainRead(server, ctx);
  registerBrainContext(server, ctx);
  registerRunEnd(server, ctx);
  registerAgentBrain(server, ctx);
  registerTreeTools(server, ctx);
  return { server, ctx };
}

type Pending = { tool: string; started: number; args: Record<string, unknown> };

const LONG_TEXT_KEYS = new Set(['body', 'work_products', 'message', 'quote', 'note']);

/** Arguments as telemetry keeps them: ids and short strings as they are, long texts by size only. */
function summariseArgs(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === 'string' && key === 'message') out[key] = value.slice(0, 200);
    else if (typeof value === 'string' && (LONG_TEXT_KEYS.has(key) || value.length > 200))
      out[key] = { chars: value.length };
    else if (Array.isArray(value)) out[key] = value.length > 8 ? { count: value.length } : value;
    else out[key] = value;
  }
  return out;
}

function errorOf(message: JSONRPCMessage): ToolEventData['error'] | undefined {
  if (isJSONRPCErrorResponse(message)) return { code: 'protocol', message: message.error.message };
  if (!isJSONRPCResultResponse(message) || message.result.isError !== true) return undefined;
  const content = message.result.content as { type: string; text?: string }[] | undefined;
  const text = content?.find((c) => c.type === 'text')?.text ?? '';
  const m = /^error\[([a-z-]+)\]: ([\s\S]*)$/.exec(text);
  if (m) return { code: m[1] ?? 'internal', message: (m[2] ?? '').slice(0, 500) };
  return { code: 'validation-failed', message: text.slice(0, 500) };
}

/** Logs every tools/call and its outcome: watches requests in and responses out. Call after connect(). */
export function instrumentTransport(transport: Transport, ctx: AgentContext): void {
  const pending = new Map<string | number, Pending>();
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
      pending.set(message.id, {
        tool: String(params.name ?? ''),
        started: performance.now(),
        args: summariseArgs(params.arguments),
      });
    }
    onmessage?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    const id = 'id' in message ? message.id : undefined;
    const call = id === undefined ? undefined : pending.get(id);
    if (call && id !== undefined && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))) {
      pending.delete(id);
      const error = errorOf(message);
      const result = ctx.results.get(id);
      ctx.results.delete(id);
      logEvent(ctx.engine.db, 'agent', ctx.engine.user, 'tool', {
        tool: call.tool,
        agent: ctx.agentName(),
        run: ctx.run,
        ok: error === undefined,
        ms: Math.round(performance.now() - call.started),
        args: call.args,
        ...(error ? { error } : {}),
        ...(result ? { result } : {}),
      } satisfies ToolEventData);
    }
    return send(message, options);
  };
}
