/** A small HTTP client for the server tests (fetch), shaped like the protocol. */
import {
  type InviteResponse,
  type MembersResponse,
  type MeResponse,
  type Op,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type PullResponse,
  type PushResponse,
  type RedeemResponse,
  ROUTES,
} from '#shared/sync/protocol.ts';

type ErrorAnswer = { error: { code: string; message: string } };

export class TestClient {
  constructor(
    readonly url: string,
    readonly token: string | null = null,
    readonly user = '',
  ) {}

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    // Every replica request says its protocol ([S31]); a test may override or drop it.
    const h: Record<string, string> = { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION), ...headers };
    if (this.token) h.authorization = `Bearer ${this.token}`;
    let payload: string | Uint8Array | undefined;
    if (body instanceof Uint8Array) {
      payload = body;
      h['content-type'] ??= 'application/octet-stream';
    } else if (typeof body === 'string') {
      payload = body;
      h['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      h['content-type'] = 'application/json';
    }
    const res = await fetch(this.url + path, { method, headers: h, body: payload });
    const text = method === 'HEAD' ? '' : await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* raw bytes stay text */
    }
    return { status: res.status, body: parsed as T, raw: text };
  }

  async redeem(code: string, device = 'test-device'): Promise<TestClient> {
    const r = await this.request<RedeemResponse>('POST', ROUTES.redeem, { code, device });
    if (r.status !== 200) throw new Error(`redeem failed: ${r.status} ${r.raw}`);
    return new TestClient(this.url, r.body.token, r.body.user);
  }

  async invite(input: { admin?: boolean; teams?: string[]; user?: string } = {}): Promise<string> {
    const r = await this.request<InviteResponse>('POST', ROUTES.invite, input);
    if (r.status !== 201) throw new Error(`invite failed: ${r.status} ${r.raw}`);
    return r.body.code;
  }

  /** Invites and redeems in one go: a new connected device for `user`. */
  async join(user: string, teams: string[] = [], admin = false): Promise<TestClient> {
    return new TestClient(this.url).redeem(await this.invite({ user, teams, admin }), `${user}-device`);
  }

  async createTeam(id: string) {
    return this.request('POST', ROUTES.teams, { id });
  }
  async addToTeam(team: string, user: string) {
    return this.request('POST', ROUTES.teamMembers(team), { user });
  }
  async removeFromTeam(team: string, user: string) {
    return this.request('DELETE', `${ROUTES.teamMembers(team)}/${encodeURIComponent(user)}`);
  }
  async revoke(user: string) {
    return this.request('POST', ROUTES.revoke(user));
  }
  async me() {
    return this.request<MeResponse>('GET', ROUTES.me);
  }
  async members() {
    return this.request<MembersResponse>('GET', ROUTES.members);
  }

  /** `ack`: omitted, the last page received (as a replica sends the page it committed); null none. */
  async push(ops: readonly Op[], ack: string | null | undefined = this.lastPage): Promise<PushResponse> {
    const r = await this.request<PushResponse>('POST', ROUTES.push, ack === null ? { ops } : { ops, ack });
    if (r.status !== 200) throw new Error(`push failed: ${r.status} ${r.raw}`);
    return r.body;
  }

  /** The page of the last successful pull: acknowledged by the next pull unless told otherwise. */
  lastPage: string | null = null;

  /** `ack`: omitted, the last page received (a replica that committed it); null sends none. */
  async pull(after = 0, limit?: number, ack: string | null | undefined = this.lastPage) {
    const q = `?after=${after}${limit ? `&limit=${limit}` : ''}${ack ? `&ack=${encodeURIComponent(ack)}` : ''}`;
    const r = await this.request<PullResponse & ErrorAnswer>('GET', ROUTES.pull + q);
    if (r.status === 200) this.lastPage = r.body.page;
    return r;
  }

  /** Pulls until `more` is false; returns every page's ops and evictions and the final cursor. */
  async pullAll(after = 0, limit?: number): Promise<PullResponse> {
    const all: PullResponse = { ops: [], evict: [], cursor: after, more: false, page: '' };
    for (;;) {
      const r = await this.pull(all.cursor, limit);
      if (r.status !== 200) throw new Error(`pull failed: ${r.status} ${r.raw}`);
      all.ops.push(...r.body.ops);
      all.evict.push(...r.body.evict);
      all.cursor = r.body.cursor;
      all.page = r.body.page;
      if (!r.body.more) return all;
    }
  }

  async putBlob(hash: string, bytes: Uint8Array) {
    return this.request('PUT', ROUTES.blob(hash), bytes);
  }
  async getBlob(hash: string) {
    return this.request('GET', ROUTES.blob(hash));
  }
  async headBlob(hash: string) {
    return this.request('HEAD', ROUTES.blob(hash));
  }
}
