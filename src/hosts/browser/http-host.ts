/**
 * The browser host: the same app and the same BrainApi as the Electron window, over HTTP on
 * 127.0.0.1 only, for a person in a browser and for the end-to-end tests. Every request passes the
 * one local-HTTP guard (src/platform/http-guard.ts, [H1]–[H4] in docs/SECURITY.md): a local Host with
 * this port (no DNS rebinding) and, when a browser sends one, this page's Origin; every API request
 * also the per-launch token, and each route has its body cap.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tooLargeReason } from '#engine/add/add.ts';
import type { BrainHost } from '#engine/host/host.ts';
import {
  type Refusal,
  readBody,
  refuseHostOrOrigin,
  refuseToken,
  sendJson as send,
} from '#platform/http-guard.ts';
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import type { ErrorCode } from '#shared/errors.ts';
import { httpStatusOf } from '#shared/http-status.ts';
import { SECURITY_HEADERS, serveStatic } from './static.ts';

/** [H3] The cap of /api/invoke; /api/upload's is the file limit, answered as a refused file. */
const MAX_JSON_BYTES = 2 * 1024 * 1024;

export type BrowserHostOptions = {
  /** A BrainHost, or the HostSlot that keeps one open across a restore (src/engine/host/slot.ts). */
  host: Pick<BrainHost, 'invoke' | 'upload' | 'on'>;
  port: number;
  staticDir: string;
  /** Extra routes (the MCP endpoint), given the request after the host check. */
  extra?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
};

export type RunningBrowserHost = {
  url: string;
  token: string;
  port: number;
  server: Server;
  close(): Promise<void>;
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, body, SECURITY_HEADERS);
}

function fail(res: ServerResponse, code: ErrorCode, message: string): void {
  sendJson(res, httpStatusOf(code), { ok: false, error: { code, message } });
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, { ok: false, error: { code: refusal.code, message: refusal.message } });
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<RunningBrowserHost> {
  const token = randomBytes(24).toString('base64url');
  const clients = new Set<ServerResponse>();
  let port = options.port;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = refuseHostOrOrigin(req);
    if (refused) return refuse(res, refused);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (options.extra && (await options.extra(req, res, url))) return;
    if (url.pathname.startsWith('/api/')) return api(req, res, url);
    if (req.method === 'GET' && serveStatic(options.staticDir, url.pathname, res)) return;
    if (req.method === 'GET' && !url.pathname.startsWith('/assets/')) {
      if (serveStatic(options.staticDir, '/index.html', res)) return;
    }
    fail(res, 'not-found', `Nothing at ${url.pathname}.`);
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    // An EventSource cannot send headers: the page gives /api/events its token as ?token=.
    const isEvents = url.pathname === '/api/events' && req.method === 'GET';
    const refused = refuseToken(req, { token, inQuery: isEvents });
    if (refused) return refuse(res, refused);
    if (isEvents) return events(req, res);
    if (req.method !== 'POST') return fail(res, 'validation-failed', 'Use POST.');
    if (url.pathname === '/api/upload') return upload(req, res, url);
    const name = url.pathname.startsWith('/api/invoke/') ? decodeURIComponent(url.pathname.slice(12)) : null;
    if (!name) return fail(res, 'not-found', `Nothing at ${url.pathname}.`);
    const body = await readBody(req, MAX_JSON_BYTES);
    if (!body.ok) return refuse(res, body.refusal);
    let input: unknown;
    try {
      input = body.bytes.length ? JSON.parse(body.bytes.toString('utf8')) : undefined;
    } catch {
      return fail(res, 'validation-failed', 'The request body is not JSON.');
    }
    const result = await options.host.invoke(name, input);
    if (result.ok) return sendJson(res, 200, result);
    sendJson(res, httpStatusOf(result.error.code), result);
  };

  const upload = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const name = (url.searchParams.get('name') ?? '').trim();
    if (!name || name.includes('/') || name.includes('\\'))
      return fail(res, 'validation-failed', 'Give the file name as ?name=.');
    const path = url.searchParams.get('path') || name;
    const body = await readBody(req, MAX_FILE_BYTES);
    if (!body.ok) {
      return sendJson(res, 200, {
        ok: true,
        data: { added: [], unchanged: [], refused: [{ path, reason: tooLargeReason(body.size) }] },
      });
    }
    try {
      const data = await options.host.upload({
        name,
        path,
        bytes: body.bytes,
        scope: url.searchParams.get('scope') ?? undefined,
      });
      sendJson(res, 200, { ok: true, data });
    } catch (err) {
      const e = err as { code?: ErrorCode; message: string };
      fail(res, e.code ?? 'internal', e.message);
    }
  };

  const events = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    clients.add(res);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
    req.on('close', () => {
      clearInterval(keepAlive);
      clients.delete(res);
    });
  };

  const unsubscribe = options.host.on((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const c of clients) c.write(frame);
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      console.error('[serve]', err);
      if (!res.headersSent) fail(res, 'internal', 'The request failed unexpectedly.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/#token=${token}`,
    token,
    port,
    server,
    close: async () => {
      unsubscribe();
      for (const c of clients) c.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
