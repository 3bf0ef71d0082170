/**
 * Backups of the workspace database ([N15] in docs/PACKAGING.md): the list and "Back up now", for
 * people on the app and the command line. Restoring replaces the database: the app and `brain
 * serve` do it in place, closing and reopening their engine around it (`backups.restore`, [N18]);
 * the command line's is the offline `brain backups restore NAME` (each row says the command).
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

export const BackupsRestore = defineOperation({
  name: 'backups.restore',
  summary:
    'Put a backup in place of the workspace database (the current state is backed up first; the app reopens the workspace)',
  input: z.object({ name: z.string().min(1).max(200) }).strict(),
  output: z.object({
    restored: z.string(),
    /** The backup of the state it replaced. */
    before: BackupSchema.omit({ restoreCommand: true }),
    /** Where the replaced database was moved. */
    movedAside: z.string(),
  }),
  mutates: true,
  // The command line has `brain backups restore NAME`, offline; agents never restore.
  notOn: ['agent', 'cli'],
});

export const BACKUP_OPERATIONS = [BackupsList, BackupsCreate, BackupsRestore] as const;
