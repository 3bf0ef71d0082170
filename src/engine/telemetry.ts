/** Telemetry in the local store: what was searched, by whom, from where, with what scores. */
import type { Db } from './db/driver.ts';

export type Surface = 'cli' | 'chat' | 'agent' | 'app';

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
