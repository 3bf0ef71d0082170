/** File → Export… ([N16] in docs/PACKAGING.md): the folder it writes and what it says after. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportMessage, exportTarget } from './export.ts';

describe('[N16] File → Export…', () => {
  it('exports into a new dated folder inside the folder picked', () => {
    expect(exportTarget('/home/me/Documents', new Date(2026, 11, 5, 9, 7))).toBe(
      join('/home/me/Documents', 'Org Brain export 2026-12-05 0907'),
    );
  });

  it('says what was exported and where, or why it failed', () => {
    const done = exportMessage({
      ok: true,
      data: {
        folder: '/x/Org Brain export',
        counts: { files: 3, sections: 9, notes: 1, entities: 2, facts: 1, edges: 4, bytes: 10 },
      },
    });
    expect(done).toMatchObject({ type: 'info', folder: '/x/Org Brain export' });
    expect(done.detail).toContain(
      '3 files, 1 notes, 2 entities, 1 facts and 4 links are in /x/Org Brain export',
    );
    const failed = exportMessage({
      ok: false,
      error: { code: 'validation-failed', message: '/x is not empty' },
    });
    expect(failed).toEqual({
      type: 'error',
      message: 'Could not export',
      detail: '/x is not empty',
      folder: null,
    });
  });
});
