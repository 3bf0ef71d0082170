/**
 * `brain move <id> --scope S`: the explicit, confirmed way to change who can see a file (with its
 * sections) or a note: the contract's items.planMove and items.move (src/shared/api/ops/items.ts). The
 * rules and the write are the engine's (src/engine/add/move.ts); this asks
 * first on a terminal and, without one, moves only when told `--yes`.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { ItemsMove, ItemsPlanMove } from '#shared/api/ops/items.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type MovePlan = OutputOf<typeof ItemsPlanMove>;
type MoveResult = OutputOf<typeof ItemsMove>;
type MoveOptions = { scope: string; yes?: boolean; json?: boolean };

export function registerMove(program: Command): void {
  program
    .command('move')
    .description('Move a file (and its sections) or a note to another scope, after confirming')
    .argument('<id>', 'the file or note id')
    .requiredOption('--scope <scope>', 'org, team:<id> or user:<id>')
    .option('--yes', 'move without asking (needed when not on a terminal)')
    .option('--json', 'print JSON')
    .action((id: string, opts: MoveOptions) =>
      withEngine(program, async (engine) => {
        const ctx = memberContext(engine, 'cli');
        const plan = await run(ctx, ItemsPlanMove, { id, scope: opts.scope });
        if (plan.from !== plan.to && !opts.yes && !(await confirmed(plan))) {
          process.stderr.write('Not moved.\n');
          process.exitCode = 1;
          return;
        }
        const result = await run(ctx, ItemsMove, { id, scope: opts.scope });
        if (opts.json) return printJson(result);
        print(doneLine(result));
      }),
    );
}

/** What the move covers and who will see the item after it: the question a person answers. */
function moveQuestion(plan: MovePlan): string {
  return `Move ${whatMoves(plan)} from ${plan.from} to ${plan.to}? ${audience(plan.to)}`;
}

function whatMoves(plan: MovePlan): string {
  if (plan.sections === 0) return plan.label;
  return `${plan.label} and its ${plan.sections} ${plan.sections === 1 ? 'section' : 'sections'}`;
}

function audience(scope: string): string {
  if (scope === 'org') return 'Everyone in the workspace will see it.';
  if (scope.startsWith('team:')) return `Only members of ${scope} will see it.`;
  return `Only ${scope.slice('user:'.length)} will see it.`;
}

async function confirmed(plan: MovePlan): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new AppError(
      'validation-failed',
      `Moving ${plan.label} to ${plan.to} changes who can see it: pass --yes to move it without a terminal.`,
    );
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${moveQuestion(plan)} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function doneLine(r: MoveResult): string {
  if (!r.moved) return `${r.label} is already in ${r.to}: nothing moved.`;
  return `moved ${whatMoves(r)} from ${r.from} to ${r.to}.`;
}
