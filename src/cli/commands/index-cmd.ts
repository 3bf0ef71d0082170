/**
 * `brain index [id...]`: the contract's files.index (src/shared/api/ops/files.ts). The command
 * line is a one-shot process, so the files are indexed (and audited) before it answers, with a
 * progress bar on a terminal.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext, type Notify } from '#engine/commands/types.ts';
import { FilesIndex } from '#shared/api/ops/files.ts';
import { withEngine } from '../context.ts';
import { type Progress, print, printJson, progressBar } from '../output.ts';

/** Draws the `index.progress` events of a command on a progress bar. */
export function indexProgress(bar: Progress): Notify {
  return (event, payload) => {
    if (event !== 'index.progress') return;
    const p = payload as { done: number; total: number; label: string };
    bar.update(p.done, p.total, p.label);
  };
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description(FilesIndex.summary)
    .argument('[id...]', 'file ids (default: every file not indexed yet)')
    .option('--json', 'print JSON: {queued, indexed, failed, embedded, mentions}')
    .action((ids: string[], opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('indexing');
        const out = await run(
          memberContext(engine, 'cli', { notify: indexProgress(bar) }),
          FilesIndex,
          ids.length ? { ids } : {},
        );
        bar.stop();
        if (opts.json) return printJson(out);
        const report = { indexed: [], failed: [], embedded: 0, mentions: 0, ...out };
        for (const f of report.indexed) print(`indexed  ${f.id}  ${f.label} (${f.sections} sections)`);
        for (const f of report.failed) print(`failed   ${f.id}  ${f.label}: ${f.reason}`);
        const embedded = report.embedded ? `, ${report.embedded} items embedded for semantic search` : '';
        print(`${report.indexed.length} indexed, ${report.failed.length} failed${embedded}.`);
        if (report.indexed.length) print(`audit: ${report.mentions} mentions of known entities linked.`);
      }),
    );
}
