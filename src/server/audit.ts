/** The audit log: membership, scope and token changes, written in the transaction that makes them. */
import type { Queryable } from './db/types.ts';

export type AuditEntry = {
  at: string;
  actor: string | null;
  action: string;
  subject: string | null;
  details?: Record<string, unknown>;
};

export async function audit(tx: Queryable, e: AuditEntry): Promise<void> {
  await tx.query('INSERT INTO audit_log (at, actor, action, subject, details) VALUES ($1, $2, $3, $4, $5)', [
    e.at,
    e.actor,
    e.action,
    e.subject,
    e.details ? JSON.stringify(e.details) : null,
  ]);
}
