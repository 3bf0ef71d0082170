/**
 * `brain erase <id>`: erases a file or note with everything derived from it, history included
 * (docs/FACTS.md [K14]), after confirming: the contract's items.erase
 * (src/shared/api/ops/items.ts). The local admin's only, refused before anything is read; the
 * prompt names the source and what goes with it. Without a terminal it erases only when told `--yes`.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { assertMayErase, type ErasePlan, planErase } from '#engine/knowledge/erase.ts';
import { readState } from '#engine/sync/state.ts';
import { ItemsErase } from '#shared/api/ops/items.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What goes with the source, as the prompt and the answer say it. */
function whatGoes(p: { versions: number; sections: number; links: number }): string {
  return [count(p.versions, 'earlier version'), count(p.sections, 'section'), count(p.links, 'link')].join(
    ', ',
  );
}

async function confirmed(plan: ErasePlan, connected: boolean): Promise<boolean> {
  const { source } = plan;
  if (!process.stdin.isTTY)
    throw new AppError(
      'validation-failed',
      `Erasing ${source.label} deletes it for good: pass --yes to erase it without a terminal.`,
    );
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const where = connected ? ' here and on every replica of the workspace' : '';
    const parts = whatGoes({
      versions: plan.versions.length,
      sections: plan.sections.length,
      links: plan.edges.length,
    });
    const answer = await rl.question(
      `Erase ${source.label} (${source.id}) for good${where}? It goes with ${parts} and its stored bytes; nothing is kept and it cannot be undone. [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function registerErase(program: Command): void {
  program
    .command('erase')
    .description(`${ItemsErase.summary}, after confirming (the local admin's only)`)
    .argument('<id>', 'the file or note id')
    .option('--yes', 'erase without asking (needed when not on a terminal)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { yes?: boolean; json?: boolean }) =>
      withEngine(program, async (engine) => {
        // Refusals first (not the admin, not a source), so nobody is asked for nothing.
        assertMayErase(engine.db, engine.home, engine.user);
        const plan = planErase(engine.db, engine.scopes(), id);
        if (!opts.yes && !(await confirmed(plan, readState(engine.db).server !== null))) {
          process.stderr.write('Not erased.\n');
          process.exitCode = 1;
          return;
        }
        const out = await run(memberContext(engine, 'cli'), ItemsErase, { id });
        if (opts.json) return printJson(out);
        print(
          `erased ${out.label} with ${whatGoes(out)} and ${count(out.blobs, 'stored file')}; ${count(out.retiredFacts, 'fact')} retired.`,
        );
        for (const e of out.emptied) print(`  ${e.label} (${e.id}) has no current fact left.`);
        if (out.sent) print('The workspace server erases it on every replica at their next sync.');
      }),
    );
}
