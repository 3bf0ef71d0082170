/**
 * The one sentence every surface (the CLI's `brain add`, the app's add report) shows for a file
 * that was added again asking for another scope: re-adding never moves a file, moving is its own
 * confirmed command (docs/SYNC_SPEC.md [S24]).
 */
import type { AddReport } from './api/types.ts';

export type ScopeKeptFile = NonNullable<AddReport['scopeKept']>[number];

/** `kept handbook.md in org (it was added before): to move it, run `brain move <id> --scope team:ops`` */
export function scopeKeptSentence(kept: ScopeKeptFile): string {
  return `kept ${kept.label} in ${kept.scope} (it was added before): to move it, run \`brain move ${kept.id} --scope ${kept.asked}\``;
}
