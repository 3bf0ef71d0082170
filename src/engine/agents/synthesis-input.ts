/**
 * What one synthesis of an agent's brain reads, and the prompt it makes of it (docs/AGENTS.md
 * [G3]): the agent's unsynthesized observations of importance at least the floor (at most 50, most
 * important then newest first), every person's `human_*` observation since its last synthesis (the
 * newest 100 at most), its active brain, and the workspace's strategy note (the newest note of kind
 * `strategy`), each only when a reader of the agent's scope may read it. Every piece of stored text
 * is fenced as data (src/engine/read/framing.ts, docs/SECURITY.md [F1]).
 */
import { HUMAN_TYPE_PREFIX } from '#shared/api/ops/agents.ts';
import type { Db } from '../db/driver.ts';
import type { Message } from '../llm/client.ts';
import { createFrame } from '../read/framing.ts';
import { type AgentRow, activeVersion, parseBrain, readersScopes } from './agents.ts';
import { type Brain, citedIds, KNOWN_SECTIONS } from './brain-schema.ts';
import { SYNTHESIS } from './config.ts';

type InputObservation = {
  id: string;
  type: string;
  text: string | null;
  payload: string | null;
  importance: number;
  created_at: string;
  human: boolean;
};

export type SynthesisInput = {
  own: InputObservation[];
  human: InputObservation[];
  brain: Brain | null;
  strategy: { id: string; label: string; body: string } | null;
  /** When the inputs were read: people's observations up to it were fed ([G3]). */
  cutoff: string;
  /** How far people's observations are read by this synthesis: the next starts after it. */
  humanUntil: string;
};

const STRATEGY_CHARS = 8000;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Reads the inputs of the agent's synthesis as of `now`. */
export function gatherInput(db: Db, agent: AgentRow, minImportance: number, now: Date): SynthesisInput {
  const scopes = readersScopes(db, agent.scope);
  const own = db
    .prepare(
      `SELECT id, type, text, payload, importance, created_at, 0 AS human FROM observations
       WHERE agent_id = ? AND synthesized_at IS NULL AND importance >= ?
         AND scope IN (${marks(scopes.length)})
       ORDER BY importance DESC, created_at DESC, rowid DESC LIMIT ?`,
    )
    .all(agent.id, minImportance, ...scopes, SYNTHESIS.maxObservations) as InputObservation[];
  const cutoff = now.toISOString();
  const human = db
    .prepare(
      `SELECT id, type, text, payload, importance, created_at, 1 AS human FROM observations
       WHERE workspace_id = ? AND agent IS NULL AND substr(type, 1, ?) = ?
         AND created_at > ? AND created_at <= ? AND scope IN (${marks(scopes.length)})
       ORDER BY created_at, rowid LIMIT ?`,
    )
    .all(
      agent.workspace_id,
      HUMAN_TYPE_PREFIX.length,
      HUMAN_TYPE_PREFIX,
      agent.human_until ?? '',
      cutoff,
      ...scopes,
      SYNTHESIS.maxHuman,
    ) as InputObservation[];
  const active = activeVersion(db, agent);
  const note = db
    .prepare(
      `SELECT id, label, body FROM items WHERE workspace_id = ? AND storage_kind = 'note' AND kind = 'strategy'
         AND retired_at IS NULL AND scope IN (${marks(scopes.length)})
       ORDER BY updated_at DESC, rowid DESC LIMIT 1`,
    )
    .get(agent.workspace_id, ...scopes) as { id: string; label: string; body: string } | undefined;
  return {
    own: own.map((o) => ({ ...o, human: false })),
    human: human.map((o) => ({ ...o, human: true })),
    brain: active ? parseBrain(active) : null,
    strategy: note ? { ...note, body: note.body.slice(0, STRATEGY_CHARS) } : null,
    cutoff,
    // Oldest first: what did not fit is read by the next synthesis, none is skipped ([G3]).
    humanUntil:
      human.length === SYNTHESIS.maxHuman ? (human[human.length - 1]?.created_at ?? cutoff) : cutoff,
  };
}

/** The ids an entry of the new brain may cite: what was fed, and what the current brain cites. */
export function allowedIds(input: SynthesisInput): Set<string> {
  const ids = new Set([...input.own, ...input.human].map((o) => o.id));
  if (input.brain) for (const id of citedIds(input.brain)) ids.add(id);
  return ids;
}

const SYNTHESIS_SYSTEM = 'You are the synthesis pass of Org Brain agent brains.';

const RULES = [
  "Read the agent's current brain, the new observations and the strategy, and answer with the agent's new",
  'brain: ONE JSON object, nothing else, of this shape:',
  `{"summary": "…", "sections": {${KNOWN_SECTIONS.map((s) => `"${s}": [{"text": "…", "observation_ids": ["o_…"]}]`).join(', ')}}}`,
  '- Every entry cites at least one observation id it rests on, copied exactly from the ids given here (an',
  "  observation's id, or an id the current brain's entry already cites). An entry citing any other id is dropped.",
  '- Keep what still holds in the current brain (with its citations), merge duplicates, drop what the new',
  '  observations contradict, add what they teach. Short, actionable entries; other snake_case sections are allowed.',
  "- People's observations (human_*) are feedback from the agent's owners: weigh them highly.",
];

function observationText(o: InputObservation): string {
  return [o.text, o.payload].filter((t): t is string => t !== null).join('\n');
}

/** The messages of the synthesis: rules first, then every stored piece fenced as data. */
export function synthesisMessages(agent: AgentRow, input: SynthesisInput): Message[] {
  const all = [...input.own, ...input.human];
  const brainJson = input.brain ? JSON.stringify(input.brain, null, 1) : null;
  const frame = createFrame([
    ...all.map(observationText),
    ...all.map((o) => o.type),
    brainJson ?? '',
    input.strategy ? `${input.strategy.label}\n${input.strategy.body}` : '',
  ]);
  const list = (obs: InputObservation[]) =>
    obs
      .map(
        (o, i) =>
          `${i + 1}. id ${o.id}, importance ${o.importance}, at ${o.created_at}, type ${frame.inline(o.type, { what: 'type' })}\n${frame.fence(observationText(o), { n: i + 1, id: o.id })}`,
      )
      .join('\n');
  const parts = [
    `Agent: ${agent.name} (tier ${agent.tier}).`,
    `Current brain:\n${brainJson ? frame.fence(brainJson, { what: 'brain' }) : '(none yet)'}`,
    `Strategy:\n${input.strategy ? frame.fence(`${input.strategy.label}\n${input.strategy.body}`, { id: input.strategy.id }) : '(none)'}`,
    `The agent's new observations (${input.own.length}):\n${list(input.own) || '(none)'}`,
    `People's observations since the last synthesis (${input.human.length}):\n${list(input.human) || '(none)'}`,
  ];
  return [
    { role: 'system', content: `${SYNTHESIS_SYSTEM}\n${RULES.join('\n')}\n${frame.rule()}` },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
