/**
 * The SQLite store's schema as a snapshot ([D1] in docs/SCHEMA.md), read from `sqlite_schema` and
 * the table_list / table_xinfo / index_list / index_xinfo / foreign_key_list pragmas.
 *
 * Internal objects (`sqlite_%`: sqlite_sequence, sqlite_stat*) are left out. The shadow tables of
 * a virtual table (FTS5's items_fts_data…, sqlite-vec's vec_items_chunks…) are summarised as
 * their names under the virtual table, not their columns: their layout is decided by the FTS5
 * and sqlite-vec builds we ship (better-sqlite3's SQLite, the sqlite-vec package), not by our
 * migrations, while their names still change when a migration changes the virtual table (a vec0
 * metadata column adds a metadatachunks table). sqlite-vec does not mark all of its shadow tables
 * as `shadow` in table_list (vector_chunks00 shows as a table), so a table is a shadow table when
 * table_list says so or its name starts with a virtual table's name and `_`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb } from '#engine/db/driver.ts';
import { type Json, normaliseSql } from './snapshot.ts';

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };
type TableListRow = { name: string; type: string; wr: number; strict: number };
type ColumnRow = {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
};
type IndexListRow = { name: string; unique: number; origin: string; partial: number };
type IndexColumnRow = { cid: number; name: string | null; desc: number; coll: string; key: number };
type ForeignKeyRow = {
  id: number;
  table: string;
  from: string;
  to: string | null;
  on_update: string;
  on_delete: string;
};

function columnsOf(db: Db, table: string): { [name: string]: Json } {
  const rows = db.prepare('SELECT * FROM pragma_table_xinfo(?)').all(table) as ColumnRow[];
  return Object.fromEntries(
    rows.map((c) => [
      c.name,
      {
        position: c.cid,
        type: c.type,
        notNull: c.notnull === 1,
        default: c.dflt_value,
        primaryKey: c.pk,
        hidden: c.hidden,
      },
    ]),
  );
}

/** An index's key columns in order: the column name, `<rowid>` or `<expression>`, with DESC and a non-default collation. */
function indexColumns(db: Db, index: string): string[] {
  const rows = db.prepare('SELECT * FROM pragma_index_xinfo(?)').all(index) as IndexColumnRow[];
  return rows
    .filter((c) => c.key === 1)
    .map((c) => {
      const name = c.name ?? (c.cid === -1 ? '<rowid>' : '<expression>');
      return `${name}${c.coll === 'BINARY' ? '' : ` COLLATE ${c.coll}`}${c.desc ? ' DESC' : ''}`;
    });
}

function foreignKeys(db: Db, table: string): Json[] {
  const rows = db.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(table) as ForeignKeyRow[];
  return rows.map(
    (k) => `(${k.from}) -> ${k.table}(${k.to ?? ''}) ON UPDATE ${k.on_update} ON DELETE ${k.on_delete}`,
  );
}

export function sqliteSchema(db: Db): Json {
  const objects = db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .all() as SchemaRow[];
  const list = db.prepare("SELECT * FROM pragma_table_list WHERE schema = 'main'").all() as TableListRow[];
  const virtual = list.filter((t) => t.type === 'virtual').map((t) => t.name);
  const shadowOf = (name: string) => virtual.find((v) => name.startsWith(`${v}_`));
  const tables: { [name: string]: Json } = {};
  const virtualTables: { [name: string]: { sql: string; shadowTables: string[] } } = {};
  for (const name of virtual) {
    const sql = objects.find((o) => o.name === name)?.sql ?? '';
    virtualTables[name] = { sql: normaliseSql(sql), shadowTables: [] };
  }
  const indexes: { [name: string]: Json } = {};
  const triggers: { [name: string]: Json } = {};
  const views: { [name: string]: Json } = {};
  for (const o of objects) {
    if (o.type === 'table' && !virtual.includes(o.name)) {
      const owner = shadowOf(o.name);
      if (owner) {
        virtualTables[owner]?.shadowTables.push(o.name);
        continue;
      }
      const info = list.find((t) => t.name === o.name);
      tables[o.name] = {
        columns: columnsOf(db, o.name),
        withoutRowid: info?.wr === 1,
        strict: info?.strict === 1,
        foreignKeys: foreignKeys(db, o.name),
        // CHECK constraints and column constraints are only in the table's SQL.
        sql: normaliseSql(o.sql ?? ''),
      };
    } else if (o.type === 'trigger') triggers[o.name] = { table: o.tbl_name, sql: normaliseSql(o.sql ?? '') };
    else if (o.type === 'view') views[o.name] = { sql: normaliseSql(o.sql ?? '') };
  }
  // index_list includes the automatic indexes of UNIQUE and PRIMARY KEY constraints (sqlite_autoindex_…).
  for (const table of Object.keys(tables)) {
    for (const ix of db.prepare('SELECT * FROM pragma_index_list(?)').all(table) as IndexListRow[]) {
      const sql = objects.find((o) => o.type === 'index' && o.name === ix.name)?.sql;
      indexes[ix.name] = {
        table,
        unique: ix.unique === 1,
        origin: { c: 'CREATE INDEX', u: 'UNIQUE', pk: 'PRIMARY KEY' }[ix.origin] ?? ix.origin,
        partial: ix.partial === 1,
        columns: indexColumns(db, ix.name),
        sql: sql ? normaliseSql(sql) : null,
      };
    }
  }
  for (const v of Object.values(virtualTables)) v.shadowTables.sort();
  return { tables, indexes, triggers, views, virtualTables };
}

/** Migrates a new, empty SQLite file from scratch through the real driver and reads its schema. */
export function freshSqliteSchema(): Json {
  const dir = mkdtempSync(join(tmpdir(), 'brain-schema-'));
  try {
    const db = openDb(join(dir, 'brain.db'));
    try {
      return sqliteSchema(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
