/**
 * `brain link`: a custom edge between two items you can see (SAME_AS is soft: nothing merges), the
 * contract's links.add (src/shared/api/ops/graph.ts).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { LinksAdd } from '#shared/api/ops/graph.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type LinkOptions = { type: string; note?: string; json?: boolean };

export function registerLink(program: Command): void {
  program
    .command('link')
    .description(`${LinksAdd.summary} with a custom edge (linking them again updates its note)`)
    .argument('<from-id>', 'the item the edge goes from')
    .argument('<to-id>', 'the item it goes to')
    .requiredOption(
      '--type <type>',
      'free text, kept as UPPER_SNAKE_CASE: "depends on", "owned by", SAME_AS…',
    )
    .option('--note <text>', 'a note on the edge')
    .option('--json', 'print JSON')
    .action((fromId: string, toId: string, opts: LinkOptions) =>
      withEngine(program, async (engine) => {
        const edge = await run(memberContext(engine, 'cli'), LinksAdd, {
          from_id: fromId,
          to_id: toId,
          type: opts.type,
          note: opts.note,
        });
        if (opts.json) return printJson(edge);
        print(`linked ${edge.from} -${edge.type}-> ${edge.to}  (${edge.id})`);
      }),
    );
}
