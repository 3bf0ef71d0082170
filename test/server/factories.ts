/** buildX() factories for protocol ops: valid by default, overridable per test. */
import { createHash, randomUUID } from 'node:crypto';
import type { Op, SyncEdge, SyncItem, SyncProposal } from '../../src/shared/sync/protocol.ts';

export function itemId(name: string, kind: 'n' | 'f' | 's' | 'e' = 'n'): string {
  return `${kind}_${createHash('sha256').update(name).digest('hex').slice(0, 20)}`;
}

export function edgeId(name: string): string {
  return `g_${createHash('sha256').update(name).digest('hex').slice(0, 20)}`;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An hlc at `ms` (relative to 2026-01-01) with a counter and a node id. */
export function hlc(ms: number, counter = 0, node = 'node1'): string {
  return `${String(1_767_225_600_000 + ms).padStart(13, '0')}-${String(counter).padStart(6, '0')}-${node}`;
}

export function buildItem(overrides: Partial<SyncItem> & { id: string }): SyncItem {
  return {
    storage_kind: 'note',
    kind: 'note',
    label: `label of ${overrides.id}`,
    summary: null,
    body: `body of ${overrides.id}`,
    source_key: `note:${overrides.id}`,
    canonical_type: null,
    canonical_value: null,
    blob: null,
    format: null,
    size: null,
    file_id: null,
    ordinal: null,
    locator: null,
    indexed: 0,
    health: null,
    scope: 'org',
    origin_actor: 'someone',
    origin_source: 'test',
    origin_run: null,
    origin_at: '2026-01-01T00:00:00.000Z',
    occurred_at: null,
    retired_at: null,
    superseded_by: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1,
    vector: null,
    ...overrides,
  };
}

export function buildItemOp(
  id: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string; item?: Partial<SyncItem> } = {},
): Extract<Op, { kind: 'item.upsert' }> {
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'item.upsert',
    scope,
    item: buildItem({ id, scope, ...opts.item }),
  };
}

export function buildEdgeOp(
  from: string,
  to: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string; edge?: Partial<SyncEdge> } = {},
): Extract<Op, { kind: 'edge.upsert' }> {
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'edge.upsert',
    scope,
    edge: {
      id: edgeId(`${from}->${to}`),
      type: 'LINKS_TO',
      from_id: from,
      to_id: to,
      props: null,
      origin_actor: 'someone',
      origin_source: 'test',
      origin_run: null,
      origin_at: '2026-01-01T00:00:00.000Z',
      retired_at: null,
      ...opts.edge,
    },
  };
}

/** A proposal id (a uuid) made from a name, the same every time. */
export function proposalId(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function buildProposal(overrides: Partial<SyncProposal> & { id: string }): SyncProposal {
  return {
    run_id: `run-${overrides.id.slice(0, 8)}`,
    ordinal: 0,
    user_id: 'someone',
    kind: 'decision',
    label: `label of ${overrides.id}`,
    body: `body of ${overrides.id}`,
    scope: 'org',
    confidence: 0.6,
    sensitive: 0,
    sensitive_reason: null,
    detected: '[]',
    decision: 'review',
    reason: 'low confidence (0.60 < 0.75)',
    created_at: '2026-01-01T00:00:00.000Z',
    run: {
      agent: 'test-agent',
      status: 'succeeded',
      user: 'someone',
      ended_at: '2026-01-01T00:00:00.000Z',
      work_products: 'What the run did.',
    },
    ...overrides,
  };
}

export function buildProposalOp(
  id: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string; proposal?: Partial<SyncProposal> } = {},
): Extract<Op, { kind: 'proposal.upsert' }> {
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'proposal.upsert',
    scope,
    proposal: buildProposal({ id, scope, ...opts.proposal }),
  };
}

type Decision = Extract<Op, { kind: 'proposal.decide' }>;

/** A decision of proposal `id`: an approval writing note `itemId('note-of-<id>')` unless told otherwise. */
export function buildDecisionOp(
  id: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string } & Partial<Omit<Decision, 'id' | 'hlc' | 'kind' | 'scope'>> = {},
): Decision {
  const { hlc: at, opId, ...rest } = opts;
  const decision = rest.decision ?? 'approved';
  return {
    id: opId ?? randomUUID(),
    hlc: at ?? hlc(2),
    kind: 'proposal.decide',
    scope,
    proposalId: id,
    decision,
    reason: decision === 'rejected' ? 'not true' : null,
    label: `label of ${id}`,
    body: `body of ${id}`,
    edited: false,
    itemId: decision === 'approved' ? itemId(`note-of-${id}`) : null,
    decidedAt: '2026-01-01T00:00:00.000Z',
    ...rest,
  };
}
