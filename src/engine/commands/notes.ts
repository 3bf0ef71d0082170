/**
 * notes.add (src/shared/api/ops/notes.ts): a note in the writer's own namespace ([S25] in
 * docs/SYNC_SPEC.md), at a scope they can write. The same source key updates their note in place;
 * a note of theirs that is now out of their sight (a team they left) is never overwritten or
 * revealed. Every surface gets these rules here, not in its adapter.
 */
import { randomUUID } from 'node:crypto';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { NotesAdd } from '#shared/api/ops/notes.ts';
import { AppError } from '#shared/errors.ts';
import { vectorFor } from '../embed/vector-for.ts';
import { ownedItemId } from '../ids.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { getRow } from '../read/items.ts';
import { assertCanWrite, canSee, parseScope } from '../scope.ts';
import type { CommandContext } from './types.ts';

export async function notesAdd(
  ctx: CommandContext,
  input: ParsedInputOf<typeof NotesAdd>,
): Promise<OutputOf<typeof NotesAdd>> {
  const { engine } = ctx;
  const scope = parseScope(input.scope);
  assertCanWrite(engine.db, engine.user, scope);
  const sourceKey = input.source_key ?? `${ctx.origin.source}:${ctx.origin.run ?? 'note'}:${randomUUID()}`;
  const existing = getRow(engine.db, ownedItemId(engine.workspaceId, 'note', engine.user, sourceKey));
  if (existing && !canSee(engine.scopes(), existing.scope)) {
    throw new AppError('conflict', `source_key "${sourceKey}" is taken; choose another key.`);
  }
  const vector = await vectorFor(engine, `${input.label}\n${input.body}`);
  const row = upsertNote(
    engine.db,
    engine.workspaceId,
    { kind: input.kind, label: input.label, body: input.body, scope, sourceKey, ...ctx.origin },
    vector,
  );
  // upsertNote returns the stored row untouched when nothing differs: same version, same update time.
  const changed = !existing || row.version !== existing.version || row.updated_at !== existing.updated_at;
  return {
    id: row.id,
    created: !existing,
    changed,
    version: row.version,
    scope: row.scope,
    source_key: row.source_key,
    semantic: vector !== null,
  };
}
