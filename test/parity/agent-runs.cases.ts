/**
 * Parity rows for the third slice of agent brains (src/shared/api/ops/agent-runs.ts, docs/AGENTS.md
 * [G8]–[G10]): the effectiveness of the agent the agents rows' first observation made (no versions:
 * no runs, insufficient data), and the refusals every surface gives alike (comparing versions it
 * does not have, sharing with a team that does not exist, a split out of range).
 */
import type { Case } from './case.ts';

export function agentRunCases(): Case[] {
  return [
    {
      name: "an agent's effectiveness with no versions yet",
      op: 'agents.effectiveness',
      input: { agent: 'parity-coder' },
      cli: ['agents', 'effectiveness', 'parity-coder'],
    },
    {
      name: 'the effectiveness of an agent nobody has (refused)',
      op: 'agents.effectiveness',
      input: { agent: 'parity-nobody' },
      cli: ['agents', 'effectiveness', 'parity-nobody'],
    },
    {
      name: 'comparing versions the agent does not have (refused)',
      op: 'agents.compare',
      input: { agent: 'parity-coder', versions: [1, 2] },
      cli: ['agents', 'compare', 'parity-coder', '--versions', '1,2'],
    },
    {
      name: 'a split above 99 (refused)',
      op: 'agents.compare',
      input: { agent: 'parity-coder', versions: [1, 2], split: 100 },
      cli: ['agents', 'compare', 'parity-coder', '--versions', '1,2', '--split', '100'],
    },
    {
      name: 'sharing with a team that does not exist (refused)',
      op: 'agents.share',
      input: { agent: 'parity-coder', scope: 'team:nope' },
      cli: ['agents', 'share', 'parity-coder', '--scope', 'team:nope'],
    },
  ];
}
