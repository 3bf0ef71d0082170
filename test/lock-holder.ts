/**
 * A second process that holds a workspace's write lock, for test/workspace-busy.test.ts:
 * `node bin/tsx.mjs test/lock-holder.ts <brain.db>` opens the database as another Org Brain
 * process would, runs BEGIN IMMEDIATE, prints `held`, and keeps the lock until its stdin closes
 * (the test ends it, or the test process dies) or it gets SIGTERM.
 */
import Database from 'better-sqlite3';

const path = process.argv[2];
if (!path) {
  console.error('usage: node bin/tsx.mjs test/lock-holder.ts <brain.db>');
  process.exit(2);
}
const db = new Database(path, { fileMustExist: true });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('held\n');

const release = () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
};
process.on('SIGTERM', release);
process.stdin.on('end', release);
process.stdin.resume();
