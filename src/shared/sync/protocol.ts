/**
 * The sync protocol between a desktop replica (src/engine/sync) and the workspace server
 * (src/server). Both sides import these schemas; the server validates every request with them.
 * Rules with ids ([S1]…) are in docs/SYNC_SPEC.md.
 */
import { z } from 'zod';

/**
 * The protocol version, sent by every replica request in PROTOCOL_HEADER and answered in it. A
 * server refuses a replica that speaks an older one ([S31]): protocol 2 is the one where the server
 * checks ids, origins, clocks and blob references ([S25]–[S29]); protocol 3 adds tree records
 * (storage kind `tree`, docs/TREES.md [T13]), which a replica of protocol 2 could not read;
 * protocol 4 adds erasing a source (`item.erase`, [S35]), which a replica of protocol 3 would set
 * aside and keep the erased source; protocol 5 adds `ack` to a push, so a device that applied an
 * erase may write the id again ([S36]), which a server of protocol 4 would refuse as a field it
 * does not know; protocol 6 adds the records of agent brains (storage kinds `agent`, `brain` and
 * `observation`, ids `a_`, `b_`, `o_`, docs/AGENTS.md [G12]), which a replica of protocol 5 would
 * refuse as malformed ops of a known kind.
 */
export const PROTOCOL_VERSION = 6;
export const PROTOCOL_HEADER = 'x-brain-protocol';
/** How far ahead of the server's clock an operation's hlc may be ([S28]); replicas never adopt more. */
export const CLOCK_SKEW_MAX_MS = 5 * 60 * 1000;
export const PUSH_MAX_OPS = 500;
export const PUSH_MAX_BYTES = 8 * 1024 * 1024;
export const PULL_MAX_OPS = 1000;
export const BLOB_MAX_BYTES = 100 * 1024 * 1024;
/** A run's work products travel with its proposals, capped like the write-back pass caps them. */
export const RUN_WORK_MAX_CHARS = 8000;

/** Hybrid logical clock: `<ms since epoch, 13 digits>-<counter, 6 digits>-<node id>`; compares as a string. */
export const HlcSchema = z.string().regex(/^\d{13}-\d{6}-[A-Za-z0-9_-]{1,40}$/);

const scope = z.string().regex(/^(org|team:[A-Za-z0-9._@-]{1,64}|user:[A-Za-z0-9._@-]{1,64})$/);
const itemId = z.string().regex(/^[fsnetabo]_[0-9a-f]{20}$/);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * An item as it travels: the synced columns of `items`, plus its vector when it has one. A
 * connected repository's tree record travels the same way (storage kind `tree`, its label the
 * repository's name, its body the record as JSON, docs/TREES.md [T13]); replicas keep it apart
 * from their items. So do the records of agent brains (docs/AGENTS.md [G12],
 * src/shared/sync/agent-records.ts): an agent, a brain version (its agent's id in `file_id`) and an
 * observation (its agent's id in `file_id`, none for a person's), each with its record as JSON in
 * `body`.
 */
const SyncItemSchema = z
  .object({
    id: itemId,
    storage_kind: z.enum(['file', 'section', 'note', 'entity', 'tree', 'agent', 'brain', 'observation']),
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

const SyncEdgeSchema = z
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

/** Proposals are named by the uuid the write-back pass gave them on the replica where the run ended. */
const ProposalIdSchema = z.string().uuid();

/**
 * A proposal the gate sent to review, as it travels: the synced columns of `proposals` as they
 * were when it was made (always pending), and the run it came from, so a replica that does not
 * hold the run still shows the same card (who ran what, and an excerpt of the work products).
 * Skipped proposals and those written straight in are local logs and never travel.
 */
const SyncProposalSchema = z
  .object({
    id: ProposalIdSchema,
    run_id: z.string().min(1).max(500),
    ordinal: z.number().int().nonnegative(),
    user_id: z.string().max(200).nullable(),
    kind: z.string().max(100),
    label: z.string().max(2000),
    body: z.string().max(200_000),
    scope,
    confidence: z.number(),
    sensitive: z.union([z.literal(0), z.literal(1)]),
    sensitive_reason: z.string().max(2000).nullable(),
    /** What the sensitive-data detector found, as the JSON text the replica stores. */
    detected: z.string().max(20_000),
    decision: z.literal('review'),
    reason: z.string().max(2000),
    created_at: z.string().max(40),
    run: z
      .object({
        agent: z.string().max(200),
        status: z.string().max(40),
        user: z.string().max(200),
        ended_at: z.string().max(40),
        work_products: z.string().max(RUN_WORK_MAX_CHARS),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type SyncProposal = z.infer<typeof SyncProposalSchema>;
export type SyncProposalRun = NonNullable<SyncProposal['run']>;

const base = { id: z.string().uuid(), hlc: HlcSchema };

/**
 * One operation. `scope` is the scope it writes in: an item's scope; for an edge, the narrowest
 * scope of its two ends (the client computes it, the server checks it against its own copy of
 * the ends); for a proposal, its scope. Upserts carry the whole new state (last writer wins per
 * item by hlc). A proposal is created once (`proposal.upsert`) and decided once
 * (`proposal.decide`): the server accepts the first decision and refuses any later one ([S21]).
 * A decision carries what the deciding replica did: the final label and body (an edited approval
 * keeps the edit), the note it wrote (`itemId`, null for a rejection) and the reason of a rejection.
 * An erase (`item.erase`, [S35]) names the file or note it erases (`itemId`) in the scope it is in;
 * it carries nothing of the item: the server and every replica delete the item and everything
 * derived from it, and the server keeps a tombstone of its id ([S36]).
 */
export const OpSchema = z.discriminatedUnion('kind', [
  z.object({ ...base, kind: z.literal('item.upsert'), scope, item: SyncItemSchema }).strict(),
  z.object({ ...base, kind: z.literal('edge.upsert'), scope, edge: SyncEdgeSchema }).strict(),
  z.object({ ...base, kind: z.literal('proposal.upsert'), scope, proposal: SyncProposalSchema }).strict(),
  z
    .object({
      ...base,
      kind: z.literal('proposal.decide'),
      scope,
      proposalId: ProposalIdSchema,
      decision: z.enum(['approved', 'rejected']),
      reason: z.string().max(2000).nullable(),
      label: z.string().max(2000),
      body: z.string().max(200_000),
      edited: z.boolean(),
      itemId: itemId.nullable(),
      decidedAt: z.string().max(40),
    })
    .strict(),
  z.object({ ...base, kind: z.literal('item.erase'), scope, itemId }).strict(),
]);
export type Op = z.infer<typeof OpSchema>;

/**
 * `ack`: the id of the last pull page the replica committed (as on a pull, [S19]), so the server
 * knows which erases it has applied before it decides the batch ([S36]).
 */
export const PushRequestSchema = z
  .object({ ops: z.array(OpSchema).max(PUSH_MAX_OPS), ack: z.string().min(1).max(64).nullable().optional() })
  .strict();
export type PushRequest = z.infer<typeof PushRequestSchema>;
/**
 * `newer` on a refusal: the op moved an item to another scope but a newer change of the item is
 * on the server (with this hlc); the replica re-sends its move stamped after it ([S24]).
 */
export type PushResponse = {
  accepted: { id: string; seq: number }[];
  refused: { id: string; reason: string; newer?: string }[];
};

/**
 * Pull: operations after `after` (a server sequence number), only those the user may see, in
 * order. `evict` lists items the user can no longer see (their scope narrowed, the user left a
 * team, …): the replica deletes them. `cursor` is what to send as `after` next time.
 * `evict` may also hold edge ids (`g_…`); a replica deletes the edges of evicted items too. It
 * may also hold proposal ids (uuids): the proposal left the user's scopes ([S22]).
 * A page may start with ops whose `seq` is <= `after`: the current state of items the device
 * did not receive before but may see now (it joined a team); apply them like any op (by hlc).
 * `page` names this answer: once the replica has committed the page, it sends that id as
 * `ack=<page>` on its next pull. A page that is not acknowledged (the replica crashed before
 * committing it, or an old client sends no `ack`) is undone on the server and its evictions and
 * backfill are sent again ([S19]).
 */
export type PulledOp = { seq: number; actor: string; op: Op };

/** Every operation kind this version knows; a pulled op of another kind is from a newer peer ([S30]). */
export const OP_KINDS: readonly string[] = OpSchema.options.map((o) => o.shape.kind.value);

/**
 * A pull page as it arrives, before its ops are read: the page is refused whole when it does not
 * match ([S30]); each op is then an `Op` of a known kind (or the page is refused) or of an unknown
 * kind (set aside, counted).
 */
export const PullResponseSchema = z
  .object({
    ops: z
      .array(
        z
          .object({
            seq: z.number().int().nonnegative(),
            actor: z.string().min(1).max(200),
            op: z.object({ kind: z.string().min(1).max(100) }).passthrough(),
          })
          .strict(),
      )
      .max(PULL_MAX_OPS * 2),
    evict: z.array(z.union([itemId, z.string().regex(/^g_[0-9a-f]{20}$/), z.string().uuid()])).max(1_000_000),
    cursor: z.number().int().nonnegative(),
    more: z.boolean(),
    page: z.string().min(1).max(100),
  })
  .strict();

/** What an id in `evict` names: an edge (`g_…`), a proposal (a uuid) or else an item. */
export function evictedKind(id: string): 'item' | 'edge' | 'proposal' {
  if (id.startsWith('g_')) return 'edge';
  return ProposalIdSchema.safeParse(id).success ? 'proposal' : 'item';
}
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

/**
 * Every error answer: `{ error: { code, message } }` with an HTTP status from the code. A 401 says
 * why in `reason` ([S1]): a replica told `revoked` removes what it received ([S32]).
 */
export type ErrorBody = {
  error: { code: string; message: string; reason?: 'missing' | 'unknown' | 'revoked' };
};

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
