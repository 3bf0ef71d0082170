/** Every migration, in order. Forward-only: append new ones, never edit or reorder shipped ones. */
import { sql as init } from './0001-init.ts';
import { sql as vectors } from './0002-vectors.ts';

export type Migration = { id: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  { id: '0001-init', sql: init },
  { id: '0002-vectors', sql: vectors },
];
