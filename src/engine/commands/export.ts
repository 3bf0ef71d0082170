/** workspace.export and workspace.import (src/shared/api/ops/export.ts), as every surface runs them. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import { defaultExportName, type WorkspaceExport, type WorkspaceImport } from '#shared/api/ops/export.ts';
import { exportWorkspace } from '../export/export.ts';
import { importWorkspace } from '../export/import.ts';
import type { CommandContext } from './types.ts';

async function workspaceExport(
  ctx: CommandContext,
  input: ParsedInputOf<typeof WorkspaceExport>,
): Promise<OutputOf<typeof WorkspaceExport>> {
  const out = input.out ?? join(homedir(), defaultExportName());
  return exportWorkspace(ctx.engine, out, {
    onProgress: (p) => ctx.notify?.('export.progress', p),
    signal: ctx.signal,
  });
}

async function workspaceImport(
  ctx: CommandContext,
  input: ParsedInputOf<typeof WorkspaceImport>,
): Promise<OutputOf<typeof WorkspaceImport>> {
  const report = importWorkspace(ctx.engine, input.from);
  // Vectors are not exported: a host embeds what has none in the background.
  ctx.host?.embedAgain();
  return report;
}

export const exportHandlers = { 'workspace.export': workspaceExport, 'workspace.import': workspaceImport };
