/**
 * Stable ids: derived from workspace + source key, so replaying a write anywhere gives the same id.
 *
 * Ids that belong to a group (a file's sections, an item's edges of one type) start with a hash of
 * the group and end with a hash of their own key. Rows written together then sit side by side in
 * the id indexes: indexing a file touches a few index pages instead of one random page per
 * section, which is most of what a write transaction costs (measured in bench/indexing.ts). The
 * id keeps its 20 hex digits (a 32-bit group prefix and 48 bits of its own key).
 */
import { createHash } from 'node:crypto';
import type { StorageKind } from '../shared/types.ts';

const PREFIX: Record<StorageKind, string> = { file: 'f', section: 's', note: 'n', entity: 'e' };

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Any item but a section. */
export function itemId(
  workspaceId: string,
  storageKind: Exclude<StorageKind, 'section'>,
  sourceKey: string,
): string {
  return `${PREFIX[storageKind]}_${hex(`${workspaceId}\0${sourceKey}`).slice(0, 20)}`;
}

/** A section, grouped under its file (by the file's source key). */
export function sectionId(workspaceId: string, fileSourceKey: string, sectionKey: string): string {
  const group = hex(`${workspaceId}\0${fileSourceKey}`).slice(0, 8);
  return `s_${group}${hex(`${workspaceId}\0${sectionKey}`).slice(0, 12)}`;
}

/** An edge, grouped under its source item and type; `discriminator` tells parallel edges apart. */
export function edgeId(from: string, type: string, to: string, discriminator = ''): string {
  const key = discriminator ? `${from}\0${type}\0${to}\0${discriminator}` : `${from}\0${type}\0${to}`;
  return `g_${hex(`${from}\0${type}`).slice(0, 8)}${hex(key).slice(0, 12)}`;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
