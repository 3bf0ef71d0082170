/** Where a workspace lives and who is acting: the data folder, the database, the blobs, the local user. */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { AppError } from '../shared/errors.ts';
import type { Db } from './db/driver.ts';

export function resolveHome(home?: string): string {
  const dir = home || process.env.BRAIN_HOME || join(homedir(), '.org-brain');
  return resolve(dir);
}

export function ensureHome(home: string): { dbPath: string; blobDir: string } {
  mkdirSync(join(home, 'blobs'), { recursive: true });
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

export function workspaceId(db: Db): string {
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?)").run(randomUUID());
  return (db.prepare("SELECT value FROM meta WHERE key = 'workspace_id'").get() as { value: string }).value;
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

/** `brain members add <user> [--team t...]`: creates the user and teams as needed. */
export function addMember(
  db: Db,
  userId: string,
  teams: readonly string[],
): { user: string; teams: string[] } {
  const now = new Date().toISOString();
  db.transaction(() => {
    ensureUser(db, userId);
    for (const team of teams) {
      db.prepare('INSERT OR IGNORE INTO teams (id, name, created_at) VALUES (?, ?, ?)').run(
        assertUserId(team),
        team,
        now,
      );
      db.prepare('INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)').run(team, userId);
    }
  }).immediate();
  const rows = db
    .prepare('SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id')
    .all(userId) as {
    team_id: string;
  }[];
  return { user: userId, teams: rows.map((r) => r.team_id) };
}
