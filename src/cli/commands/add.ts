/**
 * `brain add <path...>`: the contract's files.add (src/shared/api/ops/files.ts). The bytes are
 * stored; `brain index` makes them answerable (the command line is a one-shot process: indexing
 * on add is a host's, the app's or `brain serve`'s).
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { FilesAdd } from '#shared/api/ops/files.ts';
import type { AddReport } from '#shared/api/types.ts';
import { scopeKeptSentence } from '#shared/scope-kept.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description(FilesAdd.summary)
    .argument('<path...>', 'files or folders')
    // No default value: only a scope the person named is reported when a file already here keeps its own.
    .option('--scope <scope>', 'org, team:<id> or user:<id> (default: org)')
    .option('--external-id <id>', "the source's own id: new bytes under it are its next version")
    .option('--json', 'print JSON')
    .action((paths: string[], opts: { scope?: string; externalId?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('adding');
        const notify = (event: string, payload: unknown) => {
          const p = payload as { done: number; total: number };
          if (event === 'add.progress') bar.update(p.done, p.total, '');
        };
        const result = await run(memberContext(engine, 'cli', { notify }), FilesAdd, {
          paths,
          scope: opts.scope,
          external_id: opts.externalId,
        });
        bar.stop();
        if (opts.json) printJson(result);
        else printReport(result);
        // Re-adding never moves a file (src/engine/add/move.ts): said on stderr, after the report.
        for (const k of result.scopeKept ?? []) process.stderr.write(`${scopeKeptSentence(k)}\n`);
      }),
    );
}

function printReport(result: AddReport): void {
  for (const a of result.added) print(`added      ${a.id}  ${a.path}`);
  for (const u of result.unchanged) print(`unchanged  ${u.id}  ${u.path}`);
  for (const r of result.refused) print(`refused    ${r.path}: ${r.reason}`);
  print(
    `${result.added.length} added, ${result.unchanged.length} unchanged, ${result.refused.length} refused.` +
      (result.added.length ? ' Run `brain index` to make them answerable.' : ''),
  );
}
