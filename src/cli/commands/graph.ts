/** `brain graph`: the contract's graph.get (src/shared/api/ops/knowledge.ts), printed. */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { DEFAULT_GRAPH_STORAGE_KINDS } from '#engine/knowledge/graph-view.ts';
import { GraphGet, KNOWLEDGE_LIMITS } from '#shared/api/ops/knowledge.ts';
import type { GraphView } from '#shared/api/types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

const STORAGE_KINDS = GraphGet.input.shape.storageKinds.unwrap().element.options;

type GraphOptions = {
  around?: string;
  hops?: number;
  limit?: number;
  storageKinds?: string[];
  kinds?: string[];
  edgeTypes?: string[];
  scopes?: string[];
  json?: boolean;
};

/** A comma-separated option as a list; unknown values are left for the contract to refuse. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

function printGraph(view: GraphView): void {
  const labels = new Map(view.nodes.map((n) => [n.id, n.label]));
  const more = view.truncated ? ' (more exist: narrow with --around or --limit)' : '';
  print(`${view.nodes.length} nodes, ${view.edges.length} edges${more}`);
  for (const e of view.edges.slice(0, 200)) {
    print(`  ${labels.get(e.from)} -${e.type}${e.count > 1 ? `×${e.count}` : ''}-> ${labels.get(e.to)}`);
  }
}

export function registerGraph(program: Command): void {
  const L = KNOWLEDGE_LIMITS;
  program
    .command('graph')
    .description('The nodes and edges you can see (an edge only when both ends are visible)')
    .option('--around <id>', 'only the neighborhood of this item')
    .option('--hops <n>', `how far from --around (1-${L.hopsMax}, default 1)`, Number)
    .option(
      '--limit <n>',
      `at most this many nodes (default ${L.graphNodesDefault}, at most ${L.cliMax})`,
      Number,
    )
    .option(
      '--storage-kinds <list>',
      `comma-separated, of ${STORAGE_KINDS.join(', ')} (default ${DEFAULT_GRAPH_STORAGE_KINDS.join(',')})`,
      list,
    )
    .option('--kinds <list>', 'comma-separated item kinds (person, company, markdown, …)', list)
    .option('--edge-types <list>', 'comma-separated edge types (MENTIONS, SAME_AS, …)', list)
    .option('--scopes <list>', 'comma-separated scopes, of those you can see', list)
    .option('--json', 'print JSON')
    .action(({ json, ...input }: GraphOptions) =>
      withEngine(program, async (engine) => {
        // Scope and filters are the operation's: filters only narrow what this member can see.
        const view = await run(memberContext(engine, 'cli'), GraphGet, input);
        if (json) return printJson(view);
        printGraph(view);
      }),
    );
}
