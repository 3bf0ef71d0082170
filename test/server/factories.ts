/**
 * buildX() factories for protocol ops: valid by default, overridable per test. Ids are made the
 * way replicas make them ([S25]): `itemId(name, kind, owner)` is the id of a note (or file) named
 * `name` made by `owner` (default `admin`) in the test workspace (resetDb gives every test the same
 * workspace id), and buildItem fills the source key, kind and origin that id stands for.
 */
import { createHash, randomUUID } from 'node:crypto';
import { agentKey, deriveItemId, expectedEdgeId, type IdKind, type Sha256Hex } from '#shared/ids.ts';
import type { Op, SyncEdge, SyncItem, SyncProposal } from '#shared/sync/protocol.ts';

export const TEST_WORKSPACE = 'w_00000000000000000001';

const sha: Sha256Hex = (text) => createHash('sha256').update(text).digest('hex');
const KINDS: Record<'n' | 'f' | 'e' | 't', IdKind> = { n: 'note', f: 'file', e: 'entity', t: 'tree' };
type Made = { storage_kind: IdKind; source_key: string; origin_actor: string; file_id?: string };
const made = new Map<string, Made>();

/**
 * The id `owner` gives a note (`n`), file (`f`) or tree record (`t`) named `name`; an entity (`e`)
 * is made in `owner` = its scope.
 */
export function itemId(
  name: string,
  kind: 'n' | 'f' | 'e' | 't' = 'n',
  owner = 'admin',
  workspace = TEST_WORKSPACE,
): string {
  const storageKind = KINDS[kind];
  const sourceKey = `${storageKind}:${name}`;
  const namespace = storageKind === 'entity' ? owner : `user:${owner}`;
  const id = deriveItemId(sha, workspace, storageKind, namespace, sourceKey);
  made.set(id, {
    storage_kind: storageKind,
    source_key: sourceKey,
    origin_actor: storageKind === 'entity' ? 'admin' : owner,
  });
  return id;
}

/** A section `name` of file `fileId`: its id derives from the file's ([S25]). */
export function sectionOf(fileId: string, name: string, owner = 'admin'): string {
  const sourceKey = `section:${name}`;
  const id = deriveItemId(sha, TEST_WORKSPACE, 'section', fileId, sourceKey);
  made.set(id, { storage_kind: 'section', source_key: sourceKey, origin_actor: owner, file_id: fileId });
  return id;
}

/** What `itemId` made an id from (a test may build an item of an id it did not make: its own fields then). */
function madeOf(id: string): Partial<Made> {
  return made.get(id) ?? {};
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An hlc at `ms` (relative to 2026-01-01) with a counter and a node id. */
export function hlc(ms: number, counter = 0, node = 'node1'): string {
  return `${String(1_767_225_600_000 + ms).padStart(13, '0')}-${String(counter).padStart(6, '0')}-${node}`;
}

function buildItem(overrides: Partial<SyncItem> & { id: string }): SyncItem {
  const m = madeOf(overrides.id);
  return {
    storage_kind: m.storage_kind ?? 'note',
    kind: 'note',
    label: `label of ${overrides.id}`,
    summary: null,
    body: `body of ${overrides.id}`,
    source_key: m.source_key ?? `note:${overrides.id}`,
    canonical_type: null,
    canonical_value: null,
    blob: null,
    format: null,
    size: null,
    file_id: m.file_id ?? null,
    ordinal: null,
    locator: null,
    indexed: 0,
    health: null,
    scope: 'org',
    origin_actor: m.origin_actor ?? 'admin',
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

/** An edge op; its id is the one its ends, type and props give ([S25]) unless a test names one. */
export function buildEdgeOp(
  from: string,
  to: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string; edge?: Partial<SyncEdge> } = {},
): Extract<Op, { kind: 'edge.upsert' }> {
  const fields: Omit<SyncEdge, 'id'> = {
    type: 'LINKS_TO',
    from_id: from,
    to_id: to,
    props: null,
    origin_actor: 'admin',
    origin_source: 'test',
    origin_run: null,
    origin_at: '2026-01-01T00:00:00.000Z',
    retired_at: null,
    ...opts.edge,
  };
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'edge.upsert',
    scope,
    edge: { id: opts.edge?.id ?? expectedEdgeId(sha, fields), ...fields },
  };
}

/** A proposal id (a uuid) made from a name, the same every time. */
export function proposalId(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function buildProposal(overrides: Partial<SyncProposal> & { id: string }): SyncProposal {
  return {
    run_id: `run-${overrides.id.slice(0, 8)}`,
    ordinal: 0,
    user_id: 'admin',
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
      user: 'admin',
      ended_at: '2026-01-01T00:00:00.000Z',
      work_products: 'What the run did.',
    },
    ...overrides,
  };
}

/** A proposal made by `by` (default `admin`): its run is theirs ([S26]). */
export function buildProposalOp(
  id: string,
  scope = 'org',
  opts: { hlc?: string; opId?: string; by?: string; proposal?: Partial<SyncProposal> } = {},
): Extract<Op, { kind: 'proposal.upsert' }> {
  const base = buildProposal({ id, scope });
  const by = opts.by ?? 'admin';
  return {
    id: opts.opId ?? randomUUID(),
    hlc: opts.hlc ?? hlc(1),
    kind: 'proposal.upsert',
    scope,
    proposal: {
      ...base,
      user_id: by,
      run: base.run ? { ...base.run, user: by } : null,
      ...opts.proposal,
    },
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

/** The id of `creator`'s agent `name`, made in their namespace as their replica makes it. */
export const agentIdOf = (creator: string, name = 'coder') =>
  deriveItemId(sha, TEST_WORKSPACE, 'agent', `user:${creator}`, agentKey(name));

/** `creator`'s agent record `name` in `scope`, as their replica would push it. */
export function buildAgentOp(
  creator: string,
  scope: string,
  ms: number,
  opts: { name?: string; active?: number | null } = {},
) {
  const name = opts.name ?? 'coder';
  const body = JSON.stringify({
    name,
    tier: 'default',
    active_version: opts.active ?? null,
    last_synthesized_at: null,
    human_until: null,
    compare: null,
  });
  const item: Partial<SyncItem> = {
    storage_kind: 'agent',
    kind: 'agent',
    label: name,
    body,
    source_key: agentKey(name),
    origin_actor: creator,
  };
  return buildItemOp(agentIdOf(creator, name), scope, { hlc: hlc(ms), item });
}
