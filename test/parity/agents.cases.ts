/**
 * Parity rows for observations (src/shared/api/ops/agents.ts, docs/AGENTS.md [G1], [G2]). Who may
 * send which type differs by surface on purpose ([G2]: an agent never human_*, a person only
 * human_*), so the writes here are the refusals every surface gives alike; the reads list two
 * observations recorded as the rows are built (one by an agent in a run, one a person's). The
 * agent-brain rows ([G3]–[G6]) read the agent that first observation made, set its tier (the same
 * answer each time) and give the refusals every surface gives alike (no chat model is configured).
 */
import { observe } from '#engine/agents/observations.ts';
import type { Case, ParityWorld } from './case.ts';

export function agentCases(w: ParityWorld): Case[] {
  const { db, workspaceId, user } = w.engine;
  observe(
    db,
    { workspaceId, user, agent: 'parity-coder', run: 'parity-run-1' },
    { type: 'gotcha', text: 'The lease file has no owner line.', importance: 0.8 },
    new Date('2026-12-01T09:00:00.000Z'),
  );
  observe(
    db,
    { workspaceId, user, agent: null, run: null },
    { type: 'human_feedback', payload: { thumbs: 'down', on: 'lease answer' } },
    new Date('2026-12-01T10:00:00.000Z'),
  );
  return [
    { name: 'every observation I can see', op: 'observations.list', input: {}, cli: ['observations'] },
    {
      name: "one agent's observations",
      op: 'observations.list',
      input: { agent: 'parity-coder' },
      cli: ['observations', '--agent', 'parity-coder'],
    },
    {
      name: "people's feedback no synthesis has read",
      op: 'observations.list',
      input: { type: 'human_feedback', unsynthesized: true },
      cli: ['observations', '--type', 'human_feedback', '--unsynthesized'],
    },
    {
      name: 'important ones, paged',
      op: 'observations.list',
      input: { min_importance: 0.7, limit: 1, offset: 0 },
      cli: ['observations', '--min-importance', '0.7', '--limit', '1', '--offset', '0'],
    },
    {
      name: 'an importance above 1 (refused)',
      op: 'observations.list',
      input: { min_importance: 2 },
      cli: ['observations', '--min-importance', '2'],
    },
    {
      name: 'an observation with neither text nor payload (refused)',
      op: 'observations.add',
      input: { type: 'gotcha' },
      cli: ['observe', '--type', 'gotcha'],
    },
    {
      name: 'an importance above 1 (refused)',
      op: 'observations.add',
      input: { type: 'gotcha', text: 'x', importance: 2 },
      cli: ['observe', '--type', 'gotcha', '--text', 'x', '--importance', '2'],
    },
    {
      name: 'a type over 64 characters (refused)',
      op: 'observations.add',
      input: { type: 't'.repeat(65), text: 'x' },
      cli: ['observe', '--type', 't'.repeat(65), '--text', 'x'],
    },
    // Agent brains ([G3]–[G6]): the agent row made by its first observation above.
    { name: 'the agents I can see', op: 'agents.list', input: {}, cli: ['agents', 'list'] },
    {
      name: "an agent's brain before any synthesis",
      op: 'agents.show',
      input: { agent: 'parity-coder' },
      cli: ['agents', 'show', 'parity-coder'],
    },
    {
      name: "an agent's versions (none yet)",
      op: 'agents.versions',
      input: { agent: 'parity-coder' },
      cli: ['agents', 'versions', 'parity-coder'],
    },
    {
      name: 'an agent no one can see (refused)',
      op: 'agents.show',
      input: { agent: 'nobody' },
      cli: ['agents', 'show', 'nobody'],
    },
    {
      name: 'setting a tier (the same answer every time)',
      op: 'agents.set',
      input: { agent: 'parity-coder', tier: 'lead' },
      cli: ['agents', 'set', 'parity-coder', '--tier', 'lead'],
    },
    {
      name: 'an unknown tier (refused)',
      op: 'agents.set',
      input: { agent: 'parity-coder', tier: 'boss' },
      cli: ['agents', 'set', 'parity-coder', '--tier', 'boss'],
    },
    {
      name: 'rolling back to a version that does not exist (refused)',
      op: 'agents.rollback',
      input: { agent: 'parity-coder', to: 3 },
      cli: ['agents', 'rollback', 'parity-coder', '--to', '3'],
    },
    {
      name: 'a diff of versions that do not exist (refused)',
      op: 'agents.diff',
      input: { agent: 'parity-coder', from: 1, to: 2 },
      cli: ['agents', 'diff', 'parity-coder', '1', '2'],
    },
    {
      name: 'synthesizing without a chat model (refused)',
      op: 'agents.synthesize',
      input: { agent: 'parity-coder', force: true },
      cli: ['agents', 'synthesize', 'parity-coder', '--force'],
    },
    { name: 'pruning (nothing is due to go)', op: 'agents.prune', input: {}, cli: ['agents', 'prune'] },
    {
      name: 'the settings, with a price set',
      op: 'agents.config',
      input: { prices: { 'parity-model': { input: 1, output: 2, cached: 0.5 } }, stale_days: 60 },
      cli: ['agents', 'config', '--clear-prices', '--price', 'parity-model=1,2,0.5', '--stale-days', '60'],
    },
  ];
}
