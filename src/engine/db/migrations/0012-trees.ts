/**
 * Repository trees (docs/TREES.md): a connected Markdown repository, and the tree index of its
 * indexed commit.
 * - `tree_sources`: one row per connected repository or folder: where it is on this device, the
 *   branch it follows, its scope (every read is filtered by it, like items), the build state
 *   (not-built, queued, indexing, ready, failed, off), the indexed and attempted commit, counts,
 *   the last error and the builder version that made the stored tree;
 * - `tree_nodes`, `tree_links`, `tree_broken`: the tree of the indexed commit (replaced in one
 *   transaction by each build), with each document's stored blob so reads give the text of the
 *   indexed commit whatever the folder holds now;
 * - `tree_docs`: each indexed document as the builder parsed it, so an incremental build parses
 *   only the documents that changed.
 */
export const sql = `
CREATE TABLE tree_sources (
  id TEXT PRIMARY KEY,
  root TEXT NOT NULL,
  branch TEXT,
  is_git INTEGER NOT NULL CHECK (is_git IN (0, 1)),
  scope TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('not-built', 'queued', 'indexing', 'ready', 'failed', 'off')),
  indexed_commit TEXT,
  attempted_commit TEXT,
  counts TEXT NOT NULL DEFAULT '{}',
  error TEXT,
  builder_version INTEGER NOT NULL DEFAULT 0,
  whole_built_at TEXT,
  incremental_builds INTEGER NOT NULL DEFAULT 0,
  built_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX tree_sources_root ON tree_sources(root);

CREATE TABLE tree_nodes (
  source_id TEXT NOT NULL REFERENCES tree_sources(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('root', 'folder', 'document', 'section', 'card')),
  parent TEXT,
  ordinal INTEGER NOT NULL,
  path TEXT NOT NULL,
  anchor TEXT,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  summary_source TEXT NOT NULL,
  line_start INTEGER NOT NULL,
  own_end INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  status TEXT,
  superseded_by TEXT,
  ref_ids TEXT NOT NULL DEFAULT '[]',
  changed TEXT,
  outgoing_total INTEGER NOT NULL DEFAULT 0,
  blob TEXT,
  item_id TEXT,
  PRIMARY KEY (source_id, id)
) WITHOUT ROWID;
CREATE INDEX tree_nodes_parent ON tree_nodes(source_id, parent, ordinal);
CREATE INDEX tree_nodes_path ON tree_nodes(source_id, path);

CREATE TABLE tree_links (
  source_id TEXT NOT NULL REFERENCES tree_sources(id) ON DELETE CASCADE,
  from_id TEXT NOT NULL,
  ordinal INTEGER NOT NULL,
  to_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('link', 'mention')),
  line INTEGER NOT NULL,
  PRIMARY KEY (source_id, from_id, ordinal)
) WITHOUT ROWID;
CREATE INDEX tree_links_to ON tree_links(source_id, to_id);

CREATE TABLE tree_broken (
  source_id TEXT NOT NULL REFERENCES tree_sources(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  from_id TEXT NOT NULL,
  target TEXT NOT NULL,
  PRIMARY KEY (source_id, ordinal)
) WITHOUT ROWID;

CREATE TABLE tree_docs (
  source_id TEXT NOT NULL REFERENCES tree_sources(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  blob TEXT NOT NULL,
  parsed TEXT NOT NULL,
  PRIMARY KEY (source_id, path)
) WITHOUT ROWID;
`;
