/** Every server migration, in order. Add new files here; never edit or reorder shipped ones. */
import { migration as m0001 } from './0001-initial.ts';
import { migration as m0002 } from './0002-pull-pages.ts';
import { migration as m0003 } from './0003-proposals.ts';
import { migration as m0004 } from './0004-authority.ts';
import { migration as m0005 } from './0005-holdings-stale.ts';
import { migration as m0006 } from './0006-erase.ts';
import { migration as m0007 } from './0007-erase-owed.ts';
import { migration as m0008 } from './0008-erased-content.ts';

export type Migration = { id: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008];
