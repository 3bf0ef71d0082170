/**
 * `brain index [id...]`: the contract's files.index (src/shared/api/ops/files.ts). The command
 * line is a one-shot process, so the files are indexed (and audited) before it answers, with a
 * progress bar on a terminal; with a chat model, the files it indexed are then compiled (a line each).
 * `--ocr <id...>` reads the named files by OCR from now on, text layers ignored, and `--text-layer
 * <id...>` goes back (files.index's `ocr`, docs/OCR.md [O9]).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext, type Notify } from '#engine/commands/types.ts';
import type { IndexProgressEvent } from '#shared/api/events.ts';
import { FilesIndex } from '#shared/api/ops/files.ts';
import { AppError } from '#shared/errors.ts';
import { needsPassword } from '#shared/password.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { type Progress, print, printJson, progressBar } from '../output.ts';
import { compileIndexed } from './compile.ts';

/** Draws the `index.progress` events of a command on a progress bar. */
export function indexProgress(bar: Progress): Notify {
  return (event, payload) => {
    if (event !== 'index.progress') return;
    const p = payload as IndexProgressEvent;
    // A long PDF says which page it is on (docs/OCR.md [O4]).
    bar.update(p.done, p.total, p.pages ? `${p.label}, page ${p.page} of ${p.pages}` : p.label);
  };
}

type IndexOptions = { json?: boolean; ocr?: boolean; textLayer?: boolean };

/** files.index's `ocr` from `--ocr` / `--text-layer` ([O9]): either needs the files named. */
function readingOf(ids: readonly string[], opts: IndexOptions): { ocr?: boolean } {
  if (opts.ocr && opts.textLayer)
    throw new AppError('validation-failed', 'Choose one of --ocr and --text-layer.');
  const flag = opts.ocr ? '--ocr' : opts.textLayer ? '--text-layer' : null;
  if (!flag) return {};
  if (ids.length === 0)
    throw new AppError(
      'validation-failed',
      `${flag} needs the ids of the files to read: brain index ${flag} <id...>.`,
    );
  return { ocr: flag === '--ocr' };
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description(FilesIndex.summary)
    .argument('[id...]', 'file ids (default: every file not indexed yet)')
    .option(
      '--ocr',
      'read the named files by OCR from now on, text layers ignored: for scans whose text comes out garbled (PDFs)',
    )
    .option('--text-layer', 'read the named files by their text layer again (undoes --ocr)')
    .option(
      '--json',
      'print JSON: {queued, indexed, failed, embedded, mentions, reading (with --ocr/--text-layer), compiled (with a chat model)}',
    )
    .action((ids: string[], opts: IndexOptions) =>
      withEngine(program, async (engine) => {
        const reading = readingOf(ids, opts);
        const bar = progressBar('indexing');
        const out = await run(
          memberContext(engine, 'cli', { notify: indexProgress(bar) }),
          FilesIndex,
          ids.length ? { ids, ...reading } : {},
        );
        bar.stop();
        const report = { indexed: [], failed: [], embedded: 0, mentions: 0, ...out };
        const indexed = report.indexed.map((f) => f.id);
        if (opts.json) {
          // With a chat model, the files indexed are compiled too (docs/FACTS.md [K9]).
          const compiled = await compileIndexed(engine, indexed, true);
          return printJson(compiled ? { ...out, compiled: compiled.results } : out);
        }
        for (const f of report.reading ?? [])
          print(`${f.ocr ? 'read by OCR from now on' : 'read by its text layer again'}: ${f.id}  ${f.label}`);
        for (const f of report.indexed)
          print(`indexed  ${f.id}  ${f.label} (${plural(f.sections, 'section')})`);
        for (const f of report.failed) print(`failed   ${f.id}  ${f.label}: ${f.reason}`);
        const locked = report.failed.filter((f) => needsPassword(f.reason));
        // docs/FORMATS.md [F11]: the way on for files that need their password.
        if (locked.length)
          print(
            `${locked.length} ${locked.length === 1 ? 'needs' : 'need'} a password: brain unlock <id> --password-file PATH.`,
          );
        const embedded = report.embedded
          ? `, ${plural(report.embedded, 'item')} embedded for semantic search`
          : '';
        print(`${report.indexed.length} indexed, ${report.failed.length} failed${embedded}.`);
        if (report.indexed.length) print(`audit: ${report.mentions} mentions of known entities linked.`);
        await compileIndexed(engine, indexed, false);
      }),
    );
}
