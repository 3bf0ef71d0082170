import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { parseLineRange } from '#engine/read/read.ts';
import { ItemsRead } from '#shared/api/ops/retrieval.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerRead(program: Command): void {
  program
    .command('read')
    .description("Read a whole item, or exactly a section's cited range (numbered lines)")
    .argument('<id>', 'item id (file, section, note)')
    .option('--lines <A-B>', 'only these lines')
    .option('--json', 'print JSON')
    .action((id: string, opts: { lines?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const lines = opts.lines ? parseLineRange(opts.lines) : undefined;
        // The contract's items.read: the same rules as every other surface (src/shared/api/ops).
        const result = await run(memberContext(engine, 'cli'), ItemsRead, {
          id,
          from_line: lines?.from,
          to_line: lines?.to,
        });
        if (opts.json) return printJson(result);
        print(
          `${result.label}  [${result.storageKind}, ${result.scope}]  lines ${result.lineStart}-${result.lineEnd}`,
        );
        const width = String(result.lineEnd).length;
        result.text.split('\n').forEach((line, i) => {
          print(`${String(result.lineStart + i).padStart(width)}  ${line}`);
        });
      }),
    );
}
