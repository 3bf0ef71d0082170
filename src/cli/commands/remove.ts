/**
 * `brain remove <id>`: retires a file (with its sections) or a note, after confirming: the
 * contract's items.remove (src/shared/api/ops/items.ts; docs/FACTS.md [K8]). It asks first on a
 * terminal and, without one, removes only when told `--yes`. Adding the same file again brings it back.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { getRow } from '#engine/read/items.ts';
import { ItemsRemove } from '#shared/api/ops/items.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

async function confirmed(label: string): Promise<boolean> {
  if (!process.stdin.isTTY)
    throw new AppError(
      'validation-failed',
      `Removing ${label} hides it from search: pass --yes to remove it without a terminal.`,
    );
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(
      `Remove ${label}? Search and chat no longer find it; facts only it supported are retired. [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function registerRemove(program: Command): void {
  program
    .command('remove')
    .description(`${ItemsRemove.summary}, after confirming`)
    .argument('<id>', 'the file or note id')
    .option('--yes', 'remove without asking (needed when not on a terminal)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { yes?: boolean; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const label = getRow(engine.db, id)?.label ?? id;
        if (!opts.yes && !(await confirmed(label))) {
          process.stderr.write('Not removed.\n');
          process.exitCode = 1;
          return;
        }
        const out = await run(memberContext(engine, 'cli'), ItemsRemove, { id });
        if (opts.json) return printJson(out);
        if (!out.removed) return print(`${out.label} was removed already: nothing changed.`);
        print(`removed ${out.label}; ${out.retiredFacts} fact${out.retiredFacts === 1 ? '' : 's'} retired.`);
        for (const e of out.emptied) print(`  ${e.label} (${e.id}) has no current fact left.`);
      }),
    );
}
