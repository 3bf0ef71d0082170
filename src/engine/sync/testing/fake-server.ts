/**
 * An in-process workspace server for sync tests: the protocol's push/pull/me/blob semantics
 * (idempotent by op id, a sequence per accepted op, pulls filtered by the user's scopes, paged)
 * behind a transport the test controls: it can go offline, lose the answer to a push it applied,
 * deliver pages again from an earlier cursor and shuffle the operations inside a page.
 */

import { sha256 } from '#engine/ids.ts';
import { AppError } from '#shared/errors.ts';
import type { MeResponse, PulledOp, PullResponse, PushRequest, PushResponse } from '#shared/sync/protocol.ts';
import { PushRequestSchema } from '#shared/sync/protocol.ts';
import type { SyncTransport } from '../transport.ts';

export type Rng = () => number;

/** mulberry32: small, seeded, good enough for fuzzing. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FakeSyncServer {
  readonly log: PulledOp[] = [];
  private readonly byId = new Map<string, { body: string; seq: number }>();
  readonly blobs = new Map<string, Uint8Array>();
  readonly teams = new Map<string, Set<string>>();
  readonly workspace = { id: 'ws-fake', name: 'Fake' };

  scopesOf(user: string): string[] {
    const teams = [...this.teams.entries()].filter(([, m]) => m.has(user)).map(([t]) => t);
    return ['org', `user:${user}`, ...teams.map((t) => `team:${t}`)];
  }

  push(user: string, request: PushRequest): PushResponse {
    const parsed = PushRequestSchema.parse(request);
    const out: PushResponse = { accepted: [], refused: [] };
    const scopes = this.scopesOf(user);
    for (const op of parsed.ops) {
      const body = JSON.stringify(op);
      const seen = this.byId.get(op.id);
      if (seen) {
        if (seen.body === body) out.accepted.push({ id: op.id, seq: seen.seq });
        else out.refused.push({ id: op.id, reason: 'replayed id with a different body' });
        continue;
      }
      if (!scopes.includes(op.scope)) {
        out.refused.push({ id: op.id, reason: `no write access to ${op.scope}` });
        continue;
      }
      const seq = this.log.length + 1;
      this.log.push({ seq, actor: user, op });
      this.byId.set(op.id, { body, seq });
      out.accepted.push({ id: op.id, seq });
    }
    return out;
  }

  pull(user: string, after: number, limit: number): PullResponse {
    const scopes = this.scopesOf(user);
    const ops: PulledOp[] = [];
    let cursor = after;
    for (const entry of this.log.slice(after)) {
      if (ops.length >= limit) break;
      cursor = entry.seq;
      if (scopes.includes(entry.op.scope)) ops.push(entry);
    }
    return { ops, evict: [], cursor, more: cursor < this.log.length, page: `page-${after}-${cursor}` };
  }

  me(user: string): MeResponse {
    const scopes = this.scopesOf(user);
    return {
      user,
      isAdmin: false,
      teams: scopes.filter((s) => s.startsWith('team:')).map((s) => s.slice(5)),
      scopes,
      workspace: this.workspace,
    };
  }
}

export type FakeTransportControl = {
  online: boolean;
  /** Probability that a push is applied but its answer lost (the connection dies after the server commits). */
  loseAnswer: number;
  /** Probability that a pull starts from an earlier cursor (duplicated delivery). */
  redeliver: number;
  /** Shuffle the operations of each page (reordered delivery). */
  shuffle: boolean;
  pageSize: number;
};

export function fakeTransport(
  server: FakeSyncServer,
  user: string,
  rng: Rng,
  control: Partial<FakeTransportControl> = {},
): SyncTransport & { control: FakeTransportControl } {
  const c: FakeTransportControl = {
    online: true,
    loseAnswer: 0,
    redeliver: 0,
    shuffle: false,
    pageSize: 1000,
    ...control,
  };
  const offline = () => new AppError('sync-offline', 'fake server offline');
  const guard = () => {
    if (!c.online) throw offline();
  };
  return {
    control: c,
    async push(request) {
      guard();
      const res = server.push(user, JSON.parse(JSON.stringify(request)) as PushRequest);
      if (rng() < c.loseAnswer) throw offline();
      return res;
    },
    async pull(after, limit) {
      guard();
      const from = rng() < c.redeliver ? Math.floor(rng() * (after + 1)) : after;
      const page = server.pull(user, from, Math.min(limit, c.pageSize));
      const ops = [...page.ops];
      if (c.shuffle) {
        for (let i = ops.length - 1; i > 0; i--) {
          const j = Math.floor(rng() * (i + 1));
          [ops[i], ops[j]] = [ops[j] as PulledOp, ops[i] as PulledOp];
        }
      }
      return JSON.parse(JSON.stringify({ ...page, ops })) as PullResponse;
    },
    async me() {
      guard();
      return server.me(user);
    },
    async hasBlob(hash) {
      guard();
      return server.blobs.has(hash);
    },
    async putBlob(hash, bytes) {
      guard();
      if (sha256(bytes) !== hash) throw new AppError('refused', 'wrong sha256');
      server.blobs.set(hash, new Uint8Array(bytes));
    },
    async getBlob(hash) {
      guard();
      return server.blobs.get(hash) ?? null;
    },
  };
}
