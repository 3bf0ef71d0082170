/**
 * Loads sqlite-vec's loadable extension into a connection. In an installed app the extension is
 * unpacked beside app.asar ([N5] in docs/PACKAGING.md): Electron reads files inside the archive
 * for Node, but SQLite opens the library with the OS loader, which needs the real file.
 */
import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

/** `path` with its app.asar folder read as app.asar.unpacked; any other path as it is. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/])/, '$1app.asar.unpacked');
}

export function loadVecExtension(db: Database.Database): void {
  db.loadExtension(unpackedPath(sqliteVec.getLoadablePath()));
}
