/** Every migration, in order. Forward-only: append new ones, never edit or reorder shipped ones. */
import type Database from 'better-sqlite3';
import { sql as init } from './0001-init.ts';
import { sql as vectors } from './0002-vectors.ts';
import { sql as searchIndex } from './0003-search-index.ts';
import { sql as agentRuns } from './0004-agent-runs.ts';
import { sql as app } from './0005-app.ts';
import { sql as sync } from './0006-sync.ts';
import { sql as writeback } from './0007-writeback.ts';
import { sql as pullAck } from './0008-pull-ack.ts';
import { sql as proposalSync } from './0009-proposal-sync.ts';
import { sql as ftsMerge } from './0010-fts-merge.ts';
import { sql as authority, run as authorityRun } from './0011-authority.ts';
import { sql as trees } from './0012-trees.ts';
import { sql as treeSync } from './0013-tree-sync.ts';
import { sql as treeGrep } from './0014-tree-grep.ts';
import { sql as reviewCards } from './0015-review-cards.ts';
import { sql as compile } from './0016-compile.ts';
import { sql as observations } from './0017-observations.ts';
import { sql as versionsIndex } from './0018-versions-index.ts';
import { sql as agentBrains } from './0019-agent-brains.ts';
import { sql as compileClaims } from './0020-compile-claims.ts';
import { sql as agentRunsBrain } from './0021-agent-runs-brain.ts';
import { sql as erasedFiles } from './0022-erased-files.ts';
import { sql as agentSync, run as agentSyncRun } from './0023-agent-sync.ts';
import { sql as ftsScripts, run as ftsScriptsRun } from './0024-fts-scripts.ts';
import { sql as readByOcr } from './0025-read-by-ocr.ts';
import { sql as ftsCompat, run as ftsCompatRun } from './0026-fts-compat.ts';
import { sql as vecGeneration } from './0027-vec-generation.ts';

/** `run` transforms data after `sql`, in the same transaction (only where SQL alone cannot). */
export type Migration = { id: string; sql: string; run?: (db: Database.Database) => void };

export const MIGRATIONS: readonly Migration[] = [
  { id: '0001-init', sql: init },
  { id: '0002-vectors', sql: vectors },
  { id: '0003-search-index', sql: searchIndex },
  { id: '0004-agent-runs', sql: agentRuns },
  { id: '0005-app', sql: app },
  { id: '0006-sync', sql: sync },
  { id: '0007-writeback', sql: writeback },
  { id: '0008-pull-ack', sql: pullAck },
  { id: '0009-proposal-sync', sql: proposalSync },
  { id: '0010-fts-merge', sql: ftsMerge },
  { id: '0011-authority', sql: authority, run: authorityRun },
  { id: '0012-trees', sql: trees },
  { id: '0013-tree-sync', sql: treeSync },
  { id: '0014-tree-grep', sql: treeGrep },
  { id: '0015-review-cards', sql: reviewCards },
  { id: '0016-compile', sql: compile },
  { id: '0017-observations', sql: observations },
  { id: '0018-versions-index', sql: versionsIndex },
  { id: '0019-agent-brains', sql: agentBrains },
  { id: '0020-compile-claims', sql: compileClaims },
  { id: '0021-agent-runs-brain', sql: agentRunsBrain },
  { id: '0022-erased-files', sql: erasedFiles },
  { id: '0023-agent-sync', sql: agentSync, run: agentSyncRun },
  { id: '0024-fts-scripts', sql: ftsScripts, run: ftsScriptsRun },
  { id: '0025-read-by-ocr', sql: readByOcr },
  { id: '0026-fts-compat', sql: ftsCompat, run: ftsCompatRun },
  { id: '0027-vec-generation', sql: vecGeneration },
];
