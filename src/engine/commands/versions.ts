/** A source's versions (src/shared/api/ops/versions.ts; docs/FACTS.md [K16]). */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { ItemsVersions } from '#shared/api/ops/versions.ts';
import { sourceVersions } from '../knowledge/versions.ts';
import type { CommandContext } from './types.ts';

async function itemsVersions(
  ctx: CommandContext,
  input: ParsedInputOf<typeof ItemsVersions>,
): Promise<OutputOf<typeof ItemsVersions>> {
  const { engine } = ctx;
  return { id: input.id, versions: sourceVersions(engine.db, engine.scopes(), input.id) };
}

export const versionHandlers = { 'items.versions': itemsVersions };
