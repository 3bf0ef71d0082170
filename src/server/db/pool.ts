/**
 * PostgreSQL through a `pg` pool (`DATABASE_URL`). Several server processes may share one
 * database: writes that must be ordered take row locks inside their transaction (see sync/push.ts).
 */
import pg from 'pg';
import type { Db, Queryable, Row } from './types.ts';

export async function openPostgres(url: string, max = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // A broken idle connection must not crash the process; the next query gets a fresh one.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1');
  return {
    kind: 'postgres',
    async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, params as unknown[]);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      const tx: Queryable = {
        async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []) {
          const result = await client.query(sql, params as unknown[]);
          return result.rows as T[];
        },
        async exec(sql: string) {
          await client.query(sql);
        },
      };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
