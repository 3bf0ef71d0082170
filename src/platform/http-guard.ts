/**
 * The one guard of Org Brain's local HTTP endpoints: the browser host (src/hosts/browser/http-host.ts),
 * MCP over HTTP (src/hosts/mcp/http.ts) and the embedding endpoint of the process that owns the
 * model (src/engine/embed/remote.ts). Its rules are [H1]–[H4] in docs/SECURITY.md: the per-launch
 * token compared in constant time, a local Host naming the port the request came in on, a
 * same-origin Origin when a browser sends one, a body cap per route, and one status map
 * (src/shared/http-status.ts). Each host answers a refusal in its own envelope with the status
 * given here.
 *
 * It lives here, outside the engine, beside the hosts that use it most; the engine's embedding
 * endpoint imports it too, which biome.json allows (its boundaries for src/engine forbid only
 * electron, react, src/main and src/renderer), so there is one implementation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '#shared/errors.ts';
import { HTTP_STATUS_OF, STATUS_TOO_LARGE, STATUS_UNAUTHORIZED } from '#shared/http-status.ts';

/** Why and how a request is refused: the host sends `status` with `code` and `message`. */
export type Refusal = { status: number; code: ErrorCode; message: string };

const LOCAL_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/i;

/** Constant-time comparison of a presented token with the expected one ([H1]). */
export function tokenMatches(presented: string | null | undefined, expected: string): boolean {
  // Digests of both, so neither the comparison nor an early length check tells how much matched.
  const a = createHash('sha256')
    .update(presented ?? '')
    .digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && typeof presented === 'string' && expected.length > 0;
}

function forbidden(message: string): Refusal {
  return { status: HTTP_STATUS_OF.forbidden, code: 'forbidden', message };
}

/**
 * [H2] Host: 127.0.0.1, localhost or [::1] with the port this request came in on (a page on
 * another name, DNS rebinding, never gets an answer). Origin, when a browser sends one: exactly
 * `http://` + that Host, so no other page (another local server's, a sandboxed `null` one) can
 * post here even though the browser would let it send the request.
 */
export function refuseHostOrOrigin(req: IncomingMessage): Refusal | null {
  const host = req.headers.host ?? '';
  const m = LOCAL_HOST.exec(host);
  const port = Number(m?.[2] ?? 80);
  if (!m || port !== req.socket.localPort)
    return forbidden('Unknown Host header: open the address this server printed (127.0.0.1 and its port).');
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`)
    return forbidden(`Origin ${origin} is not allowed: only pages this server served may call it.`);
  return null;
}

function bearer(req: IncomingMessage): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1] ?? null;
}

function queryToken(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token');
}

export type TokenRule = {
  /** The per-launch token this route needs. */
  token: string;
  /** Also take it as `?token=` (an EventSource cannot send headers: the browser host's /api/events). */
  inQuery?: boolean;
};

/** [H1] The token as `Authorization: Bearer`, or as `?token=` on the routes that allow it. */
export function refuseToken(req: IncomingMessage, rule: TokenRule): Refusal | null {
  const presented = bearer(req) ?? (rule.inQuery ? queryToken(req) : null);
  if (tokenMatches(presented, rule.token)) return null;
  return {
    status: STATUS_UNAUTHORIZED,
    code: 'forbidden',
    message: presented ? 'Wrong token.' : 'Missing token: send Authorization: Bearer <token>.',
  };
}

/** [H2] then [H1]: what every request with a token must pass before its body is read. */
export function refuseRequest(req: IncomingMessage, rule: TokenRule): Refusal | null {
  return refuseHostOrOrigin(req) ?? refuseToken(req, rule);
}

export type Body = { ok: true; bytes: Buffer } | { ok: false; size: number; refusal: Refusal };

/**
 * [H3] Reads a body up to `maxBytes`. A declared Content-Length over the cap is refused before a
 * byte is read (Node discards the rest once the answer is sent); a streamed body is counted, and
 * past the cap the rest is read and dropped so the client still gets its answer.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Body> {
  const tooLarge = (size: number): Body => ({
    ok: false,
    size,
    refusal: {
      status: STATUS_TOO_LARGE,
      code: 'refused',
      message: `Request body too large: the limit is ${maxBytes} bytes.`,
    },
  });
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) return tooLarge(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size <= maxBytes) chunks.push(buf);
  }
  return size > maxBytes ? tooLarge(size) : { ok: true, bytes: Buffer.concat(chunks) };
}

/** A JSON answer that is never cached; hosts add their own headers (the browser host its CSP). */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  res.end(body);
}
