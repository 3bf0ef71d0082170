import type { Command } from 'commander';
import { parseLineRange } from '../../engine/read.ts';
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
        const result = await engine.read(id, opts.lines ? parseLineRange(opts.lines) : undefined);
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
