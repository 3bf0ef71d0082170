/**
 * The server believes nothing a client says about scope, author, clock or blob (docs/SYNC_SPEC.md
 * [S24]–[S28]). Each check returns the reason of a refusal, or null. Every answer is the same
 * whether what the op names exists in a scope the actor cannot see or does not exist at all: ids
 * are checked against the actor's own namespace before anything is looked up by them ([S25]).
 */
import { createHash } from 'node:crypto';
import { deriveItemId, expectedEdgeId, idNamespace, originUser, type Sha256Hex } from '#shared/ids.ts';
import { CLOCK_SKEW_MAX_MS, type Op, type SyncItem } from '#shared/sync/protocol.ts';
import type { Actor } from '../auth.ts';
import type { EdgeState, ItemState } from './state.ts';

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

/** What the checks of one batch read, beyond the op itself. */
export type AuthorityContext = {
  actor: Actor;
  workspaceId: string;
  nowMs: number;
  visible: Set<string>;
  items: Map<string, ItemState>;
  /** Blobs the actor uploaded ([S27]). */
  uploaded: Set<string>;
  /** Blobs held by an item the actor can see on the server. */
  readable: Set<string>;
  /** The scopes a member sees (for "a move never hides an item from its author", [S24]). */
  scopesOf(user: string): Promise<Set<string>>;
};

/** [S28] An op whose clock is more than CLOCK_SKEW_MAX_MS ahead of the server's is refused. */
export function clockRefusal(op: Op, nowMs: number): string | null {
  const ms = Number(op.hlc.slice(0, 13));
  if (ms <= nowMs + CLOCK_SKEW_MAX_MS) return null;
  const ahead = Math.round((ms - nowMs) / 1000);
  return `clock ahead: this operation's clock is ${ahead} s ahead of the server's (at most ${CLOCK_SKEW_MAX_MS / 60_000} minutes): correct this device's clock`;
}

/**
 * [S25] The namespace an item's id must be made in. For an item the actor can see, the one it was
 * made in (null for ids from before namespaces); otherwise the actor's own (files, notes), the
 * op's scope (entities) or the section's file.
 */
export function namespaceFor(ctx: AuthorityContext, item: SyncItem, current: ItemState | undefined) {
  if (current && ctx.visible.has(current.scope)) return current.namespace;
  return idNamespace(item.storage_kind, { creator: ctx.actor.user, scope: item.scope, fileId: item.file_id });
}

export function idRefusal(ctx: AuthorityContext, item: SyncItem, namespace: string | null): string | null {
  if (namespace === null) return null;
  const expected = deriveItemId(sha, ctx.workspaceId, item.storage_kind, namespace, item.source_key);
  if (expected === item.id) return null;
  return `item id ${item.id} is not the id of its source key in ${
    item.storage_kind === 'section'
      ? 'its file'
      : item.storage_kind === 'entity'
        ? 'its scope'
        : 'your namespace'
  }`;
}

/** [S25] Kind and file never change; a section belongs to a file the actor can see, in its scope. */
export function shapeRefusal(ctx: AuthorityContext, item: SyncItem, current: ItemState | undefined) {
  if (current?.storageKind && current.storageKind !== item.storage_kind)
    return `item ${item.id} is a ${current.storageKind}, not a ${item.storage_kind}`;
  if (current?.fileId && current.fileId !== item.file_id)
    return `section ${item.id} belongs to ${current.fileId}, not ${item.file_id}`;
  if (item.storage_kind !== 'section') return null;
  const file = item.file_id ? ctx.items.get(item.file_id) : undefined;
  if (!item.file_id || !file || !ctx.visible.has(file.scope) || (file.storageKind ?? 'file') !== 'file')
    return `file ${item.file_id ?? '(none)'} not found`;
  if (file.scope !== item.scope)
    return `a section follows its file: ${item.file_id} is in ${file.scope}, not ${item.scope}`;
  return null;
}

/**
 * [S24] Moving an item to another scope: only its creator or an admin, and never out of its
 * creator's sight. Sections move with their file (shapeRefusal keeps them in its scope).
 */
export async function moveRefusal(ctx: AuthorityContext, item: SyncItem, current: ItemState | undefined) {
  if (!current || current.scope === item.scope || item.storage_kind === 'section') return null;
  const author = current.createdBy;
  if (!ctx.actor.isAdmin && ctx.actor.user !== author)
    return `only ${author ?? 'its author'} or an admin can move ${item.id} out of ${current.scope}`;
  if (author && !(await ctx.scopesOf(author)).has(item.scope))
    return `moving ${item.id} to ${item.scope} would hide it from its author ${author}`;
  return null;
}

/**
 * [S26] The member an origin names is the token's, unless the origin is the one the item already
 * has (an edit of someone else's item keeps its author) or, for a section, its file's.
 */
export function originRefusal(
  ctx: AuthorityContext,
  originActor: string,
  kept: readonly (string | null | undefined)[],
): string | null {
  const named = originUser(originActor);
  if (named === ctx.actor.user) return null;
  if (kept.some((k) => k !== null && k !== undefined && k === originActor)) return null;
  if (named === null) return `origin ${JSON.stringify(originActor)} names no member`;
  return `origin names ${named}, but this device is ${ctx.actor.user}'s`;
}

/** [S27] A new blob reference: bytes the actor uploaded, or already readable to them. */
export function blobRefusal(ctx: AuthorityContext, item: SyncItem, current: ItemState | undefined) {
  if (!item.blob || current?.blob === item.blob) return null;
  if (ctx.uploaded.has(item.blob) || ctx.readable.has(item.blob)) return null;
  for (const s of ctx.items.values()) if (s.blob === item.blob && ctx.visible.has(s.scope)) return null;
  return `blob ${item.blob} not found`;
}

/** [S25] An edge's id is made from its ends, its type and (mentions) where the mention is. */
export function edgeIdRefusal(edge: Extract<Op, { kind: 'edge.upsert' }>['edge']): string | null {
  return expectedEdgeId(sha, edge) === edge.id
    ? null
    : `edge id ${edge.id} is not the id of its ends, type and props`;
}

/**
 * [S26] for edges: the token's member, the edge's current origin, or for the edges indexing makes
 * (HAS_SECTION from a file to its section, SUPERSEDES between sections of one file) that file's.
 */
export function edgeOriginRefusal(
  ctx: AuthorityContext,
  edge: Extract<Op, { kind: 'edge.upsert' }>['edge'],
  current: EdgeState | undefined,
): string | null {
  const from = ctx.items.get(edge.from_id);
  const to = ctx.items.get(edge.to_id);
  let fileOrigin: string | null = null;
  if (edge.type === 'HAS_SECTION' && to?.fileId === edge.from_id) fileOrigin = from?.originActor ?? null;
  if (edge.type === 'SUPERSEDES' && from?.fileId && from.fileId === to?.fileId)
    fileOrigin = ctx.items.get(from.fileId)?.originActor ?? null;
  return originRefusal(ctx, edge.origin_actor, [current?.originActor, fileOrigin]);
}
