/** Stable ids: derived from workspace + source key, so replaying a write anywhere gives the same id. */
import { createHash } from 'node:crypto';
import type { StorageKind } from '../shared/types.ts';

const PREFIX: Record<StorageKind, string> = { file: 'f', section: 's', note: 'n', entity: 'e' };

export function itemId(workspaceId: string, storageKind: StorageKind, sourceKey: string): string {
  const hash = createHash('sha256').update(`${workspaceId}\0${sourceKey}`).digest('hex');
  return `${PREFIX[storageKind]}_${hash.slice(0, 20)}`;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
