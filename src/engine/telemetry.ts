/**
 * Telemetry in the local store: what was searched, injected and called, by whom, from where
 * (surface), with what scores and what came of it. Read back, per user, by activity.ts.
 *
 * Events written today (their `data` shapes are below):
 *  - `search`  every engine search (Engine.search): query, semantic, ms, hits [{id, score}]
 *  - `inject`  every read-injection turn (injection.ts): query, scores, anchors, what was injected
 *              or why nothing was
 *  - `tool`    every MCP tool call and its outcome (src/cli/mcp): tool, agent, run, ok, ms, error
 *  - `add`     files added through the engine
 */
import type { Db } from './db/driver.ts';

export type Surface = 'cli' | 'chat' | 'agent' | 'app';

export type SearchEventData = {
  query: string;
  semantic: boolean;
  ms: number;
  hits: { id: string; score: number }[];
};

export type InjectEventData = {
  query: string;
  semantic: boolean;
  /** The absolute floor this turn was held to (it depends on which lists ran). */
  floor: number;
  /** Every hit search returned: final score, and the raw rank-fusion vote the floor is checked on. */
  scores: { id: string; score: number; vote: number }[];
  anchors: { id: string; status: string }[];
  injected: { id: string; score: number | null; isAnchor: boolean }[];
  tokens: number;
  reason: string;
  ms: number;
};

export type ToolEventData = {
  tool: string;
  agent: string;
  run: string;
  ok: boolean;
  ms: number;
  /** A short description of the arguments (sizes and ids, never whole bodies). */
  args?: Record<string, unknown>;
  error?: { code: string; message: string };
  result?: Record<string, unknown>;
};

/** Never throws: telemetry must not break the work it records. */
export function logEvent(db: Db, surface: Surface, userId: string, event: string, data: unknown): void {
  try {
    db.prepare('INSERT INTO telemetry (at, surface, user_id, event, data) VALUES (?, ?, ?, ?, ?)').run(
      new Date().toISOString(),
      surface,
      userId,
      event,
      JSON.stringify(data),
    );
  } catch {
    // A busy database or a full disk loses one telemetry row, not the search.
  }
}
