/** Canned agents, versions and observations for the Agents screen's component tests. */
import type { Outputs } from '#shared/api/contract.ts';
import type { Transport } from '../../lib/transport.ts';
import { shellAnswers } from '../../test/canned.ts';
import { type FakeTransport, fakeTransport } from '../../test/fake-transport.ts';
import type { Effectiveness } from './agents-api.ts';

type Summary = Outputs['agents.list']['agents'][number];
type Version = Outputs['agents.versions']['versions'][number];
type Observation = Outputs['observations.list']['observations'][number];
type Brain = NonNullable<Outputs['agents.show']['brain']>;

const AT = '2026-11-30T10:00:00.000Z';

export function agentSummary(name: string, patch: Partial<Summary> = {}): Summary {
  return {
    name,
    tier: 'default',
    scope: 'user:ada',
    activeVersion: null,
    versions: 0,
    waiting: 0,
    threshold: 20,
    lastSynthesizedAt: null,
    costThisWeekUsd: null,
    ...patch,
  };
}

export function version(number: number, patch: Partial<Version> = {}): Version {
  return {
    number,
    parent: number > 1 ? number - 1 : null,
    observationIds: [],
    model: 'scripted',
    inputTokens: 1000 * number,
    outputTokens: 100 * number,
    cachedTokens: null,
    costUsd: null,
    createdAt: AT,
    createdBy: 'ada',
    ...patch,
  };
}

export function observation(n: number, patch: Partial<Observation> = {}): Observation {
  return {
    id: `o_${String(n).padStart(20, '0')}`,
    agent: 'coder',
    type: 'gotcha',
    text: `Lesson ${n}`,
    payload: null,
    importance: 0.5,
    scope: 'user:ada',
    user: 'ada',
    run: null,
    createdAt: AT,
    synthesizedAt: null,
    synthesizedVersion: null,
    ...patch,
  };
}

const BRAIN: Brain = {
  summary: 'What coder learned',
  sections: {
    gotchas: [{ text: 'Tests need PGlite', observation_ids: [observation(1).id] }],
    conventions: [{ text: 'Use named exports', observation_ids: [observation(2).id] }],
  },
};

/** An engine holding one agent `coder` with versions 1–3 (3 active) and two observations. */
export function agentEngine(): FakeTransport {
  let active = 3;
  const versions = [version(3, { costUsd: 0.0123 }), version(2), version(1, { costUsd: 0.5 })];
  const obs = [observation(2), observation(1, { type: 'decision', importance: 0.8 })];
  const t = fakeTransport(shellAnswers());
  const summary = () => agentSummary('coder', { activeVersion: active, versions: 3, waiting: 2 });
  t.answer('agents.list', () => ({ agents: [summary()] }));
  t.answer('agents.show', () => ({
    agent: summary(),
    brain: BRAIN,
    version: versions.find((v) => v.number === active) ?? null,
  }));
  t.answer('agents.versions', () => ({ agent: 'coder', activeVersion: active, versions }));
  t.answer('agents.rollback', (input) => {
    const previous = active;
    active = input.to;
    return { agent: 'coder', activeVersion: active, previous };
  });
  t.answer('observations.list', (input) => {
    const found = obs.filter(
      (o) => (!input.type || o.type === input.type) && o.importance >= (input.min_importance ?? 0),
    );
    return { observations: found, total: found.length };
  });
  return t;
}

/**
 * Answers an operation the contract may not hold yet (agents.effectiveness) around `t`: with `data`,
 * or, with none, as a host without it answers.
 */
export function withEffectiveness(t: FakeTransport, data: Effectiveness | null): FakeTransport {
  const invoke: Transport['invoke'] = async (name, input) => {
    if (name !== 'agents.effectiveness') return t.invoke(name, input);
    (t.calls as { name: string; input: unknown }[]).push({ name, input });
    return data
      ? { ok: true, data }
      : { ok: false, error: { code: 'not-found', message: 'Unknown operation agents.effectiveness.' } };
  };
  return { ...t, invoke };
}
