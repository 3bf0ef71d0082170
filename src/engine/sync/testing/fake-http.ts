/**
 * The fake sync server over real HTTP on loopback, for CLI tests of the client: invitations,
 * device tokens (revocable), teams, push/pull with evictions when a user loses sight of an item,
 * and blobs. It follows src/shared/sync/protocol.ts; the real server is src/server.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '#engine/ids.ts';
import { InviteRequestSchema, PushRequestSchema, RedeemRequestSchema } from '#shared/sync/protocol.ts';
import { FakeSyncServer } from './fake-server.ts';

type Member = { isAdmin: boolean };

export class FakeHttpServer {
  readonly sync = new FakeSyncServer();
  readonly members = new Map<string, Member>();
  private readonly invites = new Map<string, { user: string | null; admin: boolean; teams: string[] }>();
  private readonly tokens = new Map<string, string>();
  private readonly delivered = new Map<string, Set<string>>();
  private server: Server | null = null;
  url = '';

  invite(input: { admin?: boolean; teams?: string[]; user?: string }): string {
    const code = randomBytes(12).toString('hex');
    this.invites.set(code, {
      user: input.user ?? null,
      admin: input.admin ?? false,
      teams: input.teams ?? [],
    });
    return code;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: Error) =>
        send(res, 500, { error: { code: 'internal', message: err.message } }),
      );
    });
    await new Promise<void>((r) => this.server?.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    const path = url.pathname;
    if (req.method === 'POST' && path === '/v1/invitations/redeem') {
      const r = RedeemRequestSchema.parse(JSON.parse(body.toString()));
      const inv = this.invites.get(r.code);
      if (!inv) return send(res, 404, { error: { code: 'not-found', message: 'no such invitation' } });
      this.invites.delete(r.code);
      const user = inv.user ?? `user${this.members.size + 1}`;
      this.members.set(user, { isAdmin: inv.admin });
      for (const t of inv.teams) this.team(t).add(user);
      const token = randomBytes(16).toString('hex');
      this.tokens.set(token, user);
      return send(res, 200, { token, user, isAdmin: inv.admin, workspace: this.sync.workspace });
    }
    const user = this.tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!user) return send(res, 401, { error: { code: 'forbidden', message: 'unknown or revoked token' } });
    const admin = this.members.get(user)?.isAdmin ?? false;
    const json = () => JSON.parse(body.toString()) as unknown;
    if (path === '/v1/me') return send(res, 200, this.sync.me(user));
    if (path === '/v1/push') return send(res, 200, this.sync.push(user, PushRequestSchema.parse(json())));
    if (path === '/v1/pull')
      return send(res, 200, this.pull(user, Number(url.searchParams.get('after') ?? 0)));
    if (path.startsWith('/v1/blobs/')) return this.blob(req, res, path.slice('/v1/blobs/'.length), body);
    if (!admin) return send(res, 403, { error: { code: 'forbidden', message: 'admins only' } });
    if (path === '/v1/invitations') {
      const input = InviteRequestSchema.parse(json());
      return send(res, 200, {
        code: this.invite(input),
        user: input.user ?? null,
        expiresAt: '2100-01-01T00:00:00Z',
      });
    }
    if (path === '/v1/teams') {
      this.team((json() as { id: string }).id);
      return send(res, 200, { ok: true });
    }
    const m = /^\/v1\/teams\/([^/]+)\/members(?:\/([^/]+))?$/.exec(path);
    if (m) {
      const team = this.team(decodeURIComponent(m[1] ?? ''));
      if (req.method === 'DELETE') team.delete(decodeURIComponent(m[2] ?? ''));
      else team.add((json() as { user: string }).user);
      return send(res, 200, { ok: true });
    }
    const rv = /^\/v1\/members\/([^/]+)\/revoke$/.exec(path);
    if (rv) {
      const who = decodeURIComponent(rv[1] ?? '');
      for (const [t, u] of this.tokens) if (u === who) this.tokens.delete(t);
      this.members.delete(who);
      return send(res, 200, { ok: true });
    }
    send(res, 404, { error: { code: 'not-found', message: path } });
  }

  private team(id: string): Set<string> {
    let t = this.sync.teams.get(id);
    if (!t) {
      t = new Set();
      this.sync.teams.set(id, t);
    }
    return t;
  }

  /** Pull with evictions: items delivered earlier whose latest scope this user no longer sees. */
  private pull(user: string, after: number) {
    const page = this.sync.pull(user, after, 1000);
    const seen = this.delivered.get(user) ?? new Set<string>();
    this.delivered.set(user, seen);
    for (const p of page.ops) if (p.op.kind === 'item.upsert') seen.add(p.op.item.id);
    const scopes = this.sync.scopesOf(user);
    const latest = new Map<string, string>();
    for (const e of this.sync.log) if (e.op.kind === 'item.upsert') latest.set(e.op.item.id, e.op.scope);
    const evict = [...seen].filter((id) => !scopes.includes(latest.get(id) ?? 'org'));
    for (const id of evict) seen.delete(id);
    return { ...page, evict };
  }

  private blob(req: IncomingMessage, res: ServerResponse, hash: string, body: Buffer): void {
    if (req.method === 'PUT') {
      if (sha256(body) !== hash) send(res, 400, { error: { code: 'refused', message: 'wrong sha256' } });
      else {
        this.sync.blobs.set(hash, new Uint8Array(body));
        send(res, 200, { ok: true });
      }
      return;
    }
    const bytes = this.sync.blobs.get(hash);
    if (!bytes) {
      send(res, 404, { error: { code: 'not-found', message: 'no blob' } });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(bytes));
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}
