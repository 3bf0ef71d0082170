/** `brain activity`: the contract's activity.list (src/shared/api/ops/knowledge.ts), printed. */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { ActivityList, KNOWLEDGE_LIMITS } from '#shared/api/ops/knowledge.ts';
import type { ActivityEntry } from '#shared/api/types.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function printEntry(e: ActivityEntry): void {
  print(`${e.id}  ${e.at.slice(0, 19).replace('T', ' ')}  ${e.surface.padEnd(5)}  ${e.summary}`);
  for (const item of e.items?.slice(0, 8) ?? []) {
    const score = item.score === null ? 'anchor' : item.score.toFixed(4);
    print(`        ${score}  ${item.label ?? '(no longer visible)'}  ${item.id}`);
  }
}

export function registerActivity(program: Command): void {
  const L = KNOWLEDGE_LIMITS;
  program
    .command('activity')
    .description(
      "Your recent searches, injections and agents' tool calls: why the brain spoke or stayed silent",
    )
    .option(
      '--limit <n>',
      `how many entries (default ${L.activityDefaultCli}, at most ${L.activityMax})`,
      Number,
    )
    .option('--before <id>', 'only entries older than this entry id (the next page)', Number)
    .option('--json', 'print JSON')
    .action((opts: { limit?: number; before?: number; json?: boolean }) =>
      withEngine(program, async (engine) => {
        // Only this member's own entries: the operation owns that rule (src/engine/knowledge/activity.ts).
        const out = await run(memberContext(engine, 'cli'), ActivityList, {
          limit: opts.limit,
          before: opts.before,
        });
        if (opts.json) return printJson(out);
        if (out.entries.length === 0) print('No activity yet.');
        for (const e of out.entries) printEntry(e);
      }),
    );
}
