/** backups.list, backups.create and backups.restore (src/shared/api/ops/backups.ts), as every surface runs them. */
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type { BackupsCreate, BackupsList, BackupsRestore } from '#shared/api/ops/backups.ts';
import { AppError } from '#shared/errors.ts';
import {
  type BackupInfo,
  backupDir,
  KEEP_DAYS,
  listBackups,
  pruneBackups,
  takeBackup,
} from '../backup/backups.ts';
import type { CommandContext } from './types.ts';

type Row = OutputOf<typeof BackupsList>['backups'][number];

/** `brain backups restore NAME`, with the data folder quoted for a shell. */
function restoreCommand(home: string, name: string): string {
  const quoted = /^[A-Za-z0-9_./:\\-]+$/.test(home) ? home : `"${home.replace(/(["\\$`])/g, '\\$1')}"`;
  return `brain --home ${quoted} backups restore ${name}`;
}

function row(home: string, b: BackupInfo): Row {
  return { ...b, restoreCommand: restoreCommand(home, b.name) };
}

function current(ctx: CommandContext): OutputOf<typeof BackupsList> {
  const home = ctx.engine.home;
  const folder = backupDir(home);
  return { backups: listBackups(folder).map((b) => row(home, b)), folder, keepDays: KEEP_DAYS };
}

async function backupsList(ctx: CommandContext, _: ParsedInputOf<typeof BackupsList>) {
  return current(ctx);
}

async function backupsCreate(ctx: CommandContext, _: ParsedInputOf<typeof BackupsCreate>) {
  const { engine } = ctx;
  const folder = backupDir(engine.home);
  const taken = await takeBackup(engine.db, folder);
  pruneBackups(folder, KEEP_DAYS);
  return { ...current(ctx), taken: row(engine.home, taken) };
}

/**
 * Only a host that can close and reopen its engine restores in place ([N18] in docs/PACKAGING.md);
 * the engine must not be touched after it: it is closed, and another one holds the restored file.
 */
async function backupsRestore(
  ctx: CommandContext,
  input: ParsedInputOf<typeof BackupsRestore>,
): Promise<OutputOf<typeof BackupsRestore>> {
  if (!ctx.host?.restore) {
    throw new AppError(
      'unsupported',
      `This process cannot reopen the workspace: quit the app and run ${restoreCommand(ctx.engine.home, input.name)}.`,
    );
  }
  return ctx.host.restore(input.name);
}

export const backupHandlers = {
  'backups.list': backupsList,
  'backups.create': backupsCreate,
  'backups.restore': backupsRestore,
};
