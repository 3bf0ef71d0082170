/**
 * `brain model download [--multilingual | --english]` and `brain model use english|multilingual`:
 * the contract's model.download and model.use (src/shared/api/ops/workspace.ts). The command line
 * waits for a download, with a progress bar on a terminal; what the other model embedded is
 * embedded again by the next `brain index` (or in the background of the app and `brain serve`).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext, type Notify } from '#engine/commands/types.ts';
import { ModelDownload, ModelUse } from '#shared/api/ops/workspace.ts';
import { EMBEDDING_MODEL_CHOICES, EMBEDDING_MODELS, type EmbeddingModelChoice } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

function choiceFrom(opts: { multilingual?: boolean; english?: boolean }): EmbeddingModelChoice | undefined {
  if (opts.multilingual && opts.english) {
    throw new AppError('validation-failed', 'Choose one of --multilingual and --english.');
  }
  if (opts.multilingual) return 'multilingual';
  if (opts.english) return 'english';
  return undefined;
}

export function registerModel(program: Command): void {
  const model = program.command('model').description('The embedding model behind semantic search');
  model
    .command('download')
    .description(ModelDownload.summary)
    .option('--multilingual', `the multilingual model (${EMBEDDING_MODELS.multilingual.id}), then use it`)
    .option('--english', `the English model (${EMBEDDING_MODELS.english.id}), then use it`)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean; multilingual?: boolean; english?: boolean }) =>
      withEngine(program, async (engine) => {
        const choice = choiceFrom(opts);
        const bar = progressBar('downloading model');
        const notify: Notify = (event, payload) => {
          if (event !== 'model.progress') return;
          const p = payload as { fraction: number; file: string };
          bar.update(Math.round(p.fraction * 100), 100, p.file || 'done');
        };
        const input = choice ? { model: choice } : {};
        const out = await run(memberContext(engine, 'cli', { notify }), ModelDownload, input).finally(() =>
          bar.stop(),
        );
        if (opts.json) return printJson(out);
        print(`model ready in ${out.dir}; semantic search is ${out.model?.status ?? 'off'}.`);
        print('Run `brain index` to embed what was indexed while it was off or with the other model.');
      }),
    );
  model
    .command('use')
    .description(ModelUse.summary)
    .argument('<model>', EMBEDDING_MODEL_CHOICES.join(' or '))
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ModelUse, { model: name });
        if (opts.json) return printJson(out);
        print(`semantic search now uses ${out.modelId}.`);
        if (out.toEmbed > 0)
          print(
            `${plural(out.toEmbed, 'item has', 'items have')} no vector of it yet: run \`brain index\` to embed them.`,
          );
      }),
    );
}
