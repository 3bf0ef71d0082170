/**
 * Writes by other processes on the same workspace: the command line adding or indexing files, an
 * agent's MCP server writing a note, a second window's host. Nothing in this process hears of
 * them, so a host looks every few seconds: SQLite moves `PRAGMA data_version` for this connection
 * only when another connection has committed, and then a fingerprint of what the windows list
 * (new items, edges and proposals, the full-text index's write counter, the pending proposals)
 * says whether it was more than the searches every process logs (their telemetry rows change none
 * of it). When it moved, the windows are told, as after the host's own operations.
 */
import type { Db } from '../db/driver.ts';
import { stmt } from '../db/driver.ts';
import { ftsGeneration } from '../search/keyword-stream.ts';

/** How often a host looks: the app shows another process's files within a few seconds. */
const OTHERS_WRITES_EVERY_MS = 2_000;

function fingerprint(db: Db): string {
  const row = stmt(
    db,
    `SELECT (SELECT max(rowid) FROM items) AS items, (SELECT max(rowid) FROM edges) AS edges,
       (SELECT max(rowid) FROM proposals) AS proposals,
       (SELECT count(*) FROM proposals WHERE state = 'pending') AS pending`,
  ).get() as Record<string, number | null>;
  return `${row.items}|${row.edges}|${row.proposals}|${row.pending}|${ftsGeneration(db)?.toString('hex') ?? ''}`;
}

export class OthersWrites {
  private timer: NodeJS.Timeout | null = null;
  private version: number;
  private print: string;

  constructor(
    private readonly db: Db,
    private readonly onChange: () => void,
  ) {
    this.version = this.dataVersion();
    this.print = fingerprint(db);
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  start(everyMs = OTHERS_WRITES_EVERY_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch {
        // a busy or closing database: the next look tries again
      }
    }, everyMs);
    this.timer.unref();
  }

  /** Whether another process changed what the windows show since the last look (then they are told). */
  check(): boolean {
    const version = this.dataVersion();
    if (version === this.version) return false;
    this.version = version;
    const print = fingerprint(this.db);
    if (print === this.print) return false;
    this.print = print;
    this.onChange();
    return true;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
