/**
 * files.list, files.add, files.index, files.unlock and sample.load (src/shared/api/ops/files.ts), as every
 * surface runs them. Where indexing runs depends on the process (docs/ARCHITECTURE.md): a host
 * that stays up lends its background runner (`ctx.host`) and the answer comes at once; a one-shot
 * process indexes before it answers, with the audit pass of each file, reporting progress as
 * `index.progress` events.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { FilesAdd, FilesIndex, FilesList, FilesUnlock, SampleLoad } from '#shared/api/ops/files.ts';
import { AppError } from '#shared/errors.ts';
import { auditFile } from '../audit/index.ts';
import { setReadByOcr } from '../indexing/read-by-ocr.ts';
import { listFiles } from '../read/files-list.ts';
import type { ItemRow } from '../read/items.ts';
import { visibleRow } from '../read/read.ts';
import { findRepoRoot } from '../util/repo-root.ts';
import type { CommandContext } from './types.ts';

/** The sample workspace: beside app.asar when packaged, else resources/sample in the repository. */
function sampleDir(ctx: CommandContext): string {
  const dir =
    ctx.host?.sampleDir ??
    [(process as { resourcesPath?: string }).resourcesPath, join(findRepoRoot() ?? '.', 'resources')]
      .filter((d): d is string => Boolean(d))
      .map((d) => join(d, 'sample'))
      .find((d) => existsSync(d));
  if (!dir || !existsSync(dir))
    throw new AppError('not-found', 'The sample workspace is not in this install.');
  return realpathSync(dir);
}

async function filesList(ctx: CommandContext, input: ParsedInputOf<typeof FilesList>) {
  return listFiles(ctx.engine, input);
}

async function filesAdd(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FilesAdd>,
): Promise<OutputOf<typeof FilesAdd>> {
  return ctx.engine.add(input.paths, {
    scope: input.scope,
    externalId: input.external_id,
    onProgress: (p) => ctx.notify?.('add.progress', p),
  });
}

/** Indexes the files here and now (none named: every file not indexed), then audits each. */
async function indexHere(ctx: CommandContext, ids: readonly string[]): Promise<OutputOf<typeof FilesIndex>> {
  const report = await ctx.engine.index(ids, (p) =>
    ctx.notify?.('index.progress', {
      fileId: '',
      label: p.phase === 'embed' ? 'embedding' : p.label,
      phase: p.phase === 'embed' ? 'embedding' : 'indexing',
      done: p.done,
      total: p.total,
      ...(p.page !== undefined && p.pages !== undefined ? { page: p.page, pages: p.pages } : {}),
    }),
  );
  let mentions = 0;
  for (const f of report.indexed) mentions += (await auditFile(ctx.engine, f.id))?.mentions ?? 0;
  return { queued: report.indexed.length + report.failed.length, ...report, mentions };
}

/** Every id named must be a live file the member can see (a section or note is not indexed on its own). */
function assertFiles(ctx: CommandContext, ids: readonly string[]): ItemRow[] {
  const scopes = ctx.engine.scopes();
  return ids.map((id) => {
    const row = visibleRow(ctx.engine.db, id, scopes);
    if (row.storage_kind !== 'file' || row.retired_at !== null)
      throw new AppError('validation-failed', `${id} is not a file (${row.storage_kind}): index its file.`);
    return row;
  });
}

/**
 * Indexes files where this process does such work: queued for a host's background runner, or
 * here and now (with each file's audit) in a one-shot process. Also what sample.load and the
 * repository trees (src/engine/commands/trees.ts) use for the files they add.
 */
export async function indexFiles(
  ctx: CommandContext,
  ids: readonly string[],
): Promise<OutputOf<typeof FilesIndex>> {
  if (ctx.host) return { queued: ctx.host.queueIndex(ids) };
  return indexHere(ctx, ids);
}

async function filesIndex(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FilesIndex>,
): Promise<OutputOf<typeof FilesIndex>> {
  const ids = input.ids ?? [];
  const files = assertFiles(ctx, ids);
  if (input.ocr === undefined) return indexFiles(ctx, ids);
  // docs/OCR.md [O9]: how named files are read is set, kept, and they are indexed so at once.
  if (files.length === 0)
    throw new AppError('validation-failed', 'Name the files to read by OCR (or back by their text layer).');
  const reading = setReadByOcr(ctx.engine.db, files, input.ocr);
  return { ...(await indexFiles(ctx, ids)), reading };
}

/**
 * Always here and now, never queued: the password must not wait in the jobs table (docs/SECURITY.md
 * [U1]). The file is then audited as an indexed file is.
 */
async function filesUnlock(
  ctx: CommandContext,
  input: ParsedInputOf<typeof FilesUnlock>,
): Promise<OutputOf<typeof FilesUnlock>> {
  const outcome = await ctx.engine.unlock(input.id, input.password);
  const mentions = (await auditFile(ctx.engine, outcome.id))?.mentions ?? 0;
  return { ...outcome, mentions };
}

async function sampleLoad(
  ctx: CommandContext,
  _: ParsedInputOf<typeof SampleLoad>,
): Promise<OutputOf<typeof SampleLoad>> {
  const report = await ctx.engine.add([sampleDir(ctx)]);
  const ids = report.added.map((a) => a.id);
  // Nothing new (loaded before): nothing to index, and never "every file not indexed".
  if (ids.length === 0) return { ...report, index: { queued: 0 } };
  return { ...report, index: await indexFiles(ctx, ids) };
}

export const fileHandlers = {
  'files.list': filesList,
  'files.add': filesAdd,
  'files.index': filesIndex,
  'files.unlock': filesUnlock,
  'sample.load': sampleLoad,
};
