/** buildX() factories for protocol ops: valid by default, overridable per test. */
import { createHash, randomUUID } from 'node:crypto';
import type { Op, SyncEdge, SyncItem } from '../../src/shared/sync/protocol.ts';

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

export function buildDecisionOp(scope = 'org', opts: { hlc?: string; opId?: string } = {}): Op {
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'proposal.decide',
    scope,
    proposalId: 'p_1',
    decision: 'approved',
    reason: null,
  };
}
