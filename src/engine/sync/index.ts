/**
 * Sync as the engine's surfaces use it (CLI, app host, later the settings UI): connect with an
 * invitation, one round now, the status, members and teams through the server, leave.
 * Rounds in one process never overlap: a second caller waits for the running round.
 */
import { hostname } from 'node:os';
import { AppError } from '#shared/errors.ts';
import type { InviteResponse, MembersResponse } from '#shared/sync/protocol.ts';
import { writeTx } from '../db/driver.ts';
import type { Engine } from '../engine.ts';
import { assertUserId, localUserName, userExists } from '../workspace.ts';
import { applyMembership, type SyncDeps, type SyncReport, syncRound } from './client.ts';
import { pendingCount, recordAll } from './outbox.ts';
import { type RekeyResult, rekeyReplica } from './rekey.ts';
import { forgetReceived, revokedMessage } from './revoked.ts';
import { readState, readToken, removeToken, type SyncStatus, syncStatus, writeToken } from './state.ts';
import { HttpTransport, normaliseServerUrl } from './transport.ts';

export type { SyncReport, SyncStatus };

export type ConnectResult = {
  server: string;
  user: string;
  isAdmin: boolean;
  workspace: { id: string; name: string };
  rekeyed: RekeyResult;
  sync: SyncReport | null;
  /** The first round failed (the connection itself is kept; the next round retries). */
  syncError: string | null;
};

const running = new WeakMap<object, Promise<SyncReport>>();

function depsOf(engine: Engine): SyncDeps {
  return {
    db: engine.db,
    blobs: engine.blobs,
    workspaceId: engine.workspaceId,
    localModel: engine.embedder.modelId(),
    surface: engine.surface,
  };
}

function transportOf(engine: Engine): HttpTransport {
  const state = readState(engine.db);
  const token = readToken(engine.home);
  if (!state.server || !token) {
    throw new AppError(
      'refused',
      'This workspace is not connected to a server: run `brain connect <server-url> --invite CODE`.',
    );
  }
  return new HttpTransport(state.server, token);
}

export function isConnected(engine: Engine): boolean {
  return readState(engine.db).server !== null;
}

/** Redeems the invitation, re-keys this replica to the server's workspace and user, then syncs once. */
export async function connect(
  engine: Engine,
  serverUrl: string,
  code: string,
  options: { device?: string } = {},
): Promise<ConnectResult> {
  const current = readState(engine.db);
  if (current.server) {
    throw new AppError(
      'conflict',
      `This workspace is already connected to ${current.server}; leave it first (\`brain leave\`).`,
    );
  }
  const server = normaliseServerUrl(serverUrl);
  const device = (options.device ?? `${hostname()} ${engine.home}`).slice(0, 200);
  const redeemed = await new HttpTransport(server, null).redeem(code.trim(), device);
  writeToken(engine.home, redeemed.token);
  const rekeyed = writeTx(engine.db, () => {
    const result = rekeyReplica(engine.db, {
      workspaceId: redeemed.workspace.id,
      fromUser: engine.user,
      toUser: assertUserId(redeemed.user),
    });
    engine.db
      .prepare(
        `UPDATE sync_state SET server = ?, user_id = ?, is_admin = ?, workspace_name = ?, cursor = 0, pull_page = NULL,
         teams = '[]', connected_at = ?, last_error = NULL, is_online = 1 WHERE id = 1`,
      )
      .run(
        server,
        redeemed.user,
        redeemed.isAdmin ? 1 : 0,
        redeemed.workspace.name,
        new Date().toISOString(),
      );
    recordAll(engine.db);
    return result;
  });
  engine.workspaceId = redeemed.workspace.id;
  engine.user = redeemed.user;
  let sync: SyncReport | null = null;
  let syncError: string | null = null;
  try {
    sync = await syncNow(engine);
  } catch (err) {
    syncError = err instanceof Error ? err.message : String(err);
  }
  return {
    server,
    user: redeemed.user,
    isAdmin: redeemed.isAdmin,
    workspace: redeemed.workspace,
    rekeyed,
    sync,
    syncError,
  };
}

/** One push/pull round now (joins a round already running in this process). */
export function syncNow(engine: Engine): Promise<SyncReport> {
  const existing = running.get(engine.db);
  if (existing) return existing;
  const round = (async () => {
    try {
      return await syncRound(depsOf(engine), transportOf(engine));
    } catch (err) {
      if (err instanceof AppError && err.details?.revoked === true) throw onRevoked(engine);
      throw err;
    }
  })().finally(() => running.delete(engine.db));
  running.set(engine.db, round);
  return round;
}

/** [S32] Revoked: what came from the workspace leaves this replica; the error says what was removed. */
function onRevoked(engine: Engine): AppError {
  const server = readState(engine.db).server;
  const removed = forgetReceived(engine.db, engine.blobs);
  removeToken(engine.home);
  const local = localUserName();
  if (userExists(engine.db, local)) engine.user = local;
  return new AppError('forbidden', revokedMessage(server, removed), { revoked: true, removed });
}

export function getSyncStatus(engine: Engine): SyncStatus {
  return syncStatus(engine.db);
}

/**
 * Leaves the server: forgets the token, the cursor and what was waiting to be sent. The items stay
 * on this device; the acting user becomes the local one again when the workspace is next opened.
 */
export function leave(engine: Engine): { left: string | null; unsent: number } {
  const state = readState(engine.db);
  const unsent = pendingCount(engine.db);
  writeTx(engine.db, () => {
    for (const table of [
      'sync_outbox',
      'sync_changes',
      'sync_versions',
      'sync_blobs_wanted',
      'sync_early_decisions',
      'sync_received',
      'sync_set_aside',
    ]) {
      engine.db.prepare(`DELETE FROM ${table}`).run();
    }
    engine.db
      .prepare(
        `UPDATE sync_state SET server = NULL, user_id = NULL, is_admin = 0, workspace_name = NULL, cursor = 0,
         pull_page = NULL, teams = '[]', connected_at = NULL, is_online = NULL, last_error = NULL WHERE id = 1`,
      )
      .run();
  });
  removeToken(engine.home);
  return { left: state.server, unsent };
}

/** The user's teams as the server has them now (a team change applies to local scope checks at once). */
async function refreshMembership(engine: Engine): Promise<void> {
  applyMembership(engine.db, await transportOf(engine).me());
}

export function listMembers(engine: Engine): Promise<MembersResponse> {
  return transportOf(engine).members();
}

export function createInvitation(
  engine: Engine,
  input: { admin?: boolean; teams?: string[]; user?: string },
): Promise<InviteResponse> {
  return transportOf(engine).invite({
    admin: input.admin ?? false,
    teams: input.teams ?? [],
    user: input.user,
  });
}

export async function createTeam(engine: Engine, team: string): Promise<{ team: string }> {
  await transportOf(engine).createTeam(assertUserId(team));
  return { team };
}

export async function addToTeam(
  engine: Engine,
  team: string,
  user: string,
): Promise<{ team: string; user: string }> {
  await transportOf(engine).addToTeam(assertUserId(team), assertUserId(user));
  await refreshMembership(engine);
  return { team, user };
}

export async function removeFromTeam(
  engine: Engine,
  team: string,
  user: string,
): Promise<{ team: string; user: string }> {
  await transportOf(engine).removeFromTeam(assertUserId(team), assertUserId(user));
  await refreshMembership(engine);
  return { team, user };
}

export async function revokeUser(engine: Engine, user: string): Promise<{ revoked: string }> {
  await transportOf(engine).revoke(assertUserId(user));
  return { revoked: user };
}
