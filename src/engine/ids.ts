/**
 * Stable ids, derived as src/shared/ids.ts says (the workspace server recomputes them, docs/SYNC_SPEC.md
 * [S25]): a file or note from its workspace, its creator and its source key; an entity face from
 * its scope and key; a section from its file's id and key; an edge from its ends and type. The
 * same write replayed on any of the creator's devices gives the same id; another member's write
 * of the same source key gives another item.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  agentKey,
  brainKey,
  deriveEdgeId,
  deriveItemId,
  deriveObservationId,
  type Sha256Hex,
} from '#shared/ids.ts';

const sha256Text: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');

/** A file, a note or a tree record, in its creator's namespace. */
export function ownedItemId(
  workspaceId: string,
  storageKind: 'file' | 'note' | 'tree',
  owner: string,
  sourceKey: string,
): string {
  return deriveItemId(sha256Text, workspaceId, storageKind, `user:${owner}`, sourceKey);
}

/** An entity face, in the scope it is a face of. */
export function entityItemId(workspaceId: string, scope: string, sourceKey: string): string {
  return deriveItemId(sha256Text, workspaceId, 'entity', scope, sourceKey);
}

/** A section, grouped under its file. */
export function sectionId(fileId: string, sectionKey: string): string {
  return deriveItemId(sha256Text, '', 'section', fileId, sectionKey);
}

/** An edge, grouped under its source item and type; `discriminator` tells parallel edges apart. */
export function edgeId(from: string, type: string, to: string, discriminator = ''): string {
  return deriveEdgeId(sha256Text, from, type, to, discriminator);
}

/** An observation, in its recorder's namespace; `unique` is a fresh random UUID unless given. */
export function observationId(workspaceId: string, user: string, unique: string = randomUUID()): string {
  return deriveObservationId(sha256Text, workspaceId, user, unique);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An agent, in its creator's namespace (docs/AGENTS.md [G12]): two members' agents of one name are two. */
export function agentId(workspaceId: string, creator: string, name: string): string {
  return deriveItemId(sha256Text, workspaceId, 'agent', `user:${creator}`, agentKey(name));
}

/** Version `number` of an agent's brain: every replica names it alike ([G12]). */
export function brainVersionId(workspaceId: string, agent: string, number: number): string {
  return deriveItemId(sha256Text, workspaceId, 'brain', agent, brainKey(number));
}
