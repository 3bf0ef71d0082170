/**
 * `brain sample`: adds the sample workspace (a small handbook) and indexes it, the contract's
 * sample.load (src/shared/api/ops/files.ts), as the app's empty Files screen offers it.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { SampleLoad } from '#shared/api/ops/files.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';
import { indexProgress } from './index-cmd.ts';

export function registerSample(program: Command): void {
  program
    .command('sample')
    .description(SampleLoad.summary)
    .option('--json', 'print JSON: the drop report with what indexing did')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('indexing');
        const out = await run(memberContext(engine, 'cli', { notify: indexProgress(bar) }), SampleLoad, {});
        bar.stop();
        if (opts.json) return printJson(out);
        const indexed = out.index.indexed?.length ?? 0;
        if (out.added.length === 0) print(`The sample is here already (${out.unchanged.length} files).`);
        else print(`Added ${out.added.length} sample files; ${indexed} indexed.`);
        print('Try: brain search "taxis"  or  brain ask "Are taxis reimbursed?"');
      }),
    );
}
