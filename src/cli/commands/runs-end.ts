/**
 * `brain runs end`: hand in the end of a run (a script's or an agent's that has no MCP), the
 * contract's runs.end (src/shared/api/ops/graph.ts): on the command line the run is named with
 * --run. A subcommand of `brain runs` (src/cli/commands/runs.ts), which keeps listing and
 * `--process` as they are.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { GRAPH_LIMITS, RUN_STATUSES, RunsEnd } from '#shared/api/ops/graph.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type EndOptions = { status: string; run?: string; json?: boolean };

function whereWriteback(out: OutputOf<typeof RunsEnd>): string {
  switch (out.writebackBy) {
    case 'owner':
      return 'write-back: the running owner (brain serve or brain mcp --http) takes it';
    case 'host':
      return 'write-back: this app takes it within seconds';
    case 'this-process':
      return 'write-back: running in this process';
    case 'later':
      return 'write-back waits: the app, brain serve or `brain runs --process` takes it';
    default:
      return `write-back skipped (the run ${out.status})`;
  }
}

/** Adds `end` to `brain runs`; call after registerRuns. */
export function registerRunsEnd(program: Command): void {
  const runs = program.commands.find((c) => c.name() === 'runs');
  if (!runs) throw new Error('brain runs end: register `brain runs` first');
  runs
    .command('end')
    .description(`${RunsEnd.summary}: succeeded and blocked runs go to write-back`)
    .argument(
      '<work-products...>',
      `what was done, decided, learned (at most ${GRAPH_LIMITS.workProductsChars} characters)`,
    )
    .requiredOption('--status <status>', RUN_STATUSES.join(' | '))
    .option('--run <id>', 'the run that ended')
    .option('--json', 'print JSON')
    .action((words: string[], _opts: EndOptions, end: Command) =>
      withEngine(program, async (engine) => {
        // `brain runs` has a --json of its own, which takes `runs end … --json` first: both count.
        const opts = end.optsWithGlobals<EndOptions>();
        const out = await run(memberContext(engine, 'cli'), RunsEnd, {
          status: opts.status,
          work_products: words.join(' '),
          run_id: opts.run,
        });
        if (opts.json) return printJson(out);
        print(
          `${out.replaced ? 'replaced' : 'ended'} ${out.run} (${out.status}, ${out.chars} character${out.chars === 1 ? '' : 's'})`,
        );
        print(whereWriteback(out));
      }),
    );
}
