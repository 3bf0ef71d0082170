import type { Command } from 'commander';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description('Add files or folders (stores the bytes; they become answerable once indexed)')
    .argument('<path...>', 'files or folders')
    .option('--scope <scope>', 'org, team:<id> or user:<id>', 'org')
    .option('--json', 'print JSON')
    .action((paths: string[], opts: { scope: string; json?: boolean }) =>
      withEngine(program, (engine) => {
        const result = engine.add(paths, { scope: opts.scope });
        if (opts.json) return printJson(result);
        for (const a of result.added) print(`added      ${a.id}  ${a.path}`);
        for (const u of result.unchanged) print(`unchanged  ${u.id}  ${u.path}`);
        for (const r of result.refused) print(`refused    ${r.path}: ${r.reason}`);
        print(
          `${result.added.length} added, ${result.unchanged.length} unchanged, ${result.refused.length} refused.` +
            (result.added.length ? ' Run `brain index` to make them answerable.' : ''),
        );
      }),
    );
}
