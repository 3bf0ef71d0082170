import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HlcSchema } from '#shared/sync/protocol.ts';
import { compareVersions, formatHlc, type Hlc, parseHlc, ReplicaClock, receive, tick } from './clock.ts';
import { createReplica, type TestReplica } from './testing/replica.ts';

const hlcArb = fc.record({
  ms: fc.integer({ min: 0, max: 9_999_999_999_999 }),
  counter: fc.integer({ min: 0, max: 999_999 }),
  node: fc.stringMatching(/^[a-f0-9]{1,16}$/),
});

describe('[C1] hybrid logical clock', () => {
  it('formats to the protocol shape and parses back', () => {
    fc.assert(
      fc.property(hlcArb, (h) => {
        const text = formatHlc(h);
        expect(HlcSchema.safeParse(text).success).toBe(true);
        expect(parseHlc(text)).toEqual(h);
      }),
    );
  });

  it('string order is (ms, counter) order', () => {
    fc.assert(
      fc.property(hlcArb, hlcArb, (a, b) => {
        const byFields = a.ms !== b.ms ? Math.sign(a.ms - b.ms) : Math.sign(a.counter - b.counter);
        const s = Math.sign(formatHlc({ ...a, node: 'n' }).localeCompare(formatHlc({ ...b, node: 'n' })));
        expect(s).toBe(byFields);
      }),
    );
  });

  it('every tick is greater than the last, whatever the wall clock does', () => {
    fc.assert(
      fc.property(
        hlcArb,
        fc.array(fc.integer({ min: 0, max: 9_000_000_000_000 }), { maxLength: 50 }),
        (start, nows) => {
          let last: Hlc = start;
          for (const now of nows) {
            const next = tick(last, now);
            expect(formatHlc(next) > formatHlc(last)).toBe(true);
            expect(next.ms).toBeGreaterThanOrEqual(Math.min(now, next.ms));
            last = next;
          }
        },
      ),
    );
  });

  it('after receiving, the next tick is greater than both the remote and the local stamp', () => {
    fc.assert(
      fc.property(hlcArb, hlcArb, fc.integer({ min: 0, max: 9_000_000_000_000 }), (local, remote, now) => {
        const merged = receive(local, { ...remote, node: 'zz' });
        const next = tick(merged, now);
        const cmp = (x: Hlc) => `${formatHlc({ ...x, node: '' })}`;
        expect(cmp(next) > cmp(remote)).toBe(true);
        expect(cmp(next) > cmp(local)).toBe(true);
        expect(next.node).toBe(local.node);
      }),
    );
  });

  it('op id breaks ties deterministically', () => {
    expect(compareVersions({ hlc: 'a', opId: '1' }, { hlc: 'a', opId: '2' })).toBe(-1);
    expect(compareVersions({ hlc: 'b', opId: '1' }, { hlc: 'a', opId: '2' })).toBe(1);
    expect(compareVersions({ hlc: 'a', opId: '1' }, { hlc: 'a', opId: '1' })).toBe(0);
  });
});

describe('[C1] the replica clock is persisted', () => {
  let r: TestReplica | undefined;
  afterEach(() => r?.close());

  it('stays monotonic across reopen and when the wall clock goes back', () => {
    r = createReplica('clock');
    let now = 2_000_000_000_000;
    const a = new ReplicaClock(r.db, () => now).stamp();
    now -= 60_000; // the wall clock steps back a minute
    const b = new ReplicaClock(r.db, () => now).stamp();
    expect(b > a).toBe(true);
    const c = new ReplicaClock(r.db, () => now);
    const ahead = `${now + 120_000}-000005-other`; // two minutes ahead: within the bound ([S28])
    c.observe(ahead);
    const d = new ReplicaClock(r.db, () => now).stamp();
    expect(d > ahead).toBe(true);
    expect(
      d.endsWith(`-${(r.db.prepare('SELECT node FROM sync_state').get() as { node: string }).node}`),
    ).toBe(true);
  });
});

describe('[S28] a replica never adopts a clock far ahead of its own', () => {
  let r: TestReplica | undefined;
  afterEach(() => r?.close());

  it('ignores a remote stamp more than 5 minutes ahead, and heals a clock carried past it', () => {
    r = createReplica('clock-bound');
    const now = 2_000_000_000_000;
    const clock = new ReplicaClock(r.db, () => now);
    clock.observe('9999999999999-000000-hostile');
    clock.observe(`${now + 6 * 60_000}-000000-hostile`);
    const stamp = clock.stamp();
    expect(Number(stamp.slice(0, 13))).toBe(now);
    // A clock a release before the rule adopted is brought back to wall time when loaded.
    r.db.prepare("UPDATE sync_state SET hlc = '9999999999999-999999-x' WHERE id = 1").run();
    const healed = new ReplicaClock(r.db, () => now).stamp();
    expect(Number(healed.slice(0, 13))).toBe(now);
  });
});
