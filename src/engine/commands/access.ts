/**
 * The access checks (src/shared/api/ops/access.ts, [R4] in docs/RETRIEVAL.md) as every surface
 * runs them. Each refuses anyone but the local admin first, before a file is parsed or a member
 * looked up; then the cases come from the input, a checks file's text, or the checks kept in
 * Settings, in that order.
 */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { AccessChecksGet, AccessChecksRun, AccessChecksSet } from '#shared/api/ops/access.ts';
import { AppError } from '#shared/errors.ts';
import { type CheckCase, parseChecksText } from '../access/checks-text.ts';
import { assertLocalAdmin, keepChecks, readKeptChecks } from '../access/local-admin.ts';
import { runAccessChecks } from '../access/run-checks.ts';
import type { CommandContext } from './types.ts';

type In<O> = ParsedInputOf<O>;
type Out<O> = Promise<OutputOf<O>>;

const KEPT_SOURCE = 'the access checks kept in Settings';

function casesOf(ctx: CommandContext, input: In<typeof AccessChecksRun>): CheckCase[] {
  if (input.cases) return input.cases;
  if (input.text !== undefined) return parseChecksText(input.text, input.source ?? 'the checks');
  const kept = readKeptChecks(ctx.engine).text;
  if (!kept.trim()) {
    throw new AppError(
      'validation-failed',
      'No access checks are kept in this workspace: write them in Settings → Access checks, or give a file (brain access-check FILE).',
    );
  }
  return parseChecksText(kept, KEPT_SOURCE);
}

async function accessChecksRun(
  ctx: CommandContext,
  input: In<typeof AccessChecksRun>,
): Out<typeof AccessChecksRun> {
  const admin = assertLocalAdmin(ctx.engine);
  const cases = casesOf(ctx, input);
  // What the admin's Activity entry names: the file, or the checks kept in Settings.
  const source = input.text !== undefined ? input.source : input.cases ? undefined : 'Settings';
  const report = await runAccessChecks(ctx.engine, cases, { admin, surface: ctx.surface, source });
  ctx.notify?.('activity.changed', { at: new Date().toISOString() });
  return report;
}

async function accessChecksGet(
  ctx: CommandContext,
  _: In<typeof AccessChecksGet>,
): Out<typeof AccessChecksGet> {
  assertLocalAdmin(ctx.engine);
  return readKeptChecks(ctx.engine);
}

async function accessChecksSet(
  ctx: CommandContext,
  input: In<typeof AccessChecksSet>,
): Out<typeof AccessChecksSet> {
  assertLocalAdmin(ctx.engine);
  // Checks that do not parse are refused, and the ones kept stay: bad input changes nothing. An
  // empty text clears them.
  if (input.text.trim()) parseChecksText(input.text, 'the access checks');
  return keepChecks(ctx.engine, input.text);
}

export const accessHandlers = {
  'accessChecks.run': accessChecksRun,
  'accessChecks.get': accessChecksGet,
  'accessChecks.set': accessChecksSet,
};
