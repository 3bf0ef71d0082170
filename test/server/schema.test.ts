/**
 * [D1] in docs/SCHEMA.md for the workspace server: a database migrated from scratch has exactly the
 * schema committed in src/server/db/schema-snapshot.json, on PGlite and on PostgreSQL, and the two
 * backends build the same schema (the snapshot is written from PGlite by `npm run db:snapshot`, so
 * a difference between them would otherwise only show as a stale snapshot on one of them).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/types.ts';
import { postgresSchema } from '../schema/postgres-schema.ts';
import { describeDiff, diffJson, type Json, readJson, SERVER_SNAPSHOT } from '../schema/snapshot.ts';
import { forEachBackend } from './harness.ts';
import { type Backend, pgliteBackend, postgresBackend } from './support.ts';

/** Each backend is opened (a new, empty database migrated from scratch) once for this file. */
const opened = new Map<string, Promise<{ db: Db; schema: Json }>>();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function open(backend: Backend): Promise<{ db: Db; schema: Json }> {
  let found = opened.get(backend.name);
  if (!found) {
    found = backend.open().then(async (o) => {
      closers.push(o.close);
      return { db: o.db, schema: await postgresSchema(o.db) };
    });
    opened.set(backend.name, found);
  }
  return found;
}

const schemaOf = async (backend: Backend) => (await open(backend)).schema;

class Rollback extends Error {}

/** The schema `sql` would make of `db`, read inside a transaction that is then rolled back. */
async function schemaAfter(db: Db, sql: string): Promise<Json> {
  let schema: Json = null;
  await db
    .transaction(async (tx) => {
      await tx.exec(sql);
      schema = await postgresSchema(tx);
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return schema;
}

function committed(): Json {
  const snapshot = readJson(SERVER_SNAPSHOT);
  if (snapshot === null) throw new Error(`${SERVER_SNAPSHOT} is missing: run \`npm run db:snapshot\`.`);
  return snapshot;
}

forEachBackend('[D1] the server schema matches its snapshot', (backend) => {
  it('a database migrated from scratch has exactly the committed schema', async () => {
    const differences = diffJson(committed(), await schemaOf(backend), ['the snapshot', 'the database']);
    const title = `The server schema on ${backend.name} differs from ${SERVER_SNAPSHOT}:`;
    expect(differences, describeDiff(title, differences)).toEqual([]);
  });
});

describe('[D1] PostgreSQL and PGlite build the same server schema', () => {
  it.runIf(postgresBackend.available)(
    'tables, columns, constraints, indexes, triggers and sequences are the same on both',
    async () => {
      const [pglite, postgres] = await Promise.all([schemaOf(pgliteBackend), schemaOf(postgresBackend)]);
      const differences = diffJson(pglite, postgres, ['PGlite', 'PostgreSQL']);
      const advice =
        'The migrations build different schemas on the two backends: write SQL both read the same way (the snapshot is written from PGlite).';
      expect(differences, describeDiff('PostgreSQL and PGlite differ:', differences, advice)).toEqual([]);
    },
  );
});

describe('[D1] a change to the server schema is named by the object it touches', () => {
  it('an added column and index and a dropped index, on PGlite', async () => {
    const { db, schema } = await open(pgliteBackend);
    const changed = await schemaAfter(
      db,
      `ALTER TABLE items ADD COLUMN probe TEXT NOT NULL DEFAULT '';
       CREATE INDEX items_probe ON items (probe);
       DROP INDEX ops_entity;`,
    );
    expect(diffJson(schema, changed, ['the snapshot', 'the database'])).toEqual([
      'indexes.items_probe: in the database, missing from the snapshot',
      'indexes.ops_entity: in the snapshot, missing from the database',
      'tables.items.columns.probe: in the database, missing from the snapshot',
    ]);
    // Rolled back: the database is as migrated.
    expect(await postgresSchema(db)).toEqual(schema);
  });
});
