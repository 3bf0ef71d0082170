/**
 * Backups of the workspace database ([N15] in docs/PACKAGING.md): the list and "Back up now", for
 * people on the app and the command line. Restoring replaces the database under every process
 * that has it open, so it is the offline `brain backups restore NAME` (each row says the command).
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const BackupSchema = z.object({
  /** The file's name in `<data folder>/backups` (workspace-YYYY-MM-DDTHH-MM-SSZ.db). */
  name: z.string(),
  /** ISO time it was taken. */
  takenAt: z.string(),
  /** Bytes. */
  size: z.number(),
  /** The command that restores it, with this workspace's data folder. */
  restoreCommand: z.string(),
});

const BackupListSchema = z.object({
  /** Newest first. */
  backups: z.array(BackupSchema),
  /** `<data folder>/backups`. */
  folder: z.string(),
  /** How many days a backup is kept (the newest always). */
  keepDays: z.number(),
});

export const BackupsList = defineOperation({
  name: 'backups.list',
  summary: "The workspace database's backups",
  input: z.object({}).strict(),
  output: BackupListSchema,
  mutates: false,
  notOn: ['agent'],
});

export const BackupsCreate = defineOperation({
  name: 'backups.create',
  summary: 'Back up the workspace database now',
  input: z.object({}).strict(),
  output: BackupListSchema.extend({ taken: BackupSchema }),
  mutates: false,
  notOn: ['agent'],
});

export const BACKUP_OPERATIONS = [BackupsList, BackupsCreate] as const;
