/**
 * The audit pass after a file is indexed ([W4] in docs/PRODUCT.md). With a chat model configured, the
 * model audit (a planning turn and a 30-step budget) runs after the deterministic pass; without
 * one, the deterministic pass alone links mentions of entities the workspace already knows. Each
 * file's last audit is recorded in `audit_passes` and logged; a failure is logged and changes
 * nothing more than the tool calls that already succeeded (each one a whole, additive write).
 */
import type { Db } from '../db/driver.ts';
import { type ModelAccess, resolveModel } from '../llm/config.ts';
import { getRow } from '../read/items.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { deterministicAudit } from './deterministic.ts';
import { modelAudit } from './model-audit.ts';

export type AuditResult = {
  fileId: string;
  mode: 'deterministic' | 'model';
  mentions: number;
  links: number;
  steps: number;
  error: string | null;
};

export type AuditPassDeps = { db: Db; home: string; workspaceId: string; surface: Surface; user: string };

export async function auditFile(
  deps: AuditPassDeps,
  fileId: string,
  options: { access?: ModelAccess | null; timeoutMs?: number; maxSteps?: number } = {},
): Promise<AuditResult | null> {
  const file = getRow(deps.db, fileId);
  if (file?.storage_kind !== 'file' || file.retired_at || file.indexed !== 1) return null;
  const run = `audit:${fileId}:${file.version}`;
  const access = options.access === undefined ? await resolveModel(deps.db, deps.home) : options.access;
  const result: AuditResult = {
    fileId,
    mode: access ? 'model' : 'deterministic',
    mentions: 0,
    links: 0,
    steps: 0,
    error: null,
  };
  try {
    result.mentions = deterministicAudit(deps, file, run);
    if (access) {
      const m = await modelAudit(deps, access, file, run, options);
      result.mentions += m.mentions;
      result.links = m.links;
      result.steps = m.steps;
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  deps.db
    .prepare(
      `INSERT INTO audit_passes (file_id, mode, steps, mentions, links, error, at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (file_id) DO UPDATE SET mode = excluded.mode, steps = excluded.steps, mentions = excluded.mentions,
         links = excluded.links, error = excluded.error, at = excluded.at`,
    )
    .run(
      fileId,
      result.mode,
      result.steps,
      result.mentions,
      result.links,
      result.error,
      new Date().toISOString(),
    );
  logEvent(deps.db, deps.surface, deps.user, 'audit', {
    ...result,
    label: file.label,
    summary: `audit (${result.mode}) of ${file.label}: ${result.mentions} mentions, ${result.links} links${result.mode === 'model' ? `, ${result.steps} steps` : ''}${result.error ? `; failed: ${result.error}` : ''}`,
  });
  return result;
}
