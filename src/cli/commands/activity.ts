import type { Command } from 'commander';
import { ACTIVITY_LIMIT_MAX, listActivity } from '../../engine/activity.ts';
import { AppError } from '../../shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function parseWhole(flag: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError('validation-failed', `${flag} takes a whole number from 1 to ${max} (got ${value}).`);
  }
  return n;
}

export function registerActivity(program: Command): void {
  program
    .command('activity')
    .description(
      "Your recent searches, injections and agents' tool calls: why the brain spoke or stayed silent",
    )
    .option('--limit <n>', `how many entries (default 50, at most ${ACTIVITY_LIMIT_MAX})`)
    .option('--before <id>', 'only entries older than this entry id (the next page)')
    .option('--json', 'print JSON')
    .action((opts: { limit?: string; before?: string; json?: boolean }) =>
      withEngine(program, (engine) => {
        const entries = listActivity(engine.db, {
          user: engine.user,
          limit: parseWhole('--limit', opts.limit, ACTIVITY_LIMIT_MAX),
          before: parseWhole('--before', opts.before, Number.MAX_SAFE_INTEGER),
        });
        if (opts.json) return printJson({ entries });
        if (entries.length === 0) print('No activity yet.');
        for (const e of entries) {
          print(`${e.id}  ${e.at.slice(0, 19).replace('T', ' ')}  ${e.surface.padEnd(5)}  ${e.summary}`);
          for (const item of e.items?.slice(0, 8) ?? []) {
            const score = item.score === null ? 'anchor' : item.score.toFixed(4);
            print(`        ${score}  ${item.label ?? '(no longer visible)'}  ${item.id}`);
          }
        }
      }),
    );
}
