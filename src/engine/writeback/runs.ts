/**
 * Runs and their write-back outcome (`brain runs`, the inbox cards), and the run a chat thread
 * becomes when the user closes it with "remember this".
 */
import type { RunView } from '#shared/api/writeback-types.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, writeTx } from '../db/driver.ts';
import { WORK_PRODUCTS_CAP } from './writer.ts';

type Row = {
  id: string;
  agent: string;
  user_id: string;
  status: string;
  ended_at: string;
  writeback_state: RunView['writeback'];
  work_products: string;
  p_state: 'running' | 'done' | 'failed' | null;
  model: string | null;
  proposed: number | null;
  written: number | null;
  reviewed: number | null;
  skipped: number | null;
  error: string | null;
  finished_at: string | null;
};

/** Runs of this user (every run for an admin), newest first, with their pass. */
export function listRuns(db: Db, user: string, options: { all?: boolean; limit?: number } = {}): RunView[] {
  const rows = db
    .prepare(
      `SELECT r.*, p.state AS p_state, p.model, p.proposed, p.written, p.reviewed, p.skipped, p.error, p.finished_at
       FROM runs r LEFT JOIN writeback_passes p ON p.run_id = r.id
       WHERE (? = 1 OR r.user_id = ?) ORDER BY r.ended_at DESC LIMIT ?`,
    )
    .all(options.all ? 1 : 0, user, options.limit ?? 200) as Row[];
  return rows.map((r) => ({
    id: r.id,
    agent: r.agent,
    user: r.user_id,
    status: r.status,
    endedAt: r.ended_at,
    writeback: r.writeback_state,
    chars: r.work_products.length,
    pass: r.p_state
      ? {
          state: r.p_state,
          model: r.model,
          proposed: r.proposed ?? 0,
          written: r.written ?? 0,
          reviewed: r.reviewed ?? 0,
          skipped: r.skipped ?? 0,
          error: r.error,
          finishedAt: r.finished_at,
        }
      : null,
  }));
}

type TurnRow = { role: string; text: string; data: string };

/** The thread as work products: questions, answers and what they cited, newest kept within the cap. */
function transcript(turns: readonly TurnRow[]): string {
  const parts = turns.map((t) => {
    if (t.role === 'user') return `Question: ${t.text}`;
    let cited = '';
    try {
      const data = JSON.parse(t.data) as { memories?: { label: string }[] };
      if (data.memories?.length) cited = `\n(cited: ${data.memories.map((m) => m.label).join('; ')})`;
    } catch {
      cited = '';
    }
    return `Answer: ${t.text}${cited}`;
  });
  let text = parts.join('\n\n');
  if (text.length > WORK_PRODUCTS_CAP) text = text.slice(text.length - WORK_PRODUCTS_CAP);
  return text;
}

export type RememberResult = { run: string; writeback: RunView['writeback']; created: boolean };

/**
 * "Remember this": the thread so far becomes a succeeded run of the agent `chat`, waiting for its
 * write-back pass. Remembering the same thread again without new turns is the same run.
 */
export function rememberThread(db: Db, workspaceId: string, user: string, threadId: string): RememberResult {
  return writeTx(db, () => {
    const thread = db.prepare('SELECT id FROM chat_threads WHERE id = ? AND user_id = ?').get(threadId, user);
    if (!thread) throw new AppError('not-found', `No chat thread ${threadId}.`);
    const turns = db
      .prepare('SELECT role, text, data FROM chat_turns WHERE thread_id = ? ORDER BY at, rowid')
      .all(threadId) as TurnRow[];
    if (turns.length === 0)
      throw new AppError('validation-failed', 'The thread is empty: nothing to remember.');
    const run = `chat:${threadId}:${turns.length}`;
    const prev = db.prepare('SELECT writeback_state FROM runs WHERE id = ?').get(run) as
      | { writeback_state: RunView['writeback'] }
      | undefined;
    if (prev) return { run, writeback: prev.writeback_state, created: false };
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO runs (id, workspace_id, user_id, agent, status, work_products, writeback_state, started_at, ended_at, updated_at)
       VALUES (?, ?, ?, 'chat', 'succeeded', ?, 'pending', NULL, ?, ?)`,
    ).run(run, workspaceId, user, transcript(turns), now, now);
    return { run, writeback: 'pending', created: true };
  });
}
