import type { Command } from 'commander';
import { listEntities } from '../../engine/entities.ts';
import { AppError } from '../../shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerEntities(program: Command): void {
  program
    .command('entities')
    .description('Entities you can see (people, companies, projects, …) with every alias and their counts')
    .option('--q <name>', 'only entities with an alias like this (case, accents, legal suffix ignored)')
    .option('--limit <n>', 'at most this many (default 500)')
    .option('--json', 'print JSON')
    .action((opts: { q?: string; limit?: string; json?: boolean }) =>
      withEngine(program, (engine) => {
        const limit = opts.limit === undefined ? 500 : Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) {
          throw new AppError(
            'validation-failed',
            `--limit takes a whole number from 1 to 100000 (got ${opts.limit}).`,
          );
        }
        const entities = listEntities(engine.db, engine.scopes(), { q: opts.q, limit });
        if (opts.json) return printJson({ entities });
        if (entities.length === 0) print('No entities yet: agents record them with brain_observe_mention.');
        for (const e of entities) {
          const others = e.aliases.filter((a) => a !== e.label);
          print(
            `${e.id}  ${e.label}  [${e.kind}, ${e.scope}]  ${e.mentions} mention${e.mentions === 1 ? '' : 's'} in ${e.sources} item${e.sources === 1 ? '' : 's'}${e.sameAs ? `, ${e.sameAs} SAME_AS` : ''}`,
          );
          if (others.length) print(`    also: ${others.join(' · ')}`);
        }
      }),
    );
}
