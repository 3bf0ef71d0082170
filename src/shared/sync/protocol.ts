/**
 * The sync protocol between a desktop replica (src/engine/sync) and the workspace server
 * (src/server). Both sides import these schemas; the server validates every request with them.
 * Rules with ids ([S1]…) are in docs/SYNC_SPEC.md.
 */
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;
export const PUSH_MAX_OPS = 500;
export const PUSH_MAX_BYTES = 8 * 1024 * 1024;
export const PULL_MAX_OPS = 1000;
export const BLOB_MAX_BYTES = 100 * 1024 * 1024;

/** Hybrid logical clock: `<ms since epoch, 13 digits>-<counter, 6 digits>-<node id>`; compares as a string. */
export const HlcSchema = z.string().regex(/^\d{13}-\d{6}-[A-Za-z0-9_-]{1,40}$/);

const scope = z.string().regex(/^(org|team:[A-Za-z0-9._@-]{1,64}|user:[A-Za-z0-9._@-]{1,64})$/);
const itemId = z.string().regex(/^[fsne]_[0-9a-f]{20}$/);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** An item as it travels: the synced columns of `items`, plus its vector when it has one. */
export const SyncItemSchema = z
  .object({
    id: itemId,
    storage_kind: z.enum(['file', 'section', 'note', 'entity']),
    kind: z.string().max(100),
    label: z.string().max(2000),
    summary: z.string().max(10_000).nullable(),
    body: z.string().max(200_000),
    source_key: z.string().max(4000),
    canonical_type: z.string().max(100).nullable(),
    canonical_value: z.string().max(4000).nullable(),
    blob: sha256.nullable(),
    format: z.string().max(20).nullable(),
    size: z.number().int().nonnegative().nullable(),
    file_id: itemId.nullable(),
    ordinal: z.number().int().nullable(),
    locator: z.string().max(2000).nullable(),
    indexed: z.union([z.literal(0), z.literal(1)]),
    health: z.string().max(4000).nullable(),
    scope,
    origin_actor: z.string().max(200),
    origin_source: z.string().max(100),
    origin_run: z.string().max(200).nullable(),
    origin_at: z.string().max(40),
    occurred_at: z.string().max(40).nullable(),
    retired_at: z.string().max(40).nullable(),
    superseded_by: itemId.nullable(),
    created_at: z.string().max(40),
    updated_at: z.string().max(40),
    version: z.number().int().positive(),
    /** float32 little-endian, base64, with the model that made it; another model re-embeds. */
    vector: z.object({ model: z.string().max(200), data: z.string().max(4096) }).nullable(),
  })
  .strict();
export type SyncItem = z.infer<typeof SyncItemSchema>;

export const SyncEdgeSchema = z
  .object({
    id: z.string().regex(/^g_[0-9a-f]{20}$/),
    type: z.string().min(1).max(100),
    from_id: itemId,
    to_id: itemId,
    props: z.string().max(20_000).nullable(),
    origin_actor: z.string().max(200),
    origin_source: z.string().max(100),
    origin_run: z.string().max(200).nullable(),
    origin_at: z.string().max(40),
    retired_at: z.string().max(40).nullable(),
  })
  .strict();
export type SyncEdge = z.infer<typeof SyncEdgeSchema>;

const base = { id: z.string().uuid(), hlc: HlcSchema };

/**
 * One operation. `scope` is the scope it writes in: an item's scope; for an edge, the narrowest
 * scope of its two ends (the client computes it, the server checks it against its own copy of
 * the ends). Upserts carry the whole new state (last writer wins per item by hlc).
 */
export const OpSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('item.upsert'), scope, item: SyncItemSchema }).strict(),
  z.object({ ...base, kind: z.literal('edge.upsert'), scope, edge: SyncEdgeSchema }).strict(),
  z
    .object({
      ...base,
      kind: z.literal('proposal.decide'),
      scope,
      proposalId: z.string().max(100),
      decision: z.enum(['approved', 'rejected']),
      reason: z.string().max(2000).nullable(),
    })
    .strict(),
]);
export type Op = z.infer<typeof OpSchema>;

export const PushRequestSchema = z.object({ ops: z.array(OpSchema).max(PUSH_MAX_OPS) }).strict();
export type PushRequest = z.infer<typeof PushRequestSchema>;
export type PushResponse = {
  accepted: { id: string; seq: number }[];
  refused: { id: string; reason: string }[];
};

/**
 * Pull: operations after `after` (a server sequence number), only those the user may see, in
 * order. `evict` lists items the user can no longer see (their scope narrowed, the user left a
 * team, …): the replica deletes them. `cursor` is what to send as `after` next time.
 * `evict` may also hold edge ids (`g_…`); a replica deletes the edges of evicted items too.
 * A page may start with ops whose `seq` is <= `after`: the current state of items the device
 * did not receive before but may see now (it joined a team); apply them like any op (by hlc).
 * `page` names this answer: once the replica has committed the page, it sends that id as
 * `ack=<page>` on its next pull. A page that is not acknowledged (the replica crashed before
 * committing it, or an old client sends no `ack`) is undone on the server and its evictions and
 * backfill are sent again ([S19]).
 */
export type PulledOp = { seq: number; actor: string; op: Op };
export type PullResponse = { ops: PulledOp[]; evict: string[]; cursor: number; more: boolean; page: string };

export const RedeemRequestSchema = z
  .object({ code: z.string().min(8).max(200), device: z.string().min(1).max(200) })
  .strict();
export type RedeemResponse = {
  token: string;
  user: string;
  isAdmin: boolean;
  workspace: { id: string; name: string };
};

export type MeResponse = {
  user: string;
  isAdmin: boolean;
  teams: string[];
  scopes: string[];
  workspace: { id: string; name: string };
};

export const InviteRequestSchema = z
  .object({
    admin: z.boolean().default(false),
    teams: z
      .array(z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/))
      .max(50)
      .default([]),
    user: z
      .string()
      .regex(/^[A-Za-z0-9._@-]{1,64}$/)
      .optional(),
  })
  .strict();
export type InviteResponse = { code: string; user: string | null; expiresAt: string };

/** POST /v1/teams (admin): creates the team if it is new. Answers `{ id, created }`. */
export const TeamCreateRequestSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/) }).strict();
/** POST /v1/teams/:team/members (admin): adds a member. Answers `{ team, user }`. */
export const TeamMemberRequestSchema = z
  .object({ user: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/) })
  .strict();

export type MembersResponse = {
  members: { user: string; isAdmin: boolean; teams: string[]; devices: number }[];
  teams: { id: string; members: string[] }[];
};

/** Every error answer: `{ error: { code, message } }` with an HTTP status from the code. */
export type ErrorBody = { error: { code: string; message: string } };

/** Paths, relative to the server URL. All but health, ready and redeem need `Authorization: Bearer <device token>`. */
export const ROUTES = {
  health: '/health',
  ready: '/ready',
  redeem: '/v1/invitations/redeem',
  invite: '/v1/invitations',
  me: '/v1/me',
  members: '/v1/members',
  teams: '/v1/teams',
  /** POST {user} adds; DELETE /v1/teams/:team/members/:user removes. */
  teamMembers: (team: string) => `/v1/teams/${encodeURIComponent(team)}/members`,
  /** POST revokes every device token of the user and removes them from the workspace. */
  revoke: (user: string) => `/v1/members/${encodeURIComponent(user)}/revoke`,
  push: '/v1/push',
  /** GET ?after=<seq>&limit=<n> */
  pull: '/v1/pull',
  /** PUT (body = bytes, verified against the hash) / GET / HEAD */
  blob: (hash: string) => `/v1/blobs/${hash}`,
} as const;
