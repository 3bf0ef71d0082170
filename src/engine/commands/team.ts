/**
 * The team operations (src/shared/api/ops/team.ts) as every surface runs them: the connection to
 * the workspace server (src/engine/sync/index.ts), the workspace's local members, the chat model's
 * settings (src/engine/llm/config.ts). The server decides who may invite, create teams or revoke;
 * "not connected" is `refused` on every surface alike. Events the app shows after them (the status
 * bar, the inbox) are the host's (src/engine/host/team-effects.ts).
 */
import type { z } from 'zod';
import type { OutputOf, ParsedInputOf } from '#shared/api/operation.ts';
import type * as Ops from '#shared/api/ops/team.ts';
import type { SyncConnectSchema, SyncReportSchema } from '#shared/api/team-schemas.ts';
import { AppError } from '#shared/errors.ts';
import { testConnection } from '../llm/client.ts';
import {
  type ModelConfigView,
  modelConfigView,
  offReason,
  readModelConfig,
  resolveModel,
  setModelSetting,
} from '../llm/config.ts';
import * as sync from '../sync/index.ts';
import { buildDueTrees } from '../tree/due.ts';
import type { CommandContext } from './types.ts';

type In<O> = ParsedInputOf<O>;
type Out<O> = Promise<OutputOf<O>>;

/** What the engine's functions answer stays inside what the contract declares. */
type Assignable<A extends B, B> = A;
/** @public A compile-time check: nothing uses it, the compiler reads it. */
export type TeamEngineChecks = [
  Assignable<sync.SyncReport, z.infer<typeof SyncReportSchema>>,
  Assignable<sync.ConnectResult & { status: sync.SyncStatus }, z.infer<typeof SyncConnectSchema>>,
  Assignable<ModelConfigView, OutputOf<typeof Ops.ChatModelGet>>,
];

async function syncStatus(ctx: CommandContext, _: In<typeof Ops.SyncStatus>): Out<typeof Ops.SyncStatus> {
  return sync.getSyncStatus(ctx.engine);
}

async function syncConnect(
  ctx: CommandContext,
  input: In<typeof Ops.SyncConnect>,
): Out<typeof Ops.SyncConnect> {
  const r = await sync.connect(ctx.engine, input.url, input.code, { device: input.device });
  return { ...r, status: sync.getSyncStatus(ctx.engine) };
}

/** The round's report, `unsent` included ([S29]): each surface presents it, none drops it. */
async function syncNow(ctx: CommandContext, _: In<typeof Ops.SyncNow>): Out<typeof Ops.SyncNow> {
  const report = await sync.syncNow(ctx.engine);
  // Received trees a pull made due are built (docs/TREES.md [T13]): by the host in the background,
  // here in a one-shot process, which then exits.
  if (ctx.host) ctx.host.kickTrees();
  else await buildDueTrees(ctx.engine, { only: (s) => s.remote });
  return { ...report, status: sync.getSyncStatus(ctx.engine) };
}

async function syncMembers(ctx: CommandContext, _: In<typeof Ops.SyncMembers>): Out<typeof Ops.SyncMembers> {
  return sync.listMembers(ctx.engine);
}

async function syncLeave(ctx: CommandContext, _: In<typeof Ops.SyncLeave>): Out<typeof Ops.SyncLeave> {
  return sync.leave(ctx.engine);
}

/** A member of this workspace's own tables: scopes before (and beside) a server, `--as` targets. */
async function membersAdd(ctx: CommandContext, input: In<typeof Ops.MembersAdd>): Out<typeof Ops.MembersAdd> {
  return ctx.engine.addMember(input.user, input.teams ?? []);
}

async function membersInvite(
  ctx: CommandContext,
  input: In<typeof Ops.MembersInvite>,
): Out<typeof Ops.MembersInvite> {
  return sync.createInvitation(ctx.engine, { admin: input.admin, teams: input.teams, user: input.user });
}

async function membersRevoke(
  ctx: CommandContext,
  input: In<typeof Ops.MembersRevoke>,
): Out<typeof Ops.MembersRevoke> {
  return sync.revokeUser(ctx.engine, input.user);
}

async function teamsCreate(
  ctx: CommandContext,
  input: In<typeof Ops.TeamsCreate>,
): Out<typeof Ops.TeamsCreate> {
  return sync.createTeam(ctx.engine, input.team);
}

async function teamsAdd(ctx: CommandContext, input: In<typeof Ops.TeamsAdd>): Out<typeof Ops.TeamsAdd> {
  return sync.addToTeam(ctx.engine, input.team, input.user);
}

async function teamsRemove(
  ctx: CommandContext,
  input: In<typeof Ops.TeamsRemove>,
): Out<typeof Ops.TeamsRemove> {
  return sync.removeFromTeam(ctx.engine, input.team, input.user);
}

async function chatModelGet(
  ctx: CommandContext,
  _: In<typeof Ops.ChatModelGet>,
): Out<typeof Ops.ChatModelGet> {
  return modelConfigView(ctx.engine.db, ctx.engine.home);
}

/** The base URL first: a malformed one is refused before anything else of the call is stored. */
async function chatModelSet(
  ctx: CommandContext,
  input: In<typeof Ops.ChatModelSet>,
): Out<typeof Ops.ChatModelSet> {
  const { db, home } = ctx.engine;
  if (input.baseUrl !== undefined) await setModelSetting(db, home, 'model.baseUrl', input.baseUrl);
  if (input.model !== undefined) await setModelSetting(db, home, 'model.name', input.model);
  if (input.key !== undefined) await setModelSetting(db, home, 'model.key', input.key);
  return modelConfigView(db, home);
}

async function chatModelTest(
  ctx: CommandContext,
  _: In<typeof Ops.ChatModelTest>,
): Out<typeof Ops.ChatModelTest> {
  const { db, home } = ctx.engine;
  const access = await resolveModel(db, home);
  if (!access) throw new AppError('refused', `Nothing to test: ${offReason(readModelConfig(db))}.`);
  return testConnection(access);
}

export const teamHandlers = {
  'sync.status': syncStatus,
  'sync.connect': syncConnect,
  'sync.now': syncNow,
  'sync.members': syncMembers,
  'sync.leave': syncLeave,
  'members.add': membersAdd,
  'members.invite': membersInvite,
  'members.revoke': membersRevoke,
  'teams.create': teamsCreate,
  'teams.add': teamsAdd,
  'teams.remove': teamsRemove,
  'chatModel.get': chatModelGet,
  'chatModel.set': chatModelSet,
  'chatModel.test': chatModelTest,
} as const;
