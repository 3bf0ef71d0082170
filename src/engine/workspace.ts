/** Where a workspace lives and who is acting: the data folder, the database, the blobs, the local user. */
import { randomUUID } from 'node:crypto';
import { homedir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { ensurePrivateDir } from '#platform/private-files.ts';
import { AppError } from '#shared/errors.ts';
import { type Db, writeTx } from './db/driver.ts';

export function resolveHome(home?: string): string {
  const dir = home || process.env.BRAIN_HOME || join(homedir(), '.org-brain');
  return resolve(dir);
}

/** The home and its blob folder, 0700; a home left 0755 by an older release is tightened once ([M1]). */
export function ensureHome(home: string): { dbPath: string; blobDir: string } {
  ensurePrivateDir(home);
  ensurePrivateDir(join(home, 'blobs'));
  return { dbPath: join(home, 'brain.db'), blobDir: join(home, 'blobs') };
}

const USER_RE = /^[A-Za-z0-9._@-]{1,64}$/;

export function localUserName(): string {
  let name = process.env.BRAIN_USER || '';
  if (!name) {
    try {
      name = userInfo().username;
    } catch {
      name = 'me';
    }
  }
  const clean = name.replace(/[^A-Za-z0-9._@-]/g, '-').slice(0, 64);
  return clean || 'me';
}

export function assertUserId(id: string): string {
  if (!USER_RE.test(id)) {
    throw new AppError(
      'validation-failed',
      `"${id}" is not a valid user or team id (letters, digits, . _ @ -).`,
    );
  }
  return id;
}

/** Read first: only a new workspace writes its id, so opening an old one takes no write lock ([B1]). */
export function workspaceId(db: Db): string {
  const read = () =>
    db.prepare("SELECT value FROM meta WHERE key = 'workspace_id'").get() as { value: string } | undefined;
  const known = read();
  if (known) return known.value;
  writeTx(db, () =>
    db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?)").run(randomUUID()),
  );
  return (read() as { value: string }).value;
}

export function ensureUser(db: Db, id: string): void {
  db.prepare('INSERT OR IGNORE INTO users (id, name, created_at) VALUES (?, ?, ?)').run(
    assertUserId(id),
    id,
    new Date().toISOString(),
  );
}

export function userExists(db: Db, id: string): boolean {
  return db.prepare('SELECT 1 FROM users WHERE id = ?').get(id) !== undefined;
}

/** ensureUser for opening a workspace: writes (and takes the write lock) only for a new member ([B1]). */
export function ensureUserOnOpen(db: Db, id: string): void {
  if (!userExists(db, assertUserId(id))) writeTx(db, () => ensureUser(db, id));
}

/** `brain members add <user> [--team t...]`: creates the user and teams as needed. */
export function addMember(
  db: Db,
  userId: string,
  teams: readonly string[],
): { user: string; teams: string[] } {
  const now = new Date().toISOString();
  writeTx(db, () => {
    ensureUser(db, userId);
    for (const team of teams) {
      db.prepare('INSERT OR IGNORE INTO teams (id, name, created_at) VALUES (?, ?, ?)').run(
        assertUserId(team),
        team,
        now,
      );
      db.prepare('INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)').run(team, userId);
    }
  });
  const rows = db
    .prepare('SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id')
    .all(userId) as {
    team_id: string;
  }[];
  return { user: userId, teams: rows.map((r) => r.team_id) };
}
