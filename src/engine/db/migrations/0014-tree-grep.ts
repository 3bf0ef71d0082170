/**
 * The grep index of repository trees (docs/TREES.md [T11]): a tree's documents as lines, so
 * `grep` asks SQLite for the lines that could match instead of reading every document's blob on
 * each call. Kept up to date lazily by src/engine/tree/grep-index.ts, and deleted with its source.
 * - `tree_grep_docs`: which document's lines are stored, by the tree node's `blob` and `item_id`
 *   they were read for (a document whose text is not stored here has a row and no lines);
 * - `tree_grep_lines`: each non-empty line with its number as Git counts lines, as written;
 * - `tree_grep_fts`: the same lines lower-cased as JavaScript does (`toLowerCase`, so a grep that
 *   ignores case asks for exactly what it then checks), trigrams of code points, case-sensitive
 *   over that text; contentless (the text is in `tree_grep_lines`), its rowid a line's `id`. It
 *   only narrows: every candidate line is checked again against the words.
 * - `tree_grep_sources`: the sources whose index is known to match their tree, so a grep that
 *   finds its source here compares nothing; any write of a document node (a build, a cascade)
 *   takes the source out, and the next grep compares the documents and puts it back.
 * A trigger deletes a line's trigrams with the line, also when a source or a document cascades.
 */
export const sql = `
CREATE TABLE tree_grep_docs (
  source_id TEXT NOT NULL REFERENCES tree_sources(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  blob TEXT,
  item_id TEXT,
  PRIMARY KEY (source_id, path)
) WITHOUT ROWID;

CREATE TABLE tree_grep_lines (
  id INTEGER PRIMARY KEY,
  source_id TEXT NOT NULL,
  path TEXT NOT NULL,
  line INTEGER NOT NULL,
  text TEXT NOT NULL,
  FOREIGN KEY (source_id, path) REFERENCES tree_grep_docs(source_id, path) ON DELETE CASCADE
);
CREATE UNIQUE INDEX tree_grep_lines_at ON tree_grep_lines(source_id, path, line);

CREATE VIRTUAL TABLE tree_grep_fts USING fts5(
  folded, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);

CREATE TRIGGER tree_grep_lines_gone AFTER DELETE ON tree_grep_lines BEGIN
  DELETE FROM tree_grep_fts WHERE rowid = OLD.id;
END;

CREATE TABLE tree_grep_sources (
  source_id TEXT PRIMARY KEY REFERENCES tree_sources(id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TRIGGER tree_grep_document_added AFTER INSERT ON tree_nodes WHEN NEW.kind = 'document' BEGIN
  DELETE FROM tree_grep_sources WHERE source_id = NEW.source_id;
END;
CREATE TRIGGER tree_grep_document_changed AFTER UPDATE ON tree_nodes
WHEN NEW.kind = 'document' OR OLD.kind = 'document' BEGIN
  DELETE FROM tree_grep_sources WHERE source_id IN (OLD.source_id, NEW.source_id);
END;
CREATE TRIGGER tree_grep_document_removed AFTER DELETE ON tree_nodes WHEN OLD.kind = 'document' BEGIN
  DELETE FROM tree_grep_sources WHERE source_id = OLD.source_id;
END;
`;
