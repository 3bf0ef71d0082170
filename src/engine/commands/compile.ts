/**
 * knowledge.compile (src/shared/api/ops/compile.ts), as every surface runs it: the compile pass of
 * each source (src/engine/compile, docs/FACTS.md [K9]–[K11]), one at a time, a `compile.progress`
 * event after each. Named sources are all checked before the first model call, so a bad id
 * changes nothing. Without a chat model it refuses and says how to set one.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { KnowledgeCompile } from '#shared/api/ops/compile.ts';
import { AppError } from '#shared/errors.ts';
import {
  type CompileOutcome,
  compileRefusal,
  compileSource,
  isTreeDocument,
  pendingSources,
} from '../compile/index.ts';
import { resolveModel } from '../llm/config.ts';
import { visibleRow } from '../read/read.ts';
import type { CommandContext } from './types.ts';

const NO_MODEL_MESSAGE =
  'Compiling needs a chat model: set one with `brain config set model.baseUrl <url>` and `brain config set model.name <name>` (or in Settings), then try again.';

/** The named sources this member compiles; `auto` leaves out those it would not compile on its own. */
function namedSources(ctx: CommandContext, ids: readonly string[], auto: boolean): string[] {
  const { engine } = ctx;
  const scopes = engine.scopes();
  const out: string[] = [];
  for (const id of new Set(ids)) {
    const row = visibleRow(engine.db, id, scopes);
    const refusal = compileRefusal(row, engine.user);
    if (auto && (refusal || isTreeDocument(row))) continue;
    if (refusal) throw refusal;
    out.push(row.id);
  }
  return out;
}

async function knowledgeCompile(
  ctx: CommandContext,
  input: ParsedInputOf<typeof KnowledgeCompile>,
): Promise<OutputOf<typeof KnowledgeCompile>> {
  const { engine } = ctx;
  const access = await resolveModel(engine.db, engine.home);
  if (!access) throw new AppError('unsupported', NO_MODEL_MESSAGE);
  const ids = input.ids
    ? namedSources(ctx, input.ids, input.auto === true)
    : pendingSources(engine.db, engine.user);
  const results: CompileOutcome[] = [];
  for (const id of ids) {
    if (ctx.signal?.aborted) break;
    const outcome = await compileSource(engine, access, id, { force: input.force, signal: ctx.signal });
    if (!outcome) continue;
    results.push(outcome);
    ctx.notify?.('compile.progress', { ...outcome, done: results.length, total: ids.length });
  }
  return { model: access.model, results };
}

export const compileHandlers = {
  'knowledge.compile': knowledgeCompile,
};
