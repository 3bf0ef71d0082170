/**
 * The two ways the renderer reaches the engine: Electron's preload bridge (`window.api`) and the browser
 * host started by `brain serve` (HTTP + server-sent events, authorised by the per-launch token).
 * Both answer every call with the same Result envelope; lib/api.ts picks one at startup.
 */
import type { BrainBridge } from '#shared/api/bridge.ts';
import { EVENT_NAMES, type EventName, type Events } from '#shared/api/events.ts';
import type { AddReport } from '#shared/api/types.ts';
import { ERROR_CODES, type ErrorCode, type TransferableError } from '#shared/errors.ts';

export type Result<T> = { ok: true; data: T } | { ok: false; error: TransferableError };
export type Listener<E extends EventName> = (payload: Events[E]) => void;
export type ConnectionState = 'open' | 'connecting' | 'lost';

export type Transport = {
  kind: 'electron' | 'browser';
  invoke(name: string, input: unknown): Promise<Result<unknown>>;
  on<E extends EventName>(event: E, cb: Listener<E>): () => void;
  /** Electron: the OS path of a dropped file. */
  pathForFile?(file: File): string;
  /** Browser host: upload one file's bytes. */
  upload?(file: File, path: string, scope: string | undefined): Promise<Result<AddReport>>;
  onConnection?(cb: (state: ConnectionState) => void): () => void;
};

export function electronTransport(bridge: BrainBridge): Transport {
  return {
    kind: 'electron',
    invoke: (name, input) => bridge.invoke(name, input),
    on: (event, cb) => bridge.on(event, (payload) => cb(payload as Events[typeof event])),
    pathForFile: (file) => bridge.pathForFile(file),
  };
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 400 || status === 413 || status === 422) return 'validation-failed';
  if (status === 503) return 'engine-unavailable';
  return 'internal';
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Reads a host response into a Result, whatever the host sent (JSON envelope, HTML error page…). */
async function readEnvelope<T>(res: Response): Promise<Result<T>> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (body && typeof body === 'object' && 'ok' in body) {
    const env = body as { ok: unknown; data?: unknown; error?: { code?: unknown; message?: unknown } };
    if (env.ok === true) return { ok: true, data: env.data as T };
    const code = isErrorCode(env.error?.code) ? env.error.code : codeForStatus(res.status);
    const message =
      typeof env.error?.message === 'string' ? env.error.message : `The host answered ${res.status}.`;
    return { ok: false, error: { code, message } };
  }
  if (res.ok)
    return { ok: false, error: { code: 'internal', message: 'The host sent an unreadable answer.' } };
  const message =
    res.status === 413
      ? 'The file is too large for the host to accept.'
      : `The host answered ${res.status} ${res.statusText}`.trim();
  return { ok: false, error: { code: codeForStatus(res.status), message } };
}

const UNREACHABLE: TransferableError = {
  code: 'engine-unavailable',
  message: 'Cannot reach Org Brain. Is `brain serve` still running? Start it again and open the new link.',
};

export function browserTransport(token: string, origin = window.location.origin): Transport {
  const auth = { Authorization: `Bearer ${token}` };
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let source: EventSource | null = null;

  const setConnection = (state: ConnectionState) => {
    for (const cb of connectionListeners) cb(state);
  };

  const ensureSource = () => {
    if (source) return;
    source = new EventSource(`${origin}/api/events?token=${encodeURIComponent(token)}`);
    source.onopen = () => setConnection('open');
    source.onerror = () => setConnection(source?.readyState === EventSource.CLOSED ? 'lost' : 'connecting');
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (e) => {
        let payload: unknown;
        try {
          payload = JSON.parse((e as MessageEvent<string>).data);
        } catch {
          return;
        }
        for (const cb of listeners.get(name) ?? []) cb(payload);
      });
    }
  };

  return {
    kind: 'browser',
    async invoke(name, input) {
      try {
        const res = await fetch(`${origin}/api/invoke/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
        return await readEnvelope(res);
      } catch {
        return { ok: false, error: UNREACHABLE };
      }
    },
    on(event, cb) {
      ensureSource();
      const set = listeners.get(event) ?? new Set();
      const wrapped = cb as (payload: unknown) => void;
      set.add(wrapped);
      listeners.set(event, set);
      return () => {
        set.delete(wrapped);
      };
    },
    async upload(file, path, scope) {
      // encodeURIComponent (not URLSearchParams' "+" for spaces) decodes the same way on every server.
      let query = `name=${encodeURIComponent(file.name)}&path=${encodeURIComponent(path)}`;
      if (scope) query += `&scope=${encodeURIComponent(scope)}`;
      try {
        const res = await fetch(`${origin}/api/upload?${query}`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/octet-stream' },
          body: file,
        });
        return await readEnvelope<AddReport>(res);
      } catch {
        return { ok: false, error: UNREACHABLE };
      }
    },
    onConnection(cb) {
      ensureSource();
      connectionListeners.add(cb);
      return () => {
        connectionListeners.delete(cb);
      };
    },
  };
}
