import type { Command } from 'commander';
import { DEFAULT_GRAPH_STORAGE_KINDS, graphView } from '../../engine/graph-view.ts';
import { AppError } from '../../shared/errors.ts';
import type { StorageKind } from '../../shared/types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

const KINDS: readonly StorageKind[] = ['file', 'section', 'note', 'entity'];

function whole(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError('validation-failed', `${flag} takes a whole number from 1 to ${max} (got ${value}).`);
  }
  return n;
}

function list(value: string | undefined): string[] | undefined {
  return value
    ? value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : undefined;
}

export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('The nodes and edges you can see (an edge only when both ends are visible)')
    .option('--around <id>', 'only the neighborhood of this item')
    .option('--hops <n>', 'how far from --around (1-3, default 1)')
    .option('--limit <n>', 'at most this many nodes (default 5000)')
    .option(
      '--storage-kinds <list>',
      `comma-separated, of ${KINDS.join(', ')} (default ${DEFAULT_GRAPH_STORAGE_KINDS.join(',')})`,
    )
    .option('--edge-types <list>', 'comma-separated edge types (MENTIONS, SAME_AS, …)')
    .option('--json', 'print JSON')
    .action(
      (opts: {
        around?: string;
        hops?: string;
        limit?: string;
        storageKinds?: string;
        edgeTypes?: string;
        json?: boolean;
      }) =>
        withEngine(program, (engine) => {
          const storageKinds = list(opts.storageKinds);
          const bad = storageKinds?.find((k) => !KINDS.includes(k as StorageKind));
          if (bad)
            throw new AppError('validation-failed', `Unknown storage kind ${bad}: use ${KINDS.join(', ')}.`);
          const view = graphView(engine.db, engine.scopes(), {
            around: opts.around,
            hops: whole('--hops', opts.hops, 1, 3),
            limit: whole('--limit', opts.limit, 5000, 100_000),
            storageKinds: storageKinds as StorageKind[] | undefined,
            edgeTypes: list(opts.edgeTypes),
          });
          if (opts.json) return printJson(view);
          const labels = new Map(view.nodes.map((n) => [n.id, n.label]));
          print(
            `${view.nodes.length} nodes, ${view.edges.length} edges${view.truncated ? ' (more exist: narrow with --around or --limit)' : ''}`,
          );
          for (const e of view.edges.slice(0, 200)) {
            print(
              `  ${labels.get(e.from)} -${e.type}${e.count > 1 ? `×${e.count}` : ''}-> ${labels.get(e.to)}`,
            );
          }
        }),
    );
}
