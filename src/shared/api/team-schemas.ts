/**
 * Zod schemas of what the team operations answer (src/shared/api/ops/team.ts): the connection to
 * the workspace server, a sync round's report, members and teams, invitations, the chat model.
 * Every surface's answer is parsed with them, so a field not declared here (the model key) never
 * leaves the engine. The hand-written types of the app stay assignable to them (checks below).
 */
import { z } from 'zod';
import type { InviteResponse, MembersResponse } from '../sync/protocol.ts';
import type { SyncConnectView, SyncStatusView } from './types.ts';
import type { ChatModelView, ConnectionTestView } from './writeback-types.ts';

/** The connection as the status bar, the settings screen and `brain status` show it. */
export const SyncStatusSchema = z.object({
  connected: z.boolean(),
  server: z.string().nullable(),
  user: z.string().nullable(),
  isAdmin: z.boolean(),
  workspace: z.string().nullable(),
  state: z.enum(['online', 'offline']).nullable(),
  lastAttempt: z.string().nullable(),
  lastSync: z.string().nullable(),
  pending: z.number(),
  cursor: z.number(),
  lastError: z.string().nullable(),
  refused: z.number(),
  lastRefused: z.object({ kind: z.string(), ref: z.string(), reason: z.string(), at: z.string() }).nullable(),
  setAside: z.number(),
});

/**
 * One push/pull round (SyncReport in src/engine/sync/client.ts). `unsent` lists the local changes
 * of this round that will never reach anyone ([S29] in docs/SYNC_SPEC.md): never a quiet count.
 */
export const SyncReportSchema = z.object({
  pushed: z.number(),
  refused: z.number(),
  pulled: z.number(),
  applied: z.number(),
  evicted: z.number(),
  proposals: z.number(),
  pending: z.number(),
  cursor: z.number(),
  blobs: z.object({ uploaded: z.number(), fetched: z.number() }),
  unsent: z.array(z.object({ kind: z.string(), ref: z.string(), reason: z.string() })),
  setAside: z.number(),
});

/** `sync.now`: what the round did (the report `brain sync --json` prints) and the status after it. */
export const SyncNowSchema = SyncReportSchema.extend({ status: SyncStatusSchema });

/** `sync.connect`: who this replica now is, what joined the workspace, the first round (or its error). */
export const SyncConnectSchema = z.object({
  server: z.string(),
  user: z.string(),
  isAdmin: z.boolean(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  rekeyed: z.object({ items: z.number(), edges: z.number() }),
  sync: SyncReportSchema.nullable(),
  syncError: z.string().nullable(),
  status: SyncStatusSchema,
});

export const SyncLeaveSchema = z.object({ left: z.string().nullable(), unsent: z.number() });

export const MembersSchema = z.object({
  members: z.array(
    z.object({ user: z.string(), isAdmin: z.boolean(), teams: z.array(z.string()), devices: z.number() }),
  ),
  teams: z.array(z.object({ id: z.string(), members: z.array(z.string()) })),
});

export const InvitationSchema = z.object({
  code: z.string(),
  user: z.string().nullable(),
  expiresAt: z.string(),
});
export const LocalMemberSchema = z.object({ user: z.string(), teams: z.array(z.string()) });
export const TeamSchema = z.object({ team: z.string() });
export const TeamMemberSchema = z.object({ team: z.string(), user: z.string() });
export const RevokedSchema = z.object({ revoked: z.string() });

/** The chat model's settings: whether a key is set and where it is kept, never the key itself. */
export const ChatModelSchema = z.object({
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  hasKey: z.boolean(),
  keyStorage: z.enum(['file', 'safeStorage']),
  suggestedBaseUrl: z.string(),
  enabled: z.boolean(),
  reason: z.string().nullable(),
});

export const ConnectionTestSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  models: z.array(z.string()),
});

type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type TeamSchemaChecks = [
  Assignable<SyncStatusView, z.infer<typeof SyncStatusSchema>>,
  Assignable<MembersResponse, z.infer<typeof MembersSchema>>,
  Assignable<InviteResponse, z.infer<typeof InvitationSchema>>,
  Assignable<ChatModelView, z.infer<typeof ChatModelSchema>>,
  Assignable<ConnectionTestView, z.infer<typeof ConnectionTestSchema>>,
  // The connect answer grew (what re-keying joined, the first round's report): it still holds
  // everything the app's SyncConnectView promised.
  Assignable<z.infer<typeof SyncConnectSchema>, SyncConnectView>,
];
