/**
 * Hybrid logical clock (`<ms, 13 digits>-<counter, 6 digits>-<node>`, compares as a string): every
 * stamp is greater than every stamp this replica made or saw before, even if the wall clock steps
 * back, and stays close to wall time. The last value is persisted in sync_state, written in the
 * same transaction as the stamps that used it, so it is monotonic across restarts.
 *
 * A remote stamp more than CLOCK_SKEW_MAX_MS ahead of this machine's clock is never adopted
 * (docs/SYNC_SPEC.md [S28]): the server refuses such stamps, so adopting one would make every
 * later local change unsendable. A clock already carried past that bound (by a release before the
 * rule) is brought back to wall time when it is loaded.
 */
import { CLOCK_SKEW_MAX_MS } from '#shared/sync/protocol.ts';
import type { Db } from '../db/driver.ts';
import { stmt } from '../db/driver.ts';

export type Hlc = { ms: number; counter: number; node: string };

const MAX_COUNTER = 999_999;
const HLC_RE = /^(\d{13})-(\d{6})-([A-Za-z0-9_-]{1,40})$/;

export function formatHlc(h: Hlc): string {
  return `${String(h.ms).padStart(13, '0')}-${String(h.counter).padStart(6, '0')}-${h.node}`;
}

export function parseHlc(text: string): Hlc | null {
  const m = HLC_RE.exec(text);
  if (!m) return null;
  return { ms: Number(m[1]), counter: Number(m[2]), node: m[3] as string };
}

/** A fresh local stamp at wall time `now` (or a change's own time): greater than `last`. */
export function tick(last: Hlc, now: number): Hlc {
  if (now > last.ms) return { ms: now, counter: 0, node: last.node };
  return bump(last.ms, last.counter, last.node);
}

/** What this replica's clock becomes after seeing a remote stamp: at least it, and still this node's. */
export function receive(last: Hlc, remote: Hlc): Hlc {
  if (remote.ms > last.ms) return { ms: remote.ms, counter: remote.counter, node: last.node };
  if (remote.ms === last.ms && remote.counter > last.counter) return { ...last, counter: remote.counter };
  return last;
}

function bump(ms: number, counter: number, node: string): Hlc {
  // A counter that runs out moves into the next millisecond: order is kept, wall time drifts by 1 ms.
  return counter >= MAX_COUNTER ? { ms: ms + 1, counter: 0, node } : { ms, counter: counter + 1, node };
}

export function compareVersions(a: { hlc: string; opId: string }, b: { hlc: string; opId: string }): number {
  if (a.hlc !== b.hlc) return a.hlc < b.hlc ? -1 : 1;
  if (a.opId !== b.opId) return a.opId < b.opId ? -1 : 1;
  return 0;
}

/** The replica's clock, backed by sync_state; use inside a write transaction. */
export class ReplicaClock {
  private last: Hlc;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    const row = stmt(db, 'SELECT node, hlc FROM sync_state WHERE id = 1').get() as {
      node: string;
      hlc: string | null;
    };
    this.last = (row.hlc ? parseHlc(row.hlc) : null) ?? { ms: 0, counter: 0, node: row.node };
    this.last.node = row.node;
    if (this.last.ms > this.now() + CLOCK_SKEW_MAX_MS)
      this.last = { ms: this.now(), counter: 0, node: row.node };
  }

  /** A stamp for a local change made at `at` ms (its recorded time), never before the last one. */
  stamp(at = this.now()): string {
    this.last = tick(this.last, Math.min(at, this.now()));
    this.save();
    return formatHlc(this.last);
  }

  observe(remote: string): void {
    const parsed = parseHlc(remote);
    if (!parsed || parsed.ms > this.now() + CLOCK_SKEW_MAX_MS) return;
    const next = receive(this.last, parsed);
    if (next !== this.last) {
      this.last = next;
      this.save();
    }
  }

  current(): string {
    return formatHlc(this.last);
  }

  private save(): void {
    stmt(this.db, 'UPDATE sync_state SET hlc = ? WHERE id = 1').run(formatHlc(this.last));
  }
}
