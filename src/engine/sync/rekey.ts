/**
 * Joining a server re-keys the replica in one transaction. Item ids derive from the workspace id,
 * a namespace and the source key (src/shared/ids.ts, docs/SYNC_SPEC.md [S25]); a replica made its
 * own workspace on first launch, so its items get the ids the server workspace gives them: two
 * devices of one member that added the same file then hold the same item. Everything that names
 * an item follows (file_id, superseded_by, edges and their ids, jobs, the notes approved
 * proposals wrote), and the local user's own scope, rows and origins (proposals they ran or
 * decided too) become the server user's: the local acting user becomes that user. An origin that
 * names no member (written before origins named their user) is kept under that user. Rowids do not
 * change, so the FTS and vector rows stay attached. History (telemetry, chat citations) keeps the
 * old ids. The same re-keying, with the workspace unchanged, upgrades a replica whose ids were made
 * the way releases before sync protocol 2 made them (migration 0011).
 */
import { actorUnder, edgeDiscriminator, originUser } from '#shared/ids.ts';
import type { StorageKind } from '#shared/types.ts';
import { type Db, stmt } from '../db/driver.ts';
import {
  agentId,
  brainVersionId,
  edgeId,
  entityItemId,
  observationId,
  ownedItemId,
  sectionId,
} from '../ids.ts';
import { vecUpsert } from '../read/items.ts';
import { recordItemId } from '../tree/share.ts';
import { ensureUser } from '../workspace.ts';

export type RekeyResult = { items: number; edges: number };

type ItemKeys = {
  rowid: number;
  id: string;
  storage_kind: StorageKind;
  source_key: string;
  file_id: string | null;
  superseded_by: string | null;
  scope: string;
  origin_actor: string;
  origin_source: string;
  origin_run: string | null;
  embedded_model: string | null;
};

type EdgeKeys = {
  id: string;
  type: string;
  from_id: string;
  to_id: string;
  props: string | null;
  origin_actor: string;
  origin_source: string;
  origin_run: string | null;
};

/** Must run inside the caller's write transaction, before the replica records changes to send. */
export function rekeyReplica(
  db: Db,
  target: { workspaceId: string; fromUser: string; toUser: string; force?: boolean },
): RekeyResult {
  const fromWs = (stmt(db, "SELECT value FROM meta WHERE key = 'workspace_id'").get() as { value: string })
    .value;
  ensureUser(db, target.toUser);
  const renameUser = target.fromUser !== target.toUser;
  const userScope = (s: string) =>
    renameUser && s === `user:${target.fromUser}` ? `user:${target.toUser}` : s;
  const renamed = (a: string) => (renameUser && a === target.fromUser ? target.toUser : a);
  const runUser = (run: string | null) =>
    run
      ? ((
          stmt(db, 'SELECT user_id FROM runs WHERE id = ?').get(run) as { user_id: string | null } | undefined
        )?.user_id ?? null)
      : null;
  // Every origin names a member ([S26]). Write-back and audit origins written before they did
  // named only the agent or the pass: they are kept under the run's user, else this replica's.
  const actor = (a: string, source = '', run: string | null = null) => {
    if (!a.includes('/user:') && source === 'writeback')
      return actorUnder(`writeback:${a}`, renamed(runUser(run) ?? target.toUser));
    if (!a.includes('/user:') && source === 'audit') return actorUnder('audit', target.toUser);
    const named = renameOrigin(a, target.fromUser, target.toUser);
    return originUser(named) ? named : actorUnder(a, target.toUser);
  };
  if (fromWs === target.workspaceId && !renameUser && !target.force) return { items: 0, edges: 0 };

  const items = stmt(
    db,
    `SELECT rowid, id, storage_kind, source_key, file_id, superseded_by, scope, origin_actor, origin_source,
     origin_run, embedded_model FROM items`,
  ).all() as ItemKeys[];
  const idFor = (r: ItemKeys, fileIds: Map<string, string>): string => {
    if (r.storage_kind === 'section')
      return sectionId(fileIds.get(r.file_id ?? '') ?? r.file_id ?? '', r.source_key);
    if (r.storage_kind === 'entity')
      return entityItemId(target.workspaceId, userScope(r.scope), r.source_key);
    const owner = originUser(actor(r.origin_actor, r.origin_source, r.origin_run)) ?? target.toUser;
    return ownedItemId(target.workspaceId, r.storage_kind, owner, r.source_key);
  };
  // Sections are keyed by their file's new id: files and the rest first.
  const newId = new Map<string, string>();
  for (const r of items) if (r.storage_kind !== 'section') newId.set(r.id, idFor(r, newId));
  for (const r of items) if (r.storage_kind === 'section') newId.set(r.id, idFor(r, newId));
  const mapId = (id: string | null) => (id === null ? null : (newId.get(id) ?? id));
  const update = stmt(
    db,
    `UPDATE items SET id = ?, workspace_id = ?, file_id = ?, superseded_by = ?, scope = ?, origin_actor = ?
     WHERE rowid = ?`,
  );
  for (const r of items) {
    const scope = userScope(r.scope);
    update.run(
      mapId(r.id),
      target.workspaceId,
      mapId(r.file_id),
      mapId(r.superseded_by),
      scope,
      actor(r.origin_actor, r.origin_source, r.origin_run),
      r.rowid,
    );
    if (scope !== r.scope && r.embedded_model) refileVector(db, r, scope);
  }
  const edges = stmt(
    db,
    'SELECT id, type, from_id, to_id, props, origin_actor, origin_source, origin_run FROM edges',
  ).all() as EdgeKeys[];
  const updateEdge = stmt(
    db,
    'UPDATE edges SET id = ?, from_id = ?, to_id = ?, origin_actor = ? WHERE id = ?',
  );
  for (const e of edges) {
    const from = mapId(e.from_id) as string;
    const to = mapId(e.to_id) as string;
    updateEdge.run(
      newEdgeId(e, from, to),
      from,
      to,
      actor(e.origin_actor, e.origin_source, e.origin_run),
      e.id,
    );
  }
  const updateJob = stmt(db, 'UPDATE jobs SET item_id = ? WHERE item_id = ?');
  for (const [oldId, id] of newId) updateJob.run(id, oldId);
  // Migration 0011 re-keys a replica before the tree tables exist (0012, 0013).
  if (hasColumn(db, 'tree_sources', 'item_id')) rekeyTrees(db, target.workspaceId, newId, renamed, userScope);
  rekeyProposals(db, mapId, userScope, actor);
  if (hasColumn(db, 'observations', 'key')) rekeyAgentBrains(db, target.workspaceId, renamed, userScope);
  if (renameUser) renameLocalUser(db, target.fromUser, target.toUser);
  stmt(db, 'UPDATE runs SET workspace_id = ?').run(target.workspaceId);
  stmt(db, "UPDATE meta SET value = ? WHERE key = 'workspace_id'").run(target.workspaceId);
  return { items: items.length, edges: edges.length };
}

/**
 * The origin `actor` with the member it names (plainly, `alice`, or under a label,
 * `agent:claude/user:alice`) changed from `from` to `to`, its label kept; an origin naming anyone
 * else, or no member, is returned as it is. Joining renames the local user's origins with it, and
 * an import ([N19] in docs/PACKAGING.md) the origins of what it puts in the importer's own scope.
 */
export function renameOrigin(actor: string, from: string, to: string): string {
  if (from === to || originUser(actor) !== from) return actor;
  return actor === from ? to : actorUnder(actor.slice(0, -`/user:${from}`.length), to);
}

type ProposalKeys = {
  id: string;
  item_id: string | null;
  scope: string;
  user_id: string | null;
  decided_by: string | null;
};

/** Proposals name a note, a scope and users: they follow the items and the user (they sync too). */
function rekeyProposals(
  db: Db,
  mapId: (id: string | null) => string | null,
  userScope: (s: string) => string,
  actor: (a: string) => string,
): void {
  const rows = stmt(
    db,
    'SELECT id, item_id, scope, user_id, decided_by FROM proposals',
  ).all() as ProposalKeys[];
  const update = stmt(
    db,
    'UPDATE proposals SET item_id = ?, scope = ?, user_id = ?, decided_by = ? WHERE id = ?',
  );
  for (const p of rows) {
    update.run(
      mapId(p.item_id),
      userScope(p.scope),
      p.user_id === null ? null : actor(p.user_id),
      p.decided_by === null ? null : actor(p.decided_by),
      p.id,
    );
  }
}

/**
 * Edge ids derive from their ends, their type and, for mentions, where the mention is (read from
 * the props): recomputed the way the server recomputes them ([S25]).
 */
function newEdgeId(e: EdgeKeys, from: string, to: string): string {
  return edgeId(from, e.type, to, edgeDiscriminator(e.type, e.props));
}

function refileVector(db: Db, r: ItemKeys, scope: string): void {
  const hit = stmt(db, 'SELECT embedding FROM vec_items WHERE item_rowid = ?').get(BigInt(r.rowid)) as
    | { embedding: Buffer }
    | undefined;
  if (!hit || !r.embedded_model) return;
  const vector = new Float32Array(new Uint8Array(hit.embedding).buffer);
  vecUpsert(db, { rowid: r.rowid, storage_kind: r.storage_kind, scope }, r.embedded_model, vector);
}

/**
 * Repositories connected here follow their creator and scope; their records' ids are made again in
 * the new workspace (docs/TREES.md [T13]). A tree received from another replica stays as it is.
 */
function rekeyTrees(
  db: Db,
  workspaceId: string,
  newId: ReadonlyMap<string, string>,
  renamed: (user: string) => string,
  userScope: (scope: string) => string,
): void {
  const nodes = stmt(db, 'SELECT source_id, id, item_id FROM tree_nodes WHERE item_id IS NOT NULL').all() as {
    source_id: string;
    id: string;
    item_id: string;
  }[];
  const updateNode = stmt(db, 'UPDATE tree_nodes SET item_id = ? WHERE source_id = ? AND id = ?');
  for (const n of nodes) {
    const id = newId.get(n.item_id);
    if (id && id !== n.item_id) updateNode.run(id, n.source_id, n.id);
  }
  const rows = stmt(db, 'SELECT id, scope, created_by FROM tree_sources WHERE remote = 0').all() as {
    id: string;
    scope: string;
    created_by: string;
  }[];
  const update = stmt(db, 'UPDATE tree_sources SET created_by = ?, scope = ?, item_id = ? WHERE id = ?');
  for (const r of rows) {
    const creator = renamed(r.created_by);
    update.run(creator, userScope(r.scope), recordItemId(workspaceId, creator, r.id), r.id);
  }
}

/**
 * Agent brains (docs/AGENTS.md [G1], [G12]) follow the workspace and the member: each agent's id
 * made anew from its creator and name, each version's from its agent's id and number, each
 * observation's from its member and key; versions' lists of the observations they read and the
 * ids their brains cite follow. Their content stays; the gate of migration 0017 lets only this through.
 */
function rekeyAgentBrains(
  db: Db,
  workspaceId: string,
  renamed: (user: string) => string,
  userScope: (scope: string) => string,
): void {
  if (!hasColumn(db, 'agents', 'id')) return;
  stmt(db, 'UPDATE observation_prune_gate SET open = 1 WHERE id = 1').run();
  const agents = new Map<string, string>();
  for (const a of stmt(db, 'SELECT id, name, creator, scope FROM agents').all() as {
    id: string;
    name: string;
    creator: string;
    scope: string;
  }[]) {
    const creator = renamed(a.creator);
    const id = agentId(workspaceId, creator, a.name);
    agents.set(a.id, id);
    stmt(db, 'UPDATE agents SET id = ?, workspace_id = ?, creator = ?, scope = ? WHERE id = ?').run(
      id,
      workspaceId,
      creator,
      userScope(a.scope),
      a.id,
    );
  }
  const observations = new Map<string, string>();
  for (const o of stmt(db, 'SELECT id, key, user_id, scope, agent_id FROM observations').all() as {
    id: string;
    key: string;
    user_id: string;
    scope: string;
    agent_id: string | null;
  }[]) {
    const user = renamed(o.user_id);
    const id = observationId(workspaceId, user, o.key);
    observations.set(o.id, id);
    stmt(
      db,
      'UPDATE observations SET id = ?, workspace_id = ?, user_id = ?, scope = ?, agent_id = ? WHERE id = ?',
    ).run(
      id,
      workspaceId,
      user,
      userScope(o.scope),
      o.agent_id ? (agents.get(o.agent_id) ?? o.agent_id) : null,
      o.id,
    );
  }
  const cite = (text: string) => text.replace(/o_[0-9a-f]{20}/g, (id) => observations.get(id) ?? id);
  for (const v of stmt(
    db,
    'SELECT id, agent_id, number, brain, observation_ids, created_by FROM agent_brain_versions',
  ).all() as {
    id: string;
    agent_id: string;
    number: number;
    brain: string;
    observation_ids: string;
    created_by: string;
  }[]) {
    const agent = agents.get(v.agent_id) ?? v.agent_id;
    stmt(
      db,
      `UPDATE agent_brain_versions SET id = ?, workspace_id = ?, agent_id = ?, brain = ?, observation_ids = ?,
         created_by = ? WHERE id = ?`,
    ).run(
      brainVersionId(workspaceId, agent, v.number),
      workspaceId,
      agent,
      cite(v.brain),
      cite(v.observation_ids),
      renamed(v.created_by),
      v.id,
    );
  }
  const updateRun = stmt(db, 'UPDATE runs SET agent_id = ? WHERE agent_id = ?');
  for (const [from, to] of agents) updateRun.run(to, from);
  stmt(db, 'UPDATE observation_prune_gate SET open = 0 WHERE id = 1').run();
}

function hasColumn(db: Db, table: string, column: string): boolean {
  return stmt(db, 'SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get(table, column) !== undefined;
}

/** The local user's own rows (threads, watched folders, runs) become the server user's. */
function renameLocalUser(db: Db, from: string, to: string): void {
  stmt(db, 'UPDATE chat_threads SET user_id = ? WHERE user_id = ?').run(to, from);
  stmt(db, 'UPDATE watched_folders SET user_id = ? WHERE user_id = ?').run(to, from);
  stmt(db, 'UPDATE watched_folders SET scope = ? WHERE scope = ?').run(`user:${to}`, `user:${from}`);
  stmt(db, 'UPDATE runs SET user_id = ? WHERE user_id = ?').run(to, from);
}
