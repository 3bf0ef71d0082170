/**
 * The MCP server over Streamable HTTP, for the browser host (`brain serve` mounts
 * createMcpHttpHandler at /mcp) and for `brain mcp --http`, which serves only this (and, when no
 * other process owns the embedding model, the embedding endpoint; see engine/embed/remote.ts).
 *
 * Security ([H1]–[H4] in docs/SECURITY.md, the one guard in src/platform/http-guard.ts): bound to
 * 127.0.0.1 by whoever listens; every request must carry the per-launch bearer token (constant-time
 * compare), a local Host with the right port (DNS rebinding) and, if a browser sends one, a
 * same-origin Origin; bodies are capped. Sessions (one per MCP client, so the agent's clientInfo
 * name reaches origin) are capped in number and closed when idle.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Embedder } from '#engine/embed/index.ts';
import { EMBED_PATH, removeOwnerFile, serveEmbeddings, writeOwnerFile } from '#engine/embed/remote.ts';
import { Engine } from '#engine/engine.ts';
import { BrainWork } from '#engine/host/writeback-host.ts';
import { readBody, refuseRequest, sendJson } from '#platform/http-guard.ts';
import { toTransferable } from '#shared/errors.ts';
import { httpStatusOf } from '#shared/http-status.ts';
import { lendEmbedder, openEngineForAgent } from './agent-engine.ts';
import { createAgentServer, instrumentTransport } from './server.ts';

export const MCP_PATH = '/mcp';
const BODY_MAX_BYTES = 1024 * 1024;
const SESSIONS_MAX = 32;
const IDLE_MS = 30 * 60_000;

export type McpHttpOptions = {
  /** The per-launch bearer token clients must send. */
  token: string;
  /** An engine opened for the acting user with surface 'agent'; the handler never closes it. */
  engine?: Engine;
  /** Otherwise the handler opens one: this workspace, this user, the host's embedder (lent, not closed). */
  home?: string;
  user?: string;
  modelDir?: string;
  embedder?: Embedder;
  agent?: string;
  run?: string;
  maxBodyBytes?: number;
  maxSessions?: number;
  idleMs?: number;
};

export type McpHttpHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & {
  close(): Promise<void>;
  sessionCount(): number;
};

type Session = { transport: StreamableHTTPServerTransport; close(): Promise<void>; lastSeen: number };

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const owned = !options.engine;
  const engine =
    options.engine ??
    Engine.open({
      home: options.home,
      user: options.user,
      modelDir: options.modelDir,
      surface: 'agent',
      embedder: options.embedder ? lendEmbedder(options.embedder) : undefined,
    });
  const sessions = new Map<string, Session>();
  const maxBody = options.maxBodyBytes ?? BODY_MAX_BYTES;
  const maxSessions = options.maxSessions ?? SESSIONS_MAX;
  const idleMs = options.idleMs ?? IDLE_MS;

  const sweep = async (now: number) => {
    for (const [id, s] of sessions) if (now - s.lastSeen > idleMs) await closeSession(id);
    while (sessions.size >= maxSessions) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0];
      if (!oldest) break;
      await closeSession(oldest[0]);
    }
  };
  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    sessions.delete(id);
    await s?.close().catch(() => undefined);
  };

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    await sweep(Date.now());
    const { server, ctx } = createAgentServer(engine, { agent: options.agent, run: options.run });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, close: () => server.close(), lastSeen: Date.now() });
      },
    });
    server.server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    instrumentTransport(transport, ctx);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = refuseRequest(req, { token: options.token });
    if (refused) return rpcError(res, refused.status, -32001, refused.message);
    const sid = req.headers['mcp-session-id'];
    const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (typeof sid === 'string' && !session)
      return rpcError(res, 404, -32001, 'Session not found: initialize again.');
    if (session) session.lastSeen = Date.now();
    if (req.method === 'POST') {
      const raw = await readBody(req, maxBody);
      if (!raw.ok) return rpcError(res, raw.refusal.status, -32600, raw.refusal.message);
      let body: unknown;
      try {
        body = JSON.parse(raw.bytes.toString('utf8'));
      } catch {
        return rpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
      }
      if (session) return session.transport.handleRequest(req, res, body);
      if (!isInitializeRequest(body)) return rpcError(res, 400, -32000, 'No session: send initialize first.');
      return startSession(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!session) return rpcError(res, 400, -32000, 'Missing mcp-session-id header.');
      return session.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return rpcError(res, 405, -32000, 'Method not allowed.');
  };

  const handler = (async (req: IncomingMessage, res: ServerResponse) => {
    try {
      await handle(req, res);
    } catch (err) {
      process.stderr.write(`brain mcp http: ${(err as Error)?.stack ?? String(err)}\n`);
      const t = toTransferable(err);
      if (!res.headersSent) rpcError(res, httpStatusOf(t.code), -32603, t.message);
      else res.end();
    }
  }) as McpHttpHandler;
  handler.sessionCount = () => sessions.size;
  handler.close = async () => {
    for (const id of [...sessions.keys()]) await closeSession(id);
    if (owned) await engine.close();
  };
  return handler;
}

export type McpHttpServer = {
  url: string;
  port: number;
  token: string;
  isOwner: boolean;
  close(): Promise<void>;
};

/**
 * `brain mcp --http`: this handler alone on 127.0.0.1. When no live process owns the embedding
 * model it becomes the owner: it serves its embedder at /embed, writes <home>/owner.json, and
 * runs the write-back loop that agents' `brain mcp` processes leave their runs to ([J4] in
 * docs/WORKSPACE.md).
 */
export async function serveMcpHttp(options: {
  home?: string;
  user?: string;
  modelDir?: string;
  agent?: string;
  run?: string;
  port?: number;
}): Promise<McpHttpServer> {
  const { engine, embedding } = await openEngineForAgent(options);
  const token = randomBytes(24).toString('base64url');
  const mcp = createMcpHttpHandler({ engine, token, agent: options.agent, run: options.run });
  const embedToken = randomBytes(24).toString('base64url');
  const embed = embedding === 'local' ? serveEmbeddings(engine.embedder, { token: embedToken }) : null;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === MCP_PATH) void mcp(req, res);
    else if (embed && path === EMBED_PATH) void embed(req, res);
    else rpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}.`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // No window listens to this host's events: the loop's only job is to run the passes.
  const quiet = () => undefined;
  const work = embed ? new BrainWork(engine, quiet) : null;
  work?.start();
  if (embed) writeOwnerFile(engine.home, { port, token: embedToken });
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    token,
    isOwner: embed !== null,
    close: async () => {
      if (embed) removeOwnerFile(engine.home);
      await work?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mcp.close();
      await engine.close();
    },
  };
}
