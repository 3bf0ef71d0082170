import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '#shared/api/bridge.ts';
import {
  type EngineNotice,
  EngineSupervisor,
  RESTART_POLICY,
  restartDelay,
  type SupervisedEngine,
} from './engine-supervisor.ts';

describe('restartDelay ([N13] in docs/PACKAGING.md)', () => {
  it('waits longer after each recent stop and gives up after too many', () => {
    expect(restartDelay([], 100_000)).toBe(500);
    expect(restartDelay([99_000], 100_000)).toBe(2000);
    expect(restartDelay([98_000, 99_000], 100_000)).toBe(5000);
    expect(restartDelay([97_000, 98_000, 99_000], 100_000)).toBeNull();
  });

  it('forgets stops older than the window', () => {
    const old = 100_000 - RESTART_POLICY.windowMs - 1;
    expect(restartDelay([old, old, old], 100_000)).toBe(500);
  });
});

type Fake = SupervisedEngine & { crash: (reason: string) => void; calls: string[]; stopped: boolean };

function harness() {
  const engines: Fake[] = [];
  const notices: EngineNotice[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  let clock = 1_000_000;
  const supervisor = new EngineSupervisor({
    start: (onExit) => {
      const fake: Fake = {
        calls: [],
        stopped: false,
        crash: (reason) => onExit(reason),
        invoke: async (name): Promise<BridgeResult> => {
          fake.calls.push(name);
          return { ok: true, data: { from: engines.indexOf(fake) } };
        },
        stop: async () => {
          fake.stopped = true;
        },
      };
      engines.push(fake);
      return fake;
    },
    notify: (n) => notices.push(n),
    now: () => clock,
    schedule: (fn, ms) => timers.push({ fn, ms }),
  });
  return {
    supervisor,
    engines,
    notices,
    timers,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

describe('EngineSupervisor', () => {
  it('starts one engine and relays calls to it', async () => {
    const h = harness();
    expect(h.engines).toHaveLength(1);
    expect(await h.supervisor.invoke('status.get', {})).toEqual({ ok: true, data: { from: 0 } });
    expect(h.engines[0]?.calls).toEqual(['status.get']);
  });

  it('starts a new engine after a crash, tells the window, and holds calls until it runs', async () => {
    const h = harness();
    h.engines[0]?.crash('The engine process stopped (exit code 9).');
    expect(h.notices).toEqual([
      { kind: 'restarting', reason: 'The engine process stopped (exit code 9).', attempt: 1 },
    ]);
    expect(h.timers.map((t) => t.ms)).toEqual([500]);
    const waiting = h.supervisor.invoke('files.list', {});
    h.timers[0]?.fn();
    expect(await waiting).toEqual({ ok: true, data: { from: 1 } });
    expect(h.engines).toHaveLength(2);
    expect(h.engines[0]?.calls).toEqual([]);
  });

  it('gives up after three crashes within a minute, and says so on every call', async () => {
    const h = harness();
    for (let i = 0; i < 3; i++) {
      h.engines[i]?.crash(`crash ${i}`);
      h.timers[i]?.fn();
      h.tick(1000);
    }
    expect(h.engines).toHaveLength(4);
    h.engines[3]?.crash('crash 3');
    expect(h.notices.at(-1)).toEqual({ kind: 'gave-up', reason: 'crash 3' });
    expect(h.engines).toHaveLength(4);
    const res = await h.supervisor.invoke('files.list', {});
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error).toEqual({
      code: 'engine-unavailable',
      message: 'The engine stopped and could not be started again (crash 3). Restart Org Brain.',
    });
  });

  it('ignores a late exit of an engine it already replaced', () => {
    const h = harness();
    h.engines[0]?.crash('first');
    h.timers[0]?.fn();
    h.engines[0]?.crash('first, again');
    expect(h.notices).toHaveLength(1);
    expect(h.timers).toHaveLength(1);
  });

  it('starts nothing again once stopped', async () => {
    const h = harness();
    await h.supervisor.stop();
    expect(h.engines[0]?.stopped).toBe(true);
    h.engines[0]?.crash('exit after shutdown');
    expect(h.notices).toEqual([]);
    expect(h.timers).toEqual([]);
    expect((await h.supervisor.invoke('status.get', {})).ok).toBe(false);
  });
});
