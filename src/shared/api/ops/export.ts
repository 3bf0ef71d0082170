/**
 * The member's data as plain files ([N16], [N17] in docs/PACKAGING.md): `workspace.export` writes
 * everything the member can see to a folder readable without Org Brain; `workspace.import` puts
 * such a folder back into an empty workspace with the same ids. Export is for people (the app's
 * File → Export, Settings, `brain export`); import replaces nothing and runs where a person asked
 * for it, on the command line (`brain import DIR`). Agents get neither.
 */
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

const EXPORT_LIMITS = { pathChars: 4096 } as const;
const folder = z.string().min(1).max(EXPORT_LIMITS.pathChars);

const ExportCountsSchema = z.object({
  files: z.number(),
  sections: z.number(),
  notes: z.number(),
  entities: z.number(),
  edges: z.number(),
  facts: z.number(),
  /** Agent brains ([N16] in docs/PACKAGING.md): agents, their brain versions, observations, runs. */
  agents: z.number(),
  agentVersions: z.number(),
  observations: z.number(),
  runs: z.number(),
  /** Original files' bytes written (or read back). */
  bytes: z.number(),
});

export const WorkspaceExport = defineOperation({
  name: 'workspace.export',
  summary:
    'Export everything you can see (original files, notes, entities, facts, edges, agent brains) as plain files and JSON lines',
  input: z
    .object({
      /** A new or empty folder; without it, `Org Brain export <date>` in the home folder. */
      out: folder.optional(),
    })
    .strict(),
  output: z.object({ folder: z.string(), counts: ExportCountsSchema }),
  mutates: false,
  notOn: ['agent'],
});

export const WorkspaceImport = defineOperation({
  name: 'workspace.import',
  summary: 'Restore an export into this workspace, which must be empty, with the same ids',
  input: z.object({ from: folder }).strict(),
  output: z.object({
    folder: z.string(),
    counts: ExportCountsSchema,
    /** The exporting member's own scope, given to the member importing (user:a → user:b). */
    personalScope: z.object({ from: z.string(), to: z.string() }).nullable(),
    /** [N20]: the teams the importer is not a member of here, whose rows were checked but not written. */
    leftOut: z.object({ teams: z.array(z.string()), counts: ExportCountsSchema }),
  }),
  mutates: true,
  notOn: ['agent', 'app'],
});

/** `Org Brain export 2026-12-05 1530` (local time): the default folder's name. */
export function defaultExportName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `Org Brain export ${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())} ${p(now.getHours())}${p(now.getMinutes())}`;
}

export const EXPORT_OPERATIONS = [WorkspaceExport, WorkspaceImport] as const;
