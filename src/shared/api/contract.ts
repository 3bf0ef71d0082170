/**
 * The BrainApi: every operation, declared once (src/shared/api/ops/<domain>.ts, the shape in
 * src/shared/api/operation.ts) with its zod input and output and its limits per surface. The two
 * app transports (Electron IPC, the browser host), the renderer's client, the `brain` command and
 * the MCP tools are all built from this one list, and the engine runs each through its command
 * (src/engine/commands).
 */
import type { z } from 'zod';
import { entriesOf, type OutputsOf, offeredOn } from './operation.ts';
import { ACCESS_OPERATIONS } from './ops/access.ts';
import { AGENT_RUN_OPERATIONS } from './ops/agent-runs.ts';
import { AGENT_OPERATIONS } from './ops/agents.ts';
import { BACKUP_OPERATIONS } from './ops/backups.ts';
import { CHAT_OPERATIONS } from './ops/chat.ts';
import { COMPILE_OPERATIONS } from './ops/compile.ts';
import { EXPORT_OPERATIONS } from './ops/export.ts';
import { FACT_OPERATIONS } from './ops/facts.ts';
import { FILE_OPERATIONS } from './ops/files.ts';
import { GRAPH_OPERATIONS } from './ops/graph.ts';
import { INBOX_OPERATIONS } from './ops/inbox.ts';
import { ITEM_OPERATIONS } from './ops/items.ts';
import { KNOWLEDGE_OPERATIONS } from './ops/knowledge.ts';
import { NOTE_OPERATIONS } from './ops/notes.ts';
import { RETRIEVAL_OPERATIONS } from './ops/retrieval.ts';
import { SETTINGS_OPERATIONS } from './ops/settings.ts';
import { TEAM_OPERATIONS } from './ops/team.ts';
import { TREE_OPERATIONS } from './ops/trees.ts';
import { VERSION_OPERATIONS } from './ops/versions.ts';
import { WORKSPACE_OPERATIONS } from './ops/workspace.ts';

export const OPERATIONS = [
  ...RETRIEVAL_OPERATIONS,
  ...NOTE_OPERATIONS,
  ...GRAPH_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...KNOWLEDGE_OPERATIONS,
  ...TEAM_OPERATIONS,
  ...SETTINGS_OPERATIONS,
  ...BACKUP_OPERATIONS,
  ...EXPORT_OPERATIONS,
  ...FILE_OPERATIONS,
  ...ITEM_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...WORKSPACE_OPERATIONS,
  ...TREE_OPERATIONS,
  ...ACCESS_OPERATIONS,
  ...FACT_OPERATIONS,
  ...COMPILE_OPERATIONS,
  ...VERSION_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...AGENT_RUN_OPERATIONS,
] as const;

export const CONTRACT = entriesOf(OPERATIONS);

export type CommandName = keyof typeof CONTRACT;
/** The operations the app's transports accept (IPC, the browser host): the rest are other surfaces' own. */
export const COMMAND_NAMES = OPERATIONS.filter((o) => offeredOn(o, 'app')).map(
  (o) => o.name,
) as CommandName[];
const APP_NAMES: ReadonlySet<string> = new Set(COMMAND_NAMES);

/** What each operation answers. */
export type Outputs = OutputsOf<typeof OPERATIONS>;

export type Inputs = { [N in CommandName]: z.input<(typeof CONTRACT)[N]['input']> };

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && APP_NAMES.has(value);
}
