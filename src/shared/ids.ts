/**
 * How item and edge ids are derived (docs/SYNC_SPEC.md [S25]). Replicas make ids, and the
 * workspace server recomputes them from what an operation says, so an id can only be made in a
 * namespace its maker owns:
 * - a file, a note or a tree record in its creator's namespace (`user:<id>`): two members' files at the same
 *   path are two items, and nobody can make (or probe) an id of someone else's item;
 * - an entity face in the scope it was created in (the writer must be able to write there);
 * - a section under its file's id; an edge from its two ends, its type and, for a mention, where
 *   the mention is.
 * The hash is passed in (node:crypto on both sides): shared code imports no node module.
 */
import type { StorageKind } from './types.ts';

/**
 * What an id can name: the items' storage kinds, a connected repository's tree record
 * (docs/TREES.md [T13]), which syncs like a file in its creator's namespace but is no item, and the
 * three records of agent brains (docs/AGENTS.md [G12]): an agent (in its creator's namespace), a
 * brain version (under its agent's id) and an observation (in its recorder's namespace).
 */
export type IdKind = StorageKind | 'tree' | 'agent' | 'brain' | 'observation';

/** sha256 of a UTF-8 string, as lowercase hex. */
export type Sha256Hex = (text: string) => string;

const PREFIX: Record<IdKind, string> = {
  file: 'f',
  section: 's',
  note: 'n',
  entity: 'e',
  tree: 't',
  agent: 'a',
  brain: 'b',
  observation: 'o',
};

/** The ids this file makes for `kind`: its prefix and 20 hex digits (`f_0123…`). */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${PREFIX[kind]}_[0-9a-f]{20}$`);
}

/** Whether `text` has the shape of an id this file makes, of any kind. */
export function looksLikeId(text: string): boolean {
  return /^[a-z]_[0-9a-f]{20}$/.test(text);
}

/**
 * The namespace an item's id is made in: its creator for files, notes, tree records, agents and
 * observations, its scope at creation for entities, its file's id for sections, its agent's id
 * (carried in `file_id`) for a brain version.
 */
export function idNamespace(
  storageKind: IdKind,
  at: { creator: string; scope: string; fileId: string | null },
): string | null {
  if (storageKind === 'section' || storageKind === 'brain') return at.fileId;
  if (storageKind === 'entity') return at.scope;
  return `user:${at.creator}`;
}

/**
 * An item's id. Sections start with a hash of their file's id (a file's sections are neighbours
 * in the id indexes, which keeps indexing's write transactions small), then 48 bits of their key.
 */
export function deriveItemId(
  sha: Sha256Hex,
  workspaceId: string,
  storageKind: IdKind,
  namespace: string,
  sourceKey: string,
): string {
  if (storageKind === 'section') {
    return `s_${sha(namespace).slice(0, 8)}${sha(`${namespace}\0${sourceKey}`).slice(0, 12)}`;
  }
  return `${PREFIX[storageKind]}_${sha(`${workspaceId}\0${namespace}\0${sourceKey}`).slice(0, 20)}`;
}

/** An edge, grouped under its source item and type; `discriminator` tells parallel edges apart. */
export function deriveEdgeId(
  sha: Sha256Hex,
  from: string,
  type: string,
  to: string,
  discriminator = '',
): string {
  const key = discriminator ? `${from}\0${type}\0${to}\0${discriminator}` : `${from}\0${type}\0${to}`;
  return `g_${sha(`${from}\0${type}`).slice(0, 8)}${sha(key).slice(0, 12)}`;
}

/**
 * An observation's id (docs/AGENTS.md [G1]): from its workspace, the member who recorded it and a
 * part unique to the one write (a random UUID), so two replicas never make the same id and nobody
 * makes an id in another member's namespace.
 */
export function deriveObservationId(
  sha: Sha256Hex,
  workspaceId: string,
  user: string,
  unique: string,
): string {
  return deriveItemId(sha, workspaceId, 'observation', `user:${user}`, observationKey(unique));
}

/** The source key an observation travels with (docs/AGENTS.md [G12]): the server recomputes its id from it. */
export function observationKey(unique: string): string {
  return `observation:${unique}`;
}

/** The source key of an agent's record: its name. */
export function agentKey(name: string): string {
  return `agent:${name}`;
}

/** The source key of an agent's brain version: its number (under the agent's id). */
export function brainKey(number: number): string {
  return `v${number}`;
}

/**
 * What tells parallel edges apart, read from the edge's own props so that anyone can recompute
 * it: a mention by where it is in its item (`start-end`), else by the name used.
 */
export function edgeDiscriminator(type: string, props: string | null): string {
  if (type === 'FACT' && props) return factDiscriminator(props);
  if (type !== 'MENTIONS' || !props) return '';
  try {
    const p = JSON.parse(props) as { span?: { start?: unknown; end?: unknown } | null; name?: unknown };
    if (p.span && typeof p.span.start === 'number' && typeof p.span.end === 'number')
      return `${p.span.start}-${p.span.end}`;
    return typeof p.name === 'string' ? `name:${p.name}` : '';
  } catch {
    return '';
  }
}

/**
 * A fact a source states about an entity (docs/FACTS.md [K2]) is told apart by what it states: its
 * attribute and its statement, normalised (case and spacing).
 */
export function factKey(attribute: string | null, statement: string): string {
  return `${(attribute ?? '').trim().toLowerCase()}\u0000${statement.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

function factDiscriminator(props: string): string {
  try {
    const p = JSON.parse(props) as { attribute?: unknown; statement?: unknown };
    if (typeof p.statement !== 'string') return '';
    return `fact:${factKey(typeof p.attribute === 'string' ? p.attribute : null, p.statement)}`;
  } catch {
    return '';
  }
}

/** The id an edge must have: its ends, its type and, for a mention, where the mention is. */
export function expectedEdgeId(
  sha: Sha256Hex,
  edge: { type: string; from_id: string; to_id: string; props: string | null },
): string {
  return deriveEdgeId(sha, edge.from_id, edge.type, edge.to_id, edgeDiscriminator(edge.type, edge.props));
}

const USER_RE = /^[A-Za-z0-9._@-]{1,64}$/;
// The label may not itself contain `/user:` (no `agent:x/user:admin/user:mallory` look-alikes), line
// breaks or other control characters (as ONE_LINE_RE in src/shared/api/schemas.ts).
const UNDER_USER_RE = /^(?:(?!\/user:)[^\p{Cc}\u2028\u2029]){1,150}\/user:([A-Za-z0-9._@-]{1,64})$/u;

/**
 * The member an origin's actor names: a plain user id (`alice`), or a label kept under a user
 * (`agent:claude/user:alice`, `writeback:claude/user:alice`, `audit/user:alice`). Null when it
 * names no member (the server refuses such an origin, [S26]).
 */
export function originUser(actor: string): string | null {
  if (USER_RE.test(actor)) return actor;
  return UNDER_USER_RE.exec(actor)?.[1] ?? null;
}

/** An origin actor for work done by a labelled process (an agent, write-back, the audit) for a user. */
export function actorUnder(label: string, user: string): string {
  return `${label}/user:${user}`;
}
