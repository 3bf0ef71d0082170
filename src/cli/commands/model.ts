/**
 * `brain model download`: the contract's model.download (src/shared/api/ops/workspace.ts). The
 * command line waits for it, with a progress bar on a terminal.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext, type Notify } from '#engine/commands/types.ts';
import { ModelDownload } from '#shared/api/ops/workspace.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

export function registerModel(program: Command): void {
  const model = program.command('model').description('The embedding model behind semantic search');
  model
    .command('download')
    .description(ModelDownload.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('downloading model');
        const notify: Notify = (event, payload) => {
          if (event !== 'model.progress') return;
          const p = payload as { fraction: number; file: string };
          bar.update(Math.round(p.fraction * 100), 100, p.file || 'done');
        };
        const out = await run(memberContext(engine, 'cli', { notify }), ModelDownload, {});
        bar.stop();
        if (opts.json) return printJson(out);
        print(`model ready in ${out.dir}; semantic search is ${out.model?.status ?? 'off'}.`);
        print('Run `brain index` to embed what was indexed while it was off.');
      }),
    );
}
