/**
 * The team: the connection to the workspace server (connect, a round now, status, leave), its
 * members, teams and invitations, the local members of a workspace, and the chat model's settings.
 * Declared once (src/shared/api/operation.ts) for the app and the `brain` command. They are for
 * people, not agents: no MCP tool, and the agent surface refuses them (`notOn`), so an agent can
 * neither redirect the chat model nor change who belongs to the workspace.
 */
import { z } from 'zod';
import { defineOperation, type Surface } from '../operation.ts';
import {
  ChatModelSchema,
  ConnectionTestSchema,
  InvitationSchema,
  LocalMemberSchema,
  MembersSchema,
  RevokedSchema,
  SyncConnectSchema,
  SyncLeaveSchema,
  SyncNowSchema,
  SyncStatusSchema,
  TeamMemberSchema,
  TeamSchema,
} from '../team-schemas.ts';

/** The limits of today's contract and sync protocol (src/shared/sync/protocol.ts), in one place. */
const TEAM_LIMITS = {
  urlChars: 2000,
  codeCharsMin: 8,
  codeChars: 200,
  deviceChars: 200,
  /** Teams an invitation may name (InviteRequestSchema). */
  inviteTeams: 50,
  /** Teams `members.add` may name at once. */
  memberTeams: 50,
  modelUrlChars: 2000,
  modelNameChars: 200,
  modelKeyChars: 4000,
} as const;

const NOT_FOR_AGENTS: readonly Surface[] = ['agent'];

/** A user or team id as the workspace and the server accept it (src/engine/workspace.ts, [S25]). */
const memberId = z
  .string()
  .regex(/^[A-Za-z0-9._@-]{1,64}$/, 'is not a valid user or team id (letters, digits, . _ @ -, at most 64)');
const nothing = z.object({}).strict();

export const SyncStatus = defineOperation({
  name: 'sync.status',
  summary: 'The connection to the workspace server (not connected: local only)',
  input: nothing,
  output: SyncStatusSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const SyncConnect = defineOperation({
  name: 'sync.connect',
  summary: 'Join a workspace server with an invitation (this replica acts as the invited user), then sync',
  input: z
    .object({
      url: z.string().trim().url('is not a server URL (like http://host:4000)').max(TEAM_LIMITS.urlChars),
      code: z.string().trim().min(TEAM_LIMITS.codeCharsMin).max(TEAM_LIMITS.codeChars),
      /** How the server lists this device (default: the host name and the workspace folder). */
      device: z.string().trim().min(1).max(TEAM_LIMITS.deviceChars).optional(),
    })
    .strict(),
  output: SyncConnectSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const SyncNow = defineOperation({
  name: 'sync.now',
  summary: 'One push/pull round with the workspace server now',
  input: nothing,
  output: SyncNowSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const SyncMembers = defineOperation({
  name: 'sync.members',
  summary: "The workspace's members and teams, from the server",
  input: nothing,
  output: MembersSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const SyncLeave = defineOperation({
  name: 'sync.leave',
  summary: 'Disconnect from the server (the items stay here; unsent changes are dropped)',
  input: nothing,
  output: SyncLeaveSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const MembersAdd = defineOperation({
  name: 'members.add',
  summary: 'Add a member to this workspace, optionally to teams (created as needed)',
  input: z
    .object({ user: memberId, teams: z.array(memberId).max(TEAM_LIMITS.memberTeams).optional() })
    .strict(),
  output: LocalMemberSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const MembersInvite = defineOperation({
  name: 'members.invite',
  summary: 'Create an invitation on the server (admins only)',
  input: z
    .object({
      admin: z.boolean().optional(),
      teams: z.array(memberId).max(TEAM_LIMITS.inviteTeams).optional(),
      /** The user it is for; without it, a new user named when it is redeemed. */
      user: memberId.optional(),
    })
    .strict(),
  output: InvitationSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const MembersRevoke = defineOperation({
  name: 'members.revoke',
  summary: 'Revoke every device token of a user and remove them from the workspace (admins only)',
  input: z.object({ user: memberId }).strict(),
  output: RevokedSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const TeamsCreate = defineOperation({
  name: 'teams.create',
  summary: 'Create a team on the server (admins only)',
  input: z.object({ team: memberId }).strict(),
  output: TeamSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const TeamsAdd = defineOperation({
  name: 'teams.add',
  summary: 'Add a member to a team on the server (admins only)',
  input: z.object({ team: memberId, user: memberId }).strict(),
  output: TeamMemberSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const TeamsRemove = defineOperation({
  name: 'teams.remove',
  summary: "Remove a member from a team on the server (admins only); the team's items leave their replicas",
  input: z.object({ team: memberId, user: memberId }).strict(),
  output: TeamMemberSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

export const ChatModelGet = defineOperation({
  name: 'chatModel.get',
  summary: 'The chat model settings (never the key itself, only whether one is set)',
  input: nothing,
  output: ChatModelSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

/** Values are trimmed as src/engine/llm/config.ts stores them; an empty string clears one. */
export const ChatModelSet = defineOperation({
  name: 'chatModel.set',
  summary: 'Set the chat model: base URL, model name, key (an empty value clears it)',
  input: z
    .object({
      baseUrl: z.string().trim().max(TEAM_LIMITS.modelUrlChars).optional(),
      model: z.string().trim().max(TEAM_LIMITS.modelNameChars).optional(),
      key: z.string().trim().max(TEAM_LIMITS.modelKeyChars).optional(),
    })
    .strict(),
  output: ChatModelSchema,
  mutates: true,
  notOn: NOT_FOR_AGENTS,
});

/** Refused when nothing is configured: there is no connection to test. */
export const ChatModelTest = defineOperation({
  name: 'chatModel.test',
  summary: 'Test the connection to the chat model',
  input: nothing,
  output: ConnectionTestSchema,
  mutates: false,
  notOn: NOT_FOR_AGENTS,
});

export const TEAM_OPERATIONS = [
  SyncStatus,
  SyncConnect,
  SyncNow,
  SyncMembers,
  SyncLeave,
  MembersAdd,
  MembersInvite,
  MembersRevoke,
  TeamsCreate,
  TeamsAdd,
  TeamsRemove,
  ChatModelGet,
  ChatModelSet,
  ChatModelTest,
] as const;
