/**
 * [D1] in docs/SCHEMA.md: a new workspace database, migrated from scratch by the real driver, has
 * exactly the schema committed in src/engine/db/schema-snapshot.json, and a change to it is
 * reported by the object it touches with how to regenerate the snapshot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeDiff,
  diffJson,
  type Json,
  readJson,
  SQLITE_SNAPSHOT,
} from '../../../test/schema/snapshot.ts';
import { freshSqliteSchema, sqliteSchema } from '../../../test/schema/sqlite-schema.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';

const NAMES: [string, string] = ['the snapshot', 'the database'];

function committed(): Json {
  const snapshot = readJson(SQLITE_SNAPSHOT);
  if (snapshot === null) throw new Error(`${SQLITE_SNAPSHOT} is missing: run \`npm run db:snapshot\`.`);
  return snapshot;
}

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** The schema of a new SQLite file migrated with the shipped migrations and then `extra`. */
function schemaWith(extra: Migration): Json {
  dir = mkdtempSync(join(tmpdir(), 'brain-schema-'));
  const db = new Database(join(dir, 'brain.db'));
  sqliteVec.load(db);
  try {
    migrate(db, [...MIGRATIONS, extra]);
    return sqliteSchema(db);
  } finally {
    db.close();
  }
}

describe('[D1] the SQLite schema matches its snapshot', () => {
  it('a new workspace database migrated from scratch has exactly the committed schema', () => {
    const differences = diffJson(committed(), freshSqliteSchema(), NAMES);
    expect(
      differences,
      describeDiff(`The SQLite schema differs from ${SQLITE_SNAPSHOT}:`, differences),
    ).toEqual([]);
  });

  it('names the table, column, index and trigger a change touches, and how to regenerate', () => {
    const changed = schemaWith({
      id: '9999-probe',
      sql: `ALTER TABLE items ADD COLUMN probe TEXT;
        CREATE INDEX items_probe ON items (probe DESC) WHERE probe IS NOT NULL;
        DROP TRIGGER edges_sync_insert;
        CREATE TRIGGER edges_sync_insert AFTER INSERT ON edges BEGIN SELECT 1; END;
        DROP INDEX jobs_state;`,
    });
    const differences = diffJson(committed(), changed, NAMES);
    expect(differences).toEqual(
      expect.arrayContaining([
        'indexes.items_probe: in the database, missing from the snapshot',
        'indexes.jobs_state: in the snapshot, missing from the database',
        'tables.items.columns.probe: in the database, missing from the snapshot',
        expect.stringMatching(/^tables\.items\.sql: the snapshot ".*", the database ".*probe TEXT\)"$/),
        expect.stringMatching(
          /^triggers\.edges_sync_insert\.sql: the snapshot ".*", the database ".*SELECT 1; END"$/,
        ),
      ]),
    );
    expect(describeDiff('The SQLite schema differs:', differences)).toMatch(/run `npm run db:snapshot`/);
  });

  it('keeps the virtual tables with their shadow tables by name, and no sqlite_ internals', () => {
    const snapshot = committed() as {
      tables: { [name: string]: Json };
      virtualTables: { [name: string]: { shadowTables: string[] } };
    };
    expect(Object.keys(snapshot.virtualTables).sort()).toEqual(['items_fts', 'tree_grep_fts', 'vec_items']);
    expect(snapshot.virtualTables.items_fts?.shadowTables).toEqual([
      'items_fts_config',
      'items_fts_data',
      'items_fts_docsize',
      'items_fts_idx',
    ]);
    const tables = Object.keys(snapshot.tables);
    expect(
      tables.filter(
        (t) =>
          t.startsWith('sqlite_') ||
          t.startsWith('items_fts') ||
          t.startsWith('tree_grep_fts') ||
          t.startsWith('vec_'),
      ),
    ).toEqual([]);
    expect(tables).toEqual(expect.arrayContaining(['items', 'edges', 'sync_state', '__migrations__']));
  });
});
