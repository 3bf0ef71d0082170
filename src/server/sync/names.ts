/**
 * Names are one line (docs/SYNC_SPEC.md [S38]). A replica prints an entity's name and each of its
 * aliases, a mention's name, a run id, a run's agent and an observation's type as one line
 * (`brain runs`, alias lists); a line break or another control character in one would split it into
 * aliases or forge the next line on every replica that pulls it. Every local surface refuses such
 * a name (ONE_LINE_RE, and agentNameProblem for an agent's), but a member's own script may push
 * anything, so the server checks what a pushed op carries again, before anything else about it.
 */
import { agentNameProblem } from '#shared/api/ops/agents.ts';
import { ONE_LINE_MESSAGE, ONE_LINE_RE } from '#shared/api/schemas.ts';
import type { Op, SyncEdge, SyncItem, SyncProposal } from '#shared/sync/protocol.ts';

/** Why this op's names may not be stored, naming its row and the field, or null. */
export function nameRefusal(op: Op): string | null {
  if (op.kind === 'item.upsert') return itemNames(op.item);
  if (op.kind === 'edge.upsert') return edgeNames(op.edge);
  if (op.kind === 'proposal.upsert') return proposalNames(op.proposal);
  return null;
}

function oneLine(row: string, field: string, value: string | null | undefined): string | null {
  return typeof value !== 'string' || ONE_LINE_RE.test(value)
    ? null
    : `${row}: ${field}: ${ONE_LINE_MESSAGE}`;
}

/**
 * An agent's name as replicas accept one: not `app` or `cli`, which mark a run a member ended
 * (docs/AGENTS.md [G2]). One line is checked first, so a refusal never quotes a control character.
 */
function agentName(row: string, field: string, name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const problem = oneLine(row, field, name);
  if (problem) return problem;
  const bad = agentNameProblem(name);
  return bad ? `${row}: ${field}: ${bad}` : null;
}

/**
 * The fields of an agent record's body (src/shared/sync/agent-records.ts), read loosely: a body that
 * is no record at all is refused by its own check (src/server/sync/agent-records.ts).
 */
function recordOf(body: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(body);
    return json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

function itemNames(item: SyncItem): string | null {
  const row = `${item.storage_kind} ${item.id}`;
  const run = oneLine(row, 'item.origin_run', item.origin_run);
  if (run) return run;
  if (item.storage_kind === 'entity') {
    const name =
      oneLine(row, 'item.label', item.label) ?? oneLine(row, 'item.canonical_value', item.canonical_value);
    if (name) return name;
    // Its aliases, one a line (entityAliases in src/engine/knowledge/graph.ts).
    for (const [i, alias] of item.body.split('\n').entries()) {
      const bad = oneLine(row, `item.body (alias ${i + 1})`, alias);
      if (bad) return bad;
    }
    return null;
  }
  if (item.storage_kind === 'agent') return agentName(row, 'item.body.name', recordOf(item.body).name);
  if (item.storage_kind === 'observation') {
    const r = recordOf(item.body);
    return (
      agentName(row, 'item.body.agent', r.agent) ??
      oneLine(row, 'item.body.run_id', text(r.run_id)) ??
      oneLine(row, 'item.body.type', text(r.type))
    );
  }
  return null;
}

function edgeNames(edge: SyncEdge): string | null {
  const row = `edge ${edge.id}`;
  const run = oneLine(row, 'edge.origin_run', edge.origin_run);
  if (run || edge.type !== 'MENTIONS' || edge.props === null) return run;
  // The name a mention used (observeMention in src/engine/knowledge/graph.ts).
  return oneLine(row, 'edge.props.name', text(recordOf(edge.props).name));
}

function proposalNames(p: SyncProposal): string | null {
  const row = `proposal ${p.id}`;
  // A run's agent may be `app` or `cli` (a run a member ended there): one line is all it needs.
  return oneLine(row, 'proposal.run_id', p.run_id) ?? oneLine(row, 'proposal.run.agent', p.run?.agent);
}
