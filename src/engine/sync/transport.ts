/**
 * How a replica talks to its workspace server: the sync calls behind one small interface (an
 * in-process fake implements it in tests) and the HTTP client for it. Every failure becomes an
 * AppError: unreachable or failing servers are `sync-offline` (try again later), a refused
 * token is `forbidden`, the server's own error codes pass through.
 */
import { AppError, ERROR_CODES, type ErrorCode } from '#shared/errors.ts';
import {
  type ErrorBody,
  type InviteResponse,
  type MembersResponse,
  type MeResponse,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type PullResponse,
  type PushRequest,
  type PushResponse,
  type RedeemResponse,
  ROUTES,
} from '#shared/sync/protocol.ts';

export type SyncTransport = {
  push(request: PushRequest): Promise<PushResponse>;
  /** `ack`: the last page committed here, null before the first ([S19]). */
  pull(after: number, limit: number, ack?: string | null): Promise<PullResponse>;
  me(): Promise<MeResponse>;
  hasBlob(hash: string): Promise<boolean>;
  putBlob(hash: string, bytes: Uint8Array): Promise<void>;
  /** null when the server does not have it (yet). */
  getBlob(hash: string): Promise<Uint8Array | null>;
};

type AdminTransport = {
  invite(input: { admin?: boolean; teams?: string[]; user?: string }): Promise<InviteResponse>;
  members(): Promise<MembersResponse>;
  createTeam(team: string): Promise<unknown>;
  addToTeam(team: string, user: string): Promise<unknown>;
  removeFromTeam(team: string, user: string): Promise<unknown>;
  revoke(user: string): Promise<unknown>;
};

const TIMEOUT_MS = 30_000;
const BLOB_TIMEOUT_MS = 300_000;

/** A server URL as typed by a person: http(s) only, no credentials, no query; trailing slash dropped. */
export function normaliseServerUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new AppError('validation-failed', `"${input}" is not a server URL (like http://host:4000).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError(
      'validation-failed',
      `The server URL must start with http:// or https://, not ${url.protocol}`,
    );
  if (url.username || url.password)
    throw new AppError('validation-failed', 'The server URL must not carry a user name or password.');
  if (url.search || url.hash)
    throw new AppError('validation-failed', 'The server URL must not have a query or fragment.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

type RequestInit2 = { method?: string; body?: unknown; raw?: Uint8Array; timeoutMs?: number };

export class HttpTransport implements SyncTransport, AdminTransport {
  constructor(
    readonly server: string,
    private readonly token: string | null,
  ) {}

  private async request(path: string, init: RequestInit2 = {}): Promise<Response> {
    // Every request says which protocol this replica speaks ([S31]).
    const headers: Record<string, string> = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: NonNullable<Parameters<typeof fetch>[1]>['body'];
    if (init.raw) {
      headers['content-type'] = 'application/octet-stream';
      body = init.raw;
    } else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.server}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body,
        signal: AbortSignal.timeout(init.timeoutMs ?? TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
      throw new AppError('sync-offline', `Cannot reach the workspace server at ${this.server} (${why}).`);
    }
    return res;
  }

  private async json<T>(path: string, init: RequestInit2 = {}): Promise<T> {
    const res = await this.request(path, init);
    if (!res.ok) throw await errorOf(res, this.server);
    return (await res.json()) as T;
  }

  push(request: PushRequest): Promise<PushResponse> {
    return this.json(ROUTES.push, { method: 'POST', body: request });
  }

  /** The page as the server sent it: the client validates it before applying anything ([S30]). */
  pull(after: number, limit: number, ack?: string | null): Promise<PullResponse> {
    const q = ack ? `&ack=${encodeURIComponent(ack)}` : '';
    return this.json(`${ROUTES.pull}?after=${after}&limit=${limit}${q}`);
  }

  me(): Promise<MeResponse> {
    return this.json(ROUTES.me);
  }

  async hasBlob(hash: string): Promise<boolean> {
    const res = await this.request(ROUTES.blob(hash), { method: 'HEAD' });
    if (res.status === 404) return false;
    if (!res.ok) throw await errorOf(res, this.server);
    return true;
  }

  async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
    const res = await this.request(ROUTES.blob(hash), {
      method: 'PUT',
      raw: bytes,
      timeoutMs: BLOB_TIMEOUT_MS,
    });
    if (!res.ok) throw await errorOf(res, this.server);
    await res.body?.cancel();
  }

  async getBlob(hash: string): Promise<Uint8Array | null> {
    const res = await this.request(ROUTES.blob(hash), { timeoutMs: BLOB_TIMEOUT_MS });
    if (res.status === 404) return null;
    if (!res.ok) throw await errorOf(res, this.server);
    return new Uint8Array(await res.arrayBuffer());
  }

  redeem(code: string, device: string): Promise<RedeemResponse> {
    return this.json(ROUTES.redeem, { method: 'POST', body: { code, device } });
  }

  invite(input: { admin?: boolean; teams?: string[]; user?: string }): Promise<InviteResponse> {
    return this.json(ROUTES.invite, { method: 'POST', body: input });
  }

  members(): Promise<MembersResponse> {
    return this.json(ROUTES.members);
  }

  createTeam(team: string): Promise<unknown> {
    return this.json(ROUTES.teams, { method: 'POST', body: { id: team } });
  }

  addToTeam(team: string, user: string): Promise<unknown> {
    return this.json(ROUTES.teamMembers(team), { method: 'POST', body: { user } });
  }

  removeFromTeam(team: string, user: string): Promise<unknown> {
    return this.json(`${ROUTES.teamMembers(team)}/${encodeURIComponent(user)}`, { method: 'DELETE' });
  }

  revoke(user: string): Promise<unknown> {
    return this.json(ROUTES.revoke(user), { method: 'POST', body: {} });
  }
}

async function errorOf(res: Response, server: string): Promise<AppError> {
  let code: string | undefined;
  let reason: string | undefined;
  let message = `HTTP ${res.status}`;
  try {
    const body = (await res.json()) as ErrorBody;
    code = body.error?.code;
    reason = body.error?.reason;
    if (body.error?.message) message = body.error.message;
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  if (res.status === 401)
    return new AppError(
      'forbidden',
      `The server refused this device's token (revoked or unknown): ${message}`,
      {
        revoked: reason === 'revoked',
      },
    );
  // [S31] The server speaks a newer protocol than this replica.
  if (res.status === 426) return new AppError('unsupported', `The workspace server at ${server}: ${message}`);
  if (res.status >= 500 || res.status === 408)
    return new AppError('sync-offline', `The workspace server at ${server} failed: ${message}`);
  if (res.status === 429) return new AppError('busy', `The workspace server asks to slow down: ${message}`);
  const known = ERROR_CODES.find((c): c is ErrorCode => c === code);
  return new AppError(known ?? statusCode(res.status), `server: ${message}`);
}

function statusCode(status: number): ErrorCode {
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'refused';
  return 'refused';
}
