/** `brain entities`: the contract's entities.list (src/shared/api/ops/knowledge.ts), printed. */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { EntitiesList, KNOWLEDGE_LIMITS } from '#shared/api/ops/knowledge.ts';
import type { EntitySummary } from '#shared/api/types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function printEntity(e: EntitySummary): void {
  const counts = `${e.mentions} mention${e.mentions === 1 ? '' : 's'} in ${e.sources} item${e.sources === 1 ? '' : 's'}`;
  print(`${e.id}  ${e.label}  [${e.kind}, ${e.scope}]  ${counts}${e.sameAs ? `, ${e.sameAs} SAME_AS` : ''}`);
  const others = e.aliases.filter((a) => a !== e.label);
  if (others.length) print(`    also: ${others.join(' · ')}`);
}

export function registerEntities(program: Command): void {
  program
    .command('entities')
    .description('Entities you can see (people, companies, projects, …) with every alias and their counts')
    .option('--q <name>', 'only entities with an alias like this (case, accents, legal suffix ignored)')
    .option(
      '--limit <n>',
      `at most this many (default ${KNOWLEDGE_LIMITS.entitiesDefault}, at most ${KNOWLEDGE_LIMITS.cliMax})`,
      Number,
    )
    .option('--json', 'print JSON')
    .action((opts: { q?: string; limit?: number; json?: boolean }) =>
      withEngine(program, async (engine) => {
        // The limits and the scope rules are the operation's, as on every other surface.
        const out = await run(memberContext(engine, 'cli'), EntitiesList, { q: opts.q, limit: opts.limit });
        if (opts.json) return printJson(out);
        if (out.entities.length === 0)
          print('No entities yet: agents record them with brain_observe_mention.');
        for (const e of out.entities) printEntity(e);
      }),
    );
}
