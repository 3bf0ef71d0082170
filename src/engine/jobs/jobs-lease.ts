/**
 * Leases for claimed background work (rules [J1]–[J3] in docs/WORKSPACE.md): the write-back pass
 * of a run today (src/engine/writeback/claim.ts), and any pass that claims a row of the workspace
 * the same way. A pass claims its row in one transaction, naming itself with a token made for that
 * claim (`claimToken`) and a lease that runs out soon (`leaseUntil`); then it holds the lease here:
 *  - a heartbeat (an unref'd interval, so it never keeps a process alive) renews the lease while
 *    the work runs, however long its model calls take; a renewal that finds the row no longer
 *    names this claim means another process took it over, and the work is aborted;
 *  - a process that stops early gives the claim back (`releaseLeases`: closing the engine, a
 *    signal, the end of `brain mcp`'s stdin; and `process.on('exit')`, where only synchronous code
 *    runs, which better-sqlite3 is), so the next process does not wait out a lease;
 *  - a process killed outright leaves its lease to run out, and then anyone takes the row.
 * The SQL of renewing and giving back belongs to the pass (its table); this module only keeps time.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

const DEFAULT_LEASE_MS = 45_000;

/** How long a claim holds without a heartbeat: 45 s, or BRAIN_LEASE_MS when set (tests shorten it). */
export function leaseMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.BRAIN_LEASE_MS);
  return Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_LEASE_MS;
}

const LEASE_MS = leaseMs();

/** The end of a lease taken (or renewed) now. */
export function leaseUntil(ms = LEASE_MS): number {
  return Date.now() + ms;
}

/** Names one claim: the machine and process (for people reading `owner`), and a nonce for this claim. */
export function claimToken(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export type LeaseHooks = {
  /** Extends the claim to `until`; false when the row no longer names this claim (taken over). */
  renew(until: number): boolean;
  /** Gives the claim back so anyone may take the work at once. Synchronous: it may run at exit. */
  release(): void;
};

export type Lease = {
  readonly token: string;
  /** Aborted when the claim is released or lost: pass it to the work's model calls. */
  readonly signal: AbortSignal;
  /** True while this process still holds the claim (neither released nor lost). */
  held(): boolean;
  /** The work is finished and its outcome written: stop renewing (nothing to give back). */
  end(): void;
  /** Stops the work early and gives the claim back. */
  release(): void;
};

const held = new Set<HeldLease>();
let exitHooked = false;

class HeldLease implements Lease {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setInterval>;
  private active = true;
  private readonly onAbort = () => this.release();

  constructor(
    readonly token: string,
    private readonly hooks: LeaseHooks,
    readonly group: object | undefined,
    private readonly outer: AbortSignal | undefined,
    ms: number,
  ) {
    this.timer = setInterval(() => this.beat(ms), Math.max(1, Math.floor(ms / 3)));
    this.timer.unref?.();
    outer?.addEventListener('abort', this.onAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  held(): boolean {
    return this.active;
  }

  end(): void {
    this.stop();
  }

  release(): void {
    if (!this.stop()) return;
    this.controller.abort(new Error('the claim was given back'));
    try {
      this.hooks.release();
    } catch {
      // The database is closed or busy: the lease runs out instead ([J1]).
    }
  }

  private beat(ms: number): void {
    try {
      if (!this.hooks.renew(leaseUntil(ms)) && this.stop())
        this.controller.abort(new Error('the claim was taken over'));
    } catch {
      // The workspace was busy ([B2]): the next beat tries again; the lease outlasts two missed beats.
    }
  }

  private stop(): boolean {
    if (!this.active) return false;
    this.active = false;
    clearInterval(this.timer);
    held.delete(this);
    this.outer?.removeEventListener('abort', this.onAbort);
    return true;
  }
}

/**
 * Holds a claim just taken: renews it every third of its lease until `end()` or `release()`.
 * `group` ties the lease to something that closes (a database), for `releaseLeases(group)`;
 * `signal` (a host shutting down) releases it.
 */
export function holdLease(
  token: string,
  hooks: LeaseHooks,
  options: { group?: object; signal?: AbortSignal; leaseMs?: number } = {},
): Lease {
  const lease = new HeldLease(token, hooks, options.group, options.signal, options.leaseMs ?? LEASE_MS);
  held.add(lease);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => releaseLeases());
  }
  if (options.signal?.aborted) lease.release();
  return lease;
}

/** Gives back every claim this process holds (of one group, when given). Returns how many. */
export function releaseLeases(group?: object): number {
  let n = 0;
  for (const lease of [...held]) {
    if (group !== undefined && lease.group !== group) continue;
    lease.release();
    n += 1;
  }
  return n;
}

/** How many claims this process holds now (status and tests). */
export function heldLeases(): number {
  return held.size;
}
