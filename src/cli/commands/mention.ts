/**
 * `brain mention`: a name an item mentions, recorded as the entity it names (found or created in
 * the item's scope) and a MENTIONS edge: the contract's mentions.observe (src/shared/api/ops/graph.ts).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { ENTITY_KINDS, MentionsObserve } from '#shared/api/ops/graph.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type MentionOptions = { kind: string; quote?: string; span?: string; json?: boolean };

/** `A-B`: character offsets in the item's text, end exclusive (the limits are the operation's). */
function parseSpan(value: string): { start: number; end: number } {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (!m) {
    throw new AppError(
      'validation-failed',
      `--span takes A-B, character offsets in the item's text, end exclusive (got ${value}).`,
    );
  }
  return { start: Number(m[1]), end: Number(m[2]) };
}

export function registerMention(program: Command): void {
  program
    .command('mention')
    .description(`${MentionsObserve.summary} in an item (say where: --quote or --span)`)
    .argument('<item-id>', 'the item the name occurs in')
    .argument('<name>', 'the name as the item writes it')
    .requiredOption('--kind <kind>', ENTITY_KINDS.join(' | '))
    .option('--quote <words>', "the exact words in the item's text")
    .option(
      '--span <A-B>',
      "character offsets in the item's text (as `brain read` shows it whole), end exclusive",
    )
    .option('--json', 'print JSON')
    .action((itemId: string, name: string, opts: MentionOptions) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), MentionsObserve, {
          item_id: itemId,
          name,
          kind: opts.kind,
          quote: opts.quote,
          span: opts.span === undefined ? undefined : parseSpan(opts.span),
        });
        if (opts.json) return printJson(out);
        const { entity, edge } = out;
        print(
          `${entity.created ? 'new' : 'known'} ${entity.kind} ${entity.label}  ${entity.id}  [${entity.scope}]`,
        );
        print(`mentioned in ${edge.from} as "${String(edge.props.mention ?? name)}"  (${edge.id})`);
      }),
    );
}
