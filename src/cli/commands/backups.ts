/**
 * `brain backups [list] [--json]`, `brain backups create [--json]` and `brain backups restore NAME`
 * ([N15] in docs/PACKAGING.md): the contract's backups.list and backups.create
 * (src/shared/api/ops/backups.ts), as Settings → Backups; restore is offline and opens no engine.
 */
import type { Command } from 'commander';
import { backupDir } from '#engine/backup/backups.ts';
import { restoreBackup } from '#engine/backup/restore.ts';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { resolveHome } from '#engine/workspace.ts';
import type { Outputs } from '#shared/api/contract.ts';
import { BackupsCreate, BackupsList } from '#shared/api/ops/backups.ts';
import { type GlobalOptions, withEngine } from '../context.ts';
import { fail, print, printJson } from '../output.ts';

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function show(view: Outputs['backups.list']): void {
  if (view.backups.length === 0) print(`No backups yet in ${view.folder}.`);
  for (const b of view.backups) print(`${b.name}  ${b.takenAt}  ${size(b.size)}`);
}

export function registerBackups(program: Command): void {
  const backups = program.command('backups').description(BackupsList.summary).option('--json', 'print JSON');
  const list = async (json?: boolean) =>
    withEngine(program, async (engine) => {
      const view = await run(memberContext(engine, 'cli'), BackupsList, {});
      if (json) printJson(view);
      else show(view);
    });
  backups.action((opts: { json?: boolean }) => list(opts.json));
  backups
    .command('list')
    .description(BackupsList.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => list(opts.json || backups.opts().json));
  backups
    .command('create')
    .description(BackupsCreate.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const view = await run(memberContext(engine, 'cli'), BackupsCreate, {});
        if (opts.json || backups.opts().json) printJson(view);
        else print(`Backed up to ${view.folder}/${view.taken.name} (${size(view.taken.size)}).`);
      }),
    );
  backups
    .command('restore <name>')
    .description('Replace the workspace database with a backup (the current state is backed up first)')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      try {
        const home = resolveHome(program.opts<GlobalOptions>().home);
        const report = await restoreBackup(home, name);
        if (opts.json || backups.opts().json) printJson(report);
        else {
          print(`Restored ${report.restored}.`);
          print(`The state before it is ${backupDir(home)}/${report.before.name};`);
          print(`the database it replaced was moved to ${report.movedAside}.`);
        }
      } catch (err) {
        fail(err);
      }
    });
}
