/** The lease a claimed background pass holds while it works ([J1], [J3] in docs/WORKSPACE.md). */
import { describe, expect, it } from 'vitest';
import { until } from '../testing/until.ts';
import { claimToken, heldLeases, holdLease, type LeaseHooks, leaseMs, releaseLeases } from './jobs-lease.ts';

/** A claim row as a pass's table would keep it: who holds it, until when, and whether it was given back. */
function row(token: string) {
  const state = { owner: token as string | null, until: 0, renewals: 0, releases: 0, busy: 0 };
  const hooks: LeaseHooks = {
    renew: (until) => {
      if (state.busy > 0) {
        state.busy -= 1;
        throw new Error('database is locked');
      }
      if (state.owner !== token) return false;
      state.until = until;
      state.renewals += 1;
      return true;
    },
    release: () => {
      if (state.owner === token) state.owner = null;
      state.releases += 1;
    },
  };
  return { state, hooks };
}

describe('a held lease', () => {
  it('[J1] is renewed by a heartbeat while the work runs, and no longer once it ends', async () => {
    const token = claimToken();
    const claim = row(token);
    const lease = holdLease(token, claim.hooks, { leaseMs: 60 });
    await until(
      () => claim.state.renewals,
      (n) => n >= 3,
    );
    expect(claim.state.until).toBeGreaterThan(Date.now());
    expect(lease.held()).toBe(true);
    lease.end();
    expect(lease.held()).toBe(false);
    expect(lease.signal.aborted).toBe(false);
    expect(claim.state.releases).toBe(0); // finished work has nothing to give back
  });

  it('[J1] keeps going when one renewal finds the workspace busy', async () => {
    const token = claimToken();
    const claim = row(token);
    claim.state.busy = 2;
    const lease = holdLease(token, claim.hooks, { leaseMs: 30 });
    await until(
      () => claim.state.renewals,
      (n) => n >= 2,
    );
    expect(lease.held()).toBe(true);
    lease.end();
  });

  it('[J1] aborts the work when a renewal finds the claim taken over', async () => {
    const token = claimToken();
    const claim = row(token);
    const lease = holdLease(token, claim.hooks, { leaseMs: 30 });
    claim.state.owner = claimToken(); // another process took the row after the lease ran out
    await until(() => lease.signal.aborted);
    expect(lease.held()).toBe(false);
    expect(claim.state.releases).toBe(0); // not ours to give back
    expect(String(lease.signal.reason)).toMatch(/taken over/);
  });

  it('[J3] is given back once when its process stops early: by group, or by the host signal', () => {
    const db = {};
    const other = {};
    const a = row(claimToken());
    const b = row(claimToken());
    const c = row(claimToken());
    const stop = new AbortController();
    const before = heldLeases();
    const la = holdLease(a.state.owner ?? '', a.hooks, { group: db });
    const lb = holdLease(b.state.owner ?? '', b.hooks, { group: other });
    const lc = holdLease(c.state.owner ?? '', c.hooks, { group: db, signal: stop.signal });
    expect(heldLeases()).toBe(before + 3);
    stop.abort();
    expect(lc.held()).toBe(false);
    expect(c.state).toMatchObject({ owner: null, releases: 1 });
    expect(releaseLeases(db)).toBe(1);
    expect(la.signal.aborted).toBe(true);
    expect(a.state).toMatchObject({ owner: null, releases: 1 });
    expect(lb.held()).toBe(true);
    la.release();
    expect(a.state.releases).toBe(1);
    lb.end();
    expect(heldLeases()).toBe(before);
  });

  it('[J1] lasts 45 seconds unless BRAIN_LEASE_MS says otherwise', () => {
    expect(leaseMs({})).toBe(45_000);
    expect(leaseMs({ BRAIN_LEASE_MS: '2000' })).toBe(2000);
    expect(leaseMs({ BRAIN_LEASE_MS: 'soon' })).toBe(45_000);
  });
});
