/**
 * `brain neighborhood`: the items linked to an item, hop by hop, with the edges between them (an
 * edge only when you can see both ends): the contract's graph.neighborhood (src/shared/api/ops/graph.ts).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { GRAPH_LIMITS, GraphNeighborhood } from '#shared/api/ops/graph.ts';
import { plural } from '#shared/plural.ts';
import { optionalNumber, withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerNeighborhood(program: Command): void {
  program
    .command('neighborhood')
    .description(`${GraphNeighborhood.summary}, hop by hop, with the edges between them`)
    .argument('<id>', 'the item in the middle')
    .option('--hops <n>', `how far out (1-${GRAPH_LIMITS.hopsMax}, default 1)`)
    .option('--json', 'print JSON')
    .action((id: string, opts: { hops?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), GraphNeighborhood, {
          id,
          hops: optionalNumber(opts.hops),
        });
        if (opts.json) return printJson(out);
        const labels = new Map([out.center, ...out.hops.flatMap((h) => h.items)].map((i) => [i.id, i.label]));
        print(`${out.center.label}  ${out.center.id}  [${out.center.storageKind}, ${out.center.scope}]`);
        for (const hop of out.hops) {
          const more = hop.truncated ? ' (more exist)' : '';
          print(
            `hop ${hop.hop}: ${plural(hop.items.length, 'item')}, ${plural(hop.edges.length, 'edge')}${more}`,
          );
          for (const i of hop.items) print(`  ${i.id}  ${i.label}  [${i.storageKind}, ${i.scope}]`);
          for (const e of hop.edges) print(`  ${labels.get(e.from)} -${e.type}-> ${labels.get(e.to)}`);
        }
      }),
    );
}
