import type { Command } from 'commander';
import type { AddResult } from '#engine/add/add.ts';
import { scopeKeptSentence } from '#shared/scope-kept.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description('Add files or folders (stores the bytes; they become answerable once indexed)')
    .argument('<path...>', 'files or folders')
    // No default value: only a scope the person named is reported when a file already here keeps its own.
    .option('--scope <scope>', 'org, team:<id> or user:<id> (default: org)')
    .option('--json', 'print JSON')
    .action((paths: string[], opts: { scope?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const result = await engine.add(paths, { scope: opts.scope });
        if (opts.json) printJson(result);
        else printReport(result);
        // Re-adding never moves a file (src/engine/add/move.ts): said on stderr, after the report.
        for (const k of result.scopeKept ?? []) process.stderr.write(`${scopeKeptSentence(k)}\n`);
      }),
    );
}

function printReport(result: AddResult): void {
  for (const a of result.added) print(`added      ${a.id}  ${a.path}`);
  for (const u of result.unchanged) print(`unchanged  ${u.id}  ${u.path}`);
  for (const r of result.refused) print(`refused    ${r.path}: ${r.reason}`);
  print(
    `${result.added.length} added, ${result.unchanged.length} unchanged, ${result.refused.length} refused.` +
      (result.added.length ? ' Run `brain index` to make them answerable.' : ''),
  );
}
