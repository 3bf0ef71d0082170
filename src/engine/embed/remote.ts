/**
 * One copy of the embedding model per machine, not one per process. Claude Code, Cursor and Claude
 * Desktop each start their own `brain mcp`; when the app (or `brain serve`, or `brain mcp --http`)
 * is running it is the **owner**: it serves its embedder on 127.0.0.1 and says so in
 * `<home>/owner.json` ({pid, port, token}, mode 0600). Every other process embeds through a thin
 * client to it (`createRemoteEmbedder`), and falls back to its own local embedder when there is
 * no live owner or the owner goes away mid-session.
 *
 * The endpoint (EMBED_PATH): GET → the owner's ModelState; POST {texts} → {modelId, state,
 * vectors: base64 float32[]}. It is guarded like every local HTTP endpoint ([H1]–[H4] in
 * docs/SECURITY.md) by the one guard in src/platform/http-guard.ts (Node code every process may
 * use; biome.json keeps the engine from importing src/cli or src/server).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Refusal, readBody, refuseRequest, sendJson } from '#platform/http-guard.ts';
import { isAlive } from '#platform/processes.ts';
import { EMBED_BATCH } from '#shared/constants.ts';
import { AppError, ERROR_CODES, type ErrorCode, toTransferable } from '#shared/errors.ts';
import { httpStatusOf } from '#shared/http-status.ts';
import { cutForEmbedding } from './embedder.ts';
import type { Embedder, ModelState } from './types.ts';

export const EMBED_PATH = '/embed';
const OWNER_FILE = 'owner.json';
const EMBED_BODY_MAX_BYTES = 2 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;
const STATE_TTL_MS = 10_000;

export type OwnerInfo = { pid: number; port: number; token: string };

export function ownerFilePath(home: string): string {
  return join(home, OWNER_FILE);
}

/** Written atomically (temp file + rename), readable by the user only: it holds the token. */
export function writeOwnerFile(home: string, info: { port: number; token: string }): OwnerInfo {
  const owner: OwnerInfo = { pid: process.pid, port: info.port, token: info.token };
  const tmp = `${ownerFilePath(home)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  renameSync(tmp, ownerFilePath(home));
  return owner;
}

/** Removes the owner file only if it is this process's (a newer owner may have replaced it). */
export function removeOwnerFile(home: string, pid = process.pid): void {
  const current = readOwnerFile(home);
  if (current && current.pid === pid) rmSync(ownerFilePath(home), { force: true });
}

function readOwnerFile(home: string): OwnerInfo | null {
  try {
    const parsed: unknown = JSON.parse(readFileSync(ownerFilePath(home), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { pid, port, token } = parsed as Record<string, unknown>;
    if (!Number.isInteger(pid) || !Number.isInteger(port) || typeof token !== 'string' || !token) return null;
    return { pid: pid as number, port: port as number, token };
  } catch {
    return null;
  }
}

/** The owner named in <home>/owner.json if its process is alive; null otherwise (stale files are ignored). */
export function readLiveOwner(home: string): OwnerInfo | null {
  const owner = readOwnerFile(home);
  return owner && isAlive(owner.pid) ? owner : null;
}

// ---- the owner side ----

function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  sendError(res, refusal.status, refusal.code, refusal.message);
}

/** The request handler an owner mounts at EMBED_PATH on 127.0.0.1. */
export function serveEmbeddings(
  embedder: Embedder,
  options: { token: string },
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const refused = refuseRequest(req, { token: options.token });
    if (refused) return refuse(res, refused);
    if (req.method === 'GET') return sendJson(res, 200, { state: embedder.state() });
    if (req.method !== 'POST') return sendError(res, 405, 'validation-failed', 'Use GET or POST.');
    const body = await readBody(req, EMBED_BODY_MAX_BYTES);
    if (!body.ok) return refuse(res, body.refusal);
    let texts: unknown;
    try {
      texts = (JSON.parse(body.bytes.toString('utf8')) as { texts?: unknown }).texts;
    } catch {
      return sendError(res, 400, 'validation-failed', 'Body must be JSON {texts: string[]}.');
    }
    if (!Array.isArray(texts) || texts.length > EMBED_BATCH || !texts.every((t) => typeof t === 'string')) {
      return sendError(res, 400, 'validation-failed', `texts must be 0 to ${EMBED_BATCH} strings.`);
    }
    try {
      const vectors = await embedder.embed(texts.map(cutForEmbedding));
      sendJson(res, 200, {
        modelId: embedder.modelId(),
        state: embedder.state(),
        vectors: vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')),
      });
    } catch (err) {
      const t = toTransferable(err);
      sendError(res, httpStatusOf(t.code), t.code, t.message);
    }
  };
}

export type EmbeddingOwner = { port: number; close(): Promise<void> };

/**
 * For a process with no HTTP server of its own (the desktop app's engine process): when no other
 * live process owns the model, serve this embedder on its own 127.0.0.1 port and publish
 * owner.json, as `brain serve` and `brain mcp --http` do on theirs. Null when another owner lives.
 */
export async function startEmbeddingOwner(embedder: Embedder, home: string): Promise<EmbeddingOwner | null> {
  if (readLiveOwner(home)) return null;
  const token = randomBytes(24).toString('base64url');
  const embed = serveEmbeddings(embedder, { token });
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname === EMBED_PATH) void embed(req, res);
    else sendError(res, 404, 'not-found', `Nothing here: the embedding endpoint is ${EMBED_PATH}.`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  writeOwnerFile(home, { port, token });
  return {
    port,
    close: async () => {
      removeOwnerFile(home);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- the client side ----

type EmbedReply = { modelId: string | null; state: ModelState; vectors: string[] };

function decodeVector(b64: string): Float32Array {
  const bytes = Buffer.from(b64, 'base64');
  const copy = new Uint8Array(bytes).buffer; // aligned, owned copy
  return new Float32Array(copy);
}

async function call(owner: OwnerInfo, init: { method: 'GET' | 'POST'; body?: string }): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${owner.port}${EMBED_PATH}`, {
    method: init.method,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: init.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const parsed = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
  if (!res.ok) {
    const code = ERROR_CODES.find((c) => c === parsed.error?.code) ?? 'internal';
    throw new AppError(code, parsed.error?.message ?? `the embedding owner answered ${res.status}`);
  }
  return parsed;
}

/** The owner's model state, or null when it cannot be reached (then use a local embedder). */
export async function fetchOwnerState(owner: OwnerInfo): Promise<ModelState | null> {
  try {
    const reply = (await call(owner, { method: 'GET' })) as { state?: ModelState };
    return reply.state ?? null;
  } catch {
    return null;
  }
}

export type RemoteEmbedderOptions = {
  /** The owner's state when the client was made (see fetchOwnerState). */
  initialState: ModelState;
  /** Makes a local embedder when the owner goes away; without it, embedding fails instead. */
  fallback?: () => Embedder;
};

/** An Embedder that runs on the owner process; the same contract as the local one. */
export function createRemoteEmbedder(owner: OwnerInfo, options: RemoteEmbedderOptions): Embedder {
  let state = options.initialState;
  let stateAt = Date.now();
  let refreshing = false;
  let local: Embedder | null = null;
  let closed = false;

  // state() is synchronous: answer from the cache and refresh it in the background now and then,
  // so a model that arrives at the owner (a download) turns semantic search on here too.
  const cachedState = (): ModelState => {
    if (!refreshing && !closed && Date.now() - stateAt > STATE_TTL_MS) {
      refreshing = true;
      void fetchOwnerState(owner)
        .then((fresh) => {
          if (fresh) state = fresh;
          stateAt = Date.now();
        })
        .finally(() => {
          refreshing = false;
        });
    }
    return state;
  };

  const goLocal = (): Embedder | null => {
    if (!local && options.fallback && !closed) local = options.fallback();
    return local;
  };

  const embed = async (texts: string[], onProgress?: (done: number, total: number) => void) => {
    if (local) return local.embed(texts, onProgress);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const batch = texts.slice(start, start + EMBED_BATCH).map(cutForEmbedding);
      let reply: EmbedReply;
      try {
        reply = (await call(owner, { method: 'POST', body: JSON.stringify({ texts: batch }) })) as EmbedReply;
      } catch (err) {
        // An answer from the owner (model off, bad input) is final; no answer at all means it is gone.
        if (err instanceof AppError) throw err;
        const fallback = goLocal();
        if (!fallback) throw new AppError('engine-unavailable', 'the embedding owner process went away');
        return fallback.embed(texts, onProgress);
      }
      state = reply.state;
      stateAt = Date.now();
      vectors.push(...reply.vectors.map(decodeVector));
      onProgress?.(vectors.length, texts.length);
    }
    return vectors;
  };

  return {
    state: () => (local ? local.state() : cachedState()),
    modelId: () => {
      if (local) return local.modelId();
      const current = cachedState();
      return current.status === 'on' ? current.modelId : null;
    },
    embed,
    embedQuery: async (text) => {
      const [vector] = await embed([text]);
      if (!vector) throw new AppError('internal', 'the embedding owner returned no vector');
      return vector;
    },
    close: async () => {
      closed = true;
      await local?.close();
    },
  };
}
