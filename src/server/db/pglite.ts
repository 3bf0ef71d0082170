/**
 * Embedded PGlite (PostgreSQL in WebAssembly) in a data folder, or in memory when `dir` is null.
 * PGlite is one connection: a query issued while another caller's transaction is open would run
 * inside that transaction, so every query and transaction here goes through one queue.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, Row } from './types.ts';

type Task<T> = () => Promise<T>;

function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: Task<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

export async function openPglite(dir: string | null): Promise<Db> {
  const pg = dir ? new PGlite(dir) : new PGlite();
  await pg.waitReady;
  const enqueue = createQueue();
  const raw: Queryable = {
    async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pg.query<T>(sql, params as unknown[]);
      return result.rows;
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
  };
  return {
    kind: 'pglite',
    query: (sql, params) => enqueue(() => raw.query(sql, params)),
    exec: (sql) => enqueue(() => raw.exec(sql)),
    transaction: (fn) =>
      enqueue(async () => {
        await pg.exec('BEGIN');
        try {
          const result = await fn(raw);
          await pg.exec('COMMIT');
          return result;
        } catch (err) {
          await pg.exec('ROLLBACK');
          throw err;
        }
      }),
    close: () => enqueue(() => pg.close()),
  };
}
