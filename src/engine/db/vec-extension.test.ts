import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadVecExtension, unpackedPath } from './vec-extension.ts';

describe('sqlite-vec in an installed app ([N5] in docs/PACKAGING.md)', () => {
  it('reads the extension from app.asar.unpacked', () => {
    expect(unpackedPath('/opt/Org Brain/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe(
      '/opt/Org Brain/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so',
    );
    expect(
      unpackedPath(
        'C:\\Program Files\\Org Brain\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
      ),
    ).toBe(
      'C:\\Program Files\\Org Brain\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
    );
  });

  it('leaves other paths as they are', () => {
    for (const path of [
      '/work/repo/node_modules/sqlite-vec-linux-x64/vec0.so',
      '/opt/Org Brain/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so',
      '/home/me/my-app.asar/vec0.so',
    ]) {
      expect(unpackedPath(path)).toBe(path);
    }
  });

  it('loads the extension from a clone', () => {
    const db = new Database(':memory:');
    loadVecExtension(db);
    expect(db.prepare('select vec_version() as v').get()).toEqual({ v: expect.stringMatching(/^v0\./) });
    db.close();
  });
});
