/**
 * The workspace server's schema as a snapshot ([D1] in docs/SCHEMA.md), read the same way on
 * PGlite and on PostgreSQL: columns from information_schema.columns, primary keys from
 * information_schema.key_column_usage, constraints from pg_constraint (pg_get_constraintdef),
 * indexes from pg_indexes, triggers from pg_trigger (pg_get_triggerdef), views, functions and
 * sequences of the current schema. Only objects of the current schema (`public`) are read, so
 * the catalogs and PGlite's own extensions stay out.
 *
 * NOT NULL is read from the columns only: PostgreSQL 18 (PGlite) also lists it in pg_constraint
 * (contype 'n'), PostgreSQL 15 does not, and the two must give the same snapshot.
 */
import { migrate } from '../../src/server/db/migrate.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import type { Queryable } from '../../src/server/db/types.ts';
import { type Json, normaliseSql } from './snapshot.ts';

type ColumnRow = {
  table_name: string;
  column_name: string;
  ordinal_position: number | string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
  column_default: string | null;
};
type KeyRow = { table_name: string; column_name: string; ordinal_position: number | string };
type NamedDef = { name: string; table: string | null; def: string };

async function tables(db: Queryable): Promise<{ [name: string]: { [key: string]: Json } }> {
  const names = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const columns = await db.query<ColumnRow>(
    `SELECT table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default
     FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const keys = await db.query<KeyRow>(
    `SELECT k.table_name, k.column_name, k.ordinal_position
     FROM information_schema.table_constraints c
     JOIN information_schema.key_column_usage k
       ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
     WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY'`,
  );
  const out: { [name: string]: { [key: string]: Json } } = {};
  for (const { table_name } of names) out[table_name] = { columns: {}, constraints: {} };
  for (const c of columns) {
    const table = out[c.table_name];
    if (!table) continue; // a view's columns
    const pk = keys.find((k) => k.table_name === c.table_name && k.column_name === c.column_name);
    (table.columns as { [name: string]: Json })[c.column_name] = {
      position: Number(c.ordinal_position),
      type: c.data_type === 'ARRAY' || c.data_type === 'USER-DEFINED' ? c.udt_name : c.data_type,
      notNull: c.is_nullable === 'NO',
      default: c.column_default,
      primaryKey: pk ? Number(pk.ordinal_position) : 0,
    };
  }
  const constraints = await db.query<NamedDef>(
    `SELECT conname AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
     FROM pg_constraint
     WHERE connamespace = current_schema()::regnamespace AND contype IN ('p', 'u', 'f', 'c', 'x')`,
  );
  for (const c of constraints) {
    const table = out[c.table ?? ''];
    if (table) (table.constraints as { [name: string]: Json })[c.name] = normaliseSql(c.def);
  }
  return out;
}

/** Objects named `name`, of table `table` (null for functions), defined by `def`. */
async function named(db: Queryable, sql: string): Promise<{ [name: string]: Json }> {
  const rows = await db.query<NamedDef>(sql);
  return Object.fromEntries(
    rows.map((r) => [
      r.name,
      r.table === null ? normaliseSql(r.def) : { table: r.table, sql: normaliseSql(r.def) },
    ]),
  );
}

export async function postgresSchema(db: Queryable): Promise<Json> {
  const sequences = await db.query<{ name: string; data_type: string }>(
    `SELECT sequence_name AS name, data_type FROM information_schema.sequences
     WHERE sequence_schema = current_schema()`,
  );
  return {
    tables: await tables(db),
    indexes: await named(
      db,
      `SELECT indexname AS name, tablename AS table, indexdef AS def FROM pg_indexes
       WHERE schemaname = current_schema()`,
    ),
    triggers: await named(
      db,
      `SELECT t.tgname AS name, t.tgrelid::regclass::text AS table, pg_get_triggerdef(t.oid) AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
    ),
    views: await named(
      db,
      `SELECT table_name AS name, table_name AS table, view_definition AS def FROM information_schema.views
       WHERE table_schema = current_schema()`,
    ),
    functions: await named(
      db,
      `SELECT p.proname AS name, NULL AS table, pg_get_functiondef(p.oid) AS def FROM pg_proc p
       WHERE p.pronamespace = current_schema()::regnamespace AND p.prokind IN ('f', 'p')`,
    ),
    sequences: Object.fromEntries(sequences.map((s) => [s.name, { type: s.data_type }])),
  };
}

/** Migrates a new, empty PGlite database in memory from scratch and reads its schema. */
export async function freshPgliteSchema(): Promise<Json> {
  const db = await openPglite(null);
  try {
    await migrate(db, '2026-01-01T00:00:00.000Z');
    return await postgresSchema(db);
  } finally {
    await db.close();
  }
}
