/**
 * `brain versions <id>`: a file's or note's versions, newest first (the contract's items.versions,
 * src/shared/api/ops/versions.ts; docs/FACTS.md [K16]).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { ItemsVersions } from '#shared/api/ops/versions.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerVersions(program: Command): void {
  program
    .command('versions')
    .description(ItemsVersions.summary)
    .argument('<id>', 'the file or note id')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ItemsVersions, { id });
        if (opts.json) return printJson(out);
        for (const v of out.versions) {
          const when = v.current ? 'current' : `replaced ${v.replacedAt?.slice(0, 10) ?? ''}`;
          const size = v.size === null ? '' : `  ${v.size} bytes`;
          print(`v${v.number}  ${v.at.slice(0, 10)}  ${when}  ${v.id}  ${v.label}${size}`);
        }
        if (out.versions.length === 1) print('One version: nothing has replaced it yet.');
      }),
    );
}
