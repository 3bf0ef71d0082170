/**
 * The server's database seam: the same SQL runs on embedded PGlite and on PostgreSQL (`pg`).
 * Parameters are positional (`$1`); arrays bind as PostgreSQL arrays; int8 columns may come back
 * as strings (pg) or numbers (PGlite), so callers convert with `Number()`.
 */
export type Row = Record<string, unknown>;

export type Queryable = {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
};

export type Db = Queryable & {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction (BEGIN … COMMIT; ROLLBACK when it throws). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};
