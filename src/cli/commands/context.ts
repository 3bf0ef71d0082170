/** `brain context <message>`: the read injection for a turn, the contract's context.get (src/shared/api/ops). */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { ContextGet } from '#shared/api/ops/retrieval.ts';
import { describeCitation } from '#shared/citation.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerContext(program: Command): void {
  program
    .command('context')
    .description('What the brain would inject for this message: at most 8 cited items, or nothing and why')
    .argument('<message...>', 'the latest message of a turn')
    .option('--anchor <id...>', 'items the turn is about (up to 4)')
    .option('--json', 'print JSON')
    .action((words: string[], opts: { anchor?: string[]; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), ContextGet, {
          message: words.join(' '),
          anchors: opts.anchor,
        });
        if (opts.json) return printJson(out);
        print(`${out.items.length ? plural(out.items.length, 'item') : 'nothing injected'}: ${out.reason}`);
        for (const item of out.items) {
          const score = item.score === null ? 'anchor' : `score ${item.score.toFixed(4)}`;
          print(
            `- ${item.label}  [${item.storageKind}, ${item.scope}]  ${score}  ${describeCitation(item.citation)}`,
          );
        }
      }),
    );
}
