/**
 * `brain fact add|list|retire`: facts about an entity with their citations (the contract's facts.*
 * operations, src/shared/api/ops/facts.ts; docs/FACTS.md). `add` states one from a source (say where:
 * --quote or --span), `list` shows an entity's page (current facts; `--history` the retired ones too),
 * `retire` retires one.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { FactsList, FactsRetire, FactsState } from '#shared/api/ops/facts.ts';
import { ENTITY_KINDS } from '#shared/api/ops/graph.ts';
import { describeCitation } from '#shared/citation.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export type Fact = OutputOf<typeof FactsList>['facts'][number];

function parseSpan(value: string): { start: number; end: number } {
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (!m)
    throw new AppError(
      'validation-failed',
      `--span takes A-B, character offsets in the item's text (got ${value}).`,
    );
  return { start: Number(m[1]), end: Number(m[2]) };
}

/** A fact, its id and its citations; `indent` puts it under a heading (as `brain dossier` does). */
export function printFact(f: Fact, indent = ''): void {
  const what = f.attribute ? `${f.attribute}: ` : '';
  const status =
    f.status === 'current'
      ? ''
      : `  [retired${f.reason ? `: ${f.reason}` : ''}${f.supersededBy ? `, by ${f.supersededBy}` : ''}]`;
  print(`${indent}${what}${f.statement}  (valid ${f.validAt.slice(0, 10)})${status}`);
  print(`${indent}  ${f.id}`);
  for (const c of f.citations)
    print(
      `${indent}  - ${describeCitation(c.citation) || c.item.label}: "${c.quote.slice(0, 120)}"  (${c.origin.actor})`,
    );
}

export function registerFact(program: Command): void {
  const fact = program.command('fact').description('Facts about an entity, each with its citations');
  fact
    .command('add')
    .description(`${FactsState.summary} (say where: --quote or --span)`)
    .argument('<entity>', "the entity's id, or its name (with --kind)")
    .argument('<statement>', 'what the source says')
    .requiredOption('--item <id>', 'the source that says it')
    .option('--kind <kind>', ENTITY_KINDS.join(' | '))
    .option('--attribute <name>', 'price, owner, term, status…: a newer fact of it replaces the older')
    .option('--valid-at <date>', 'the date the source says it holds (YYYY-MM-DD)')
    .option('--quote <words>', "the exact words in the source's text")
    .option('--span <A-B>', "character offsets in the source's text, end exclusive")
    .option('--json', 'print JSON')
    .action(
      (
        entity: string,
        statement: string,
        opts: {
          item: string;
          kind?: string;
          attribute?: string;
          validAt?: string;
          quote?: string;
          span?: string;
          json?: boolean;
        },
      ) =>
        withEngine(program, async (engine) => {
          const out = await run(memberContext(engine, 'cli'), FactsState, {
            entity,
            statement,
            kind: opts.kind,
            attribute: opts.attribute,
            valid_at: opts.validAt,
            item_id: opts.item,
            quote: opts.quote,
            span: opts.span === undefined ? undefined : parseSpan(opts.span),
          });
          if (opts.json) return printJson(out);
          print(`${out.entity.label} (${out.entity.kind}, ${out.entity.scope})  ${out.entity.id}`);
          printFact(out.fact);
        }),
    );
  fact
    .command('list')
    .description(FactsList.summary)
    .argument('<entity>', "the entity's id")
    .option('--history', 'also the retired facts, with why and what replaced them')
    .option('--json', 'print JSON')
    .action((entity: string, opts: { history?: boolean; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), FactsList, { entity, history: opts.history });
        if (opts.json) return printJson(out);
        if (out.facts.length === 0) {
          // Retired facts are history: say so rather than that there never were any ([K5]).
          const past = opts.history
            ? 0
            : (await run(memberContext(engine, 'cli'), FactsList, { entity, history: true })).facts.length;
          print(
            past > 0
              ? `No current facts about this entity (${past} retired: \`brain fact list ${entity} --history\` shows them).`
              : 'No facts about this entity yet: `brain fact add` states one.',
          );
        }
        for (const f of out.facts) printFact(f);
      }),
    );
  fact
    .command('retire')
    .description(FactsRetire.summary)
    .argument('<fact>', "the fact's id (as `brain fact list` shows it)")
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), FactsRetire, { fact: id });
        if (opts.json) return printJson(out);
        printFact(out.fact);
      }),
    );
}
