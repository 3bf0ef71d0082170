/**
 * items.planMove, items.move, items.remove, items.erase and items.original
 * (src/shared/api/ops/items.ts), as every surface runs them: the rules and the writes are the
 * engine's (src/engine/add/move.ts, src/engine/knowledge/remove.ts, src/engine/knowledge/erase.ts,
 * src/engine/read/original.ts), recorded in Activity (items.original only reads).
 */
import type { ParsedInputOf } from '#shared/api/operation.ts';
import type {
  ItemsErase,
  ItemsMove,
  ItemsOriginal,
  ItemsPlanMove,
  ItemsRemove,
} from '#shared/api/ops/items.ts';
import { AppError } from '#shared/errors.ts';
import { eraseSource } from '../knowledge/erase.ts';
import { removeSource } from '../knowledge/remove.ts';
import { getRow } from '../read/items.ts';
import { readOriginal } from '../read/original.ts';
import { canSee } from '../scope.ts';
import { logEvent } from '../telemetry.ts';
import type { CommandContext } from './types.ts';

/**
 * A connected repository's document has the tree's scope ([T3] in docs/TREES.md): moving it alone
 * would hide it from search while its tree still serves it, and the next build would not move it
 * back. Like removing it ([K8] in docs/FACTS.md), it is refused; an item the caller cannot see is
 * left to the move's own not-found.
 */
function assertMovable(ctx: CommandContext, id: string): void {
  const { engine } = ctx;
  const row = getRow(engine.db, id);
  if (
    row &&
    row.storage_kind === 'file' &&
    canSee(engine.scopes(), row.scope) &&
    row.source_key.startsWith('tree:')
  )
    throw new AppError(
      'validation-failed',
      `${row.label} comes from a connected repository and keeps its scope: to change it, disconnect the repository and connect it again with --scope.`,
    );
}

async function itemsPlanMove(ctx: CommandContext, input: ParsedInputOf<typeof ItemsPlanMove>) {
  assertMovable(ctx, input.id);
  return ctx.engine.planMove(input.id, input.scope);
}

async function itemsMove(ctx: CommandContext, input: ParsedInputOf<typeof ItemsMove>) {
  assertMovable(ctx, input.id);
  return ctx.engine.move(input.id, input.scope);
}

async function itemsRemove(ctx: CommandContext, input: ParsedInputOf<typeof ItemsRemove>) {
  const { engine } = ctx;
  const result = removeSource(engine.db, engine.user, engine.scopes(), input.id);
  if (result.removed)
    logEvent(engine.db, ctx.surface, engine.user, 'item.remove', {
      id: result.id,
      retiredFacts: result.retiredFacts,
      emptied: result.emptied.map((e) => e.id),
    });
  return result;
}

/**
 * [K14] The erase is recorded with ids and counts only: the Activity entries that named the source
 * went with it, and this one must not bring its label back.
 */
async function itemsErase(ctx: CommandContext, input: ParsedInputOf<typeof ItemsErase>) {
  const { engine } = ctx;
  const result = eraseSource(
    { db: engine.db, blobs: engine.blobs, home: engine.home, user: engine.user, scopes: engine.scopes() },
    input.id,
  );
  logEvent(engine.db, ctx.surface, engine.user, 'item.erase', {
    id: result.id,
    versions: result.versions,
    sections: result.sections,
    links: result.links,
    blobs: result.blobs,
    retiredFacts: result.retiredFacts,
    emptied: result.emptied.map((e) => e.id),
    sent: result.sent,
  });
  return result;
}

/** The bytes of a PDF the caller can see, for the dossier's page view ([F15] in docs/FORMATS.md). */
async function itemsOriginal(ctx: CommandContext, input: ParsedInputOf<typeof ItemsOriginal>) {
  const { engine } = ctx;
  return readOriginal(engine.db, engine.blobs, input.id, engine.scopes());
}

export const itemHandlers = {
  'items.planMove': itemsPlanMove,
  'items.move': itemsMove,
  'items.remove': itemsRemove,
  'items.erase': itemsErase,
  'items.original': itemsOriginal,
};
