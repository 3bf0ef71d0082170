import type { Command } from 'commander';
import { downloadModel } from '#engine/embed/index.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

export function registerModel(program: Command): void {
  const model = program.command('model').description('The embedding model behind semantic search');
  model
    .command('download')
    .description('Download the embedding model once into the workspace (needs the network)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('downloading model');
        const dir = await downloadModel({
          home: engine.home,
          onProgress: (fraction, file) => bar.update(Math.round(fraction * 100), 100, file || 'done'),
        });
        bar.stop();
        const state = engine.embedder.state();
        if (opts.json) return printJson({ dir, model: state });
        print(`model ready in ${dir}; semantic search is ${state.status}.`);
        print('Run `brain index` to embed what was indexed while it was off.');
      }),
    );
}
