/**
 * The whole of a workspace database for tests that must show what a change left behind (erasing,
 * docs/FACTS.md [K14]) or that a refusal changed nothing: every row of every table, shadow tables
 * of the full-text and vector indexes included.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/driver.ts';

/** Every row of every table but the virtual ones (their shadow tables hold their data). */
export function dumpTables(db: Db): Record<string, Record<string, unknown>[]> {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
    )
    .all() as { name: string }[];
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of tables)
    out[name] = db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[];
  return out;
}

/** The whole database, one JSON text per table (blobs by their hash), for an exact compare. */
export function snapshot(db: Db): Record<string, string> {
  const plain = (v: unknown) =>
    v instanceof Uint8Array
      ? createHash('sha256').update(v).digest('hex')
      : typeof v === 'bigint'
        ? String(v)
        : v;
  return Object.fromEntries(
    Object.entries(dumpTables(db)).map(([table, rows]) => [
      table,
      JSON.stringify(rows.map((r) => Object.values(r).map(plain))),
    ]),
  );
}

/** The rows whose text holds `needle` (any column; blobs read byte for byte), ignoring case. */
export function rowsHolding(db: Db, needle: string): { table: string; row: Record<string, unknown> }[] {
  const found: { table: string; row: Record<string, unknown> }[] = [];
  const lower = needle.toLowerCase();
  for (const [table, rows] of Object.entries(dumpTables(db))) {
    for (const row of rows) {
      const text = Object.values(row)
        .map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v)))
        .join('\u0000');
      if (text.toLowerCase().includes(lower)) found.push({ table, row });
    }
  }
  return found;
}
