/** `brain`: the command line over the engine. */
import { Command, CommanderError } from 'commander';
import { registerAccessCheck } from './commands/access-check.ts';
import { registerActivity } from './commands/activity.ts';
import { registerAdd } from './commands/add.ts';
import { registerAgents } from './commands/agents.ts';
import { registerBackups } from './commands/backups.ts';
import { registerAsk, registerChat } from './commands/chat.ts';
import { registerCompile } from './commands/compile.ts';
import { registerConfig } from './commands/config.ts';
import { registerContext } from './commands/context.ts';
import { registerDossier } from './commands/dossier.ts';
import { registerEntities } from './commands/entities.ts';
import { registerErase } from './commands/erase.ts';
import { registerExport } from './commands/export.ts';
import { registerFact } from './commands/fact.ts';
import { registerFiles } from './commands/files.ts';
import { registerGraph } from './commands/graph.ts';
import { registerInbox } from './commands/inbox.ts';
import { registerIndex } from './commands/index-cmd.ts';
import { registerLink } from './commands/link.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerMembers } from './commands/members.ts';
import { registerMention } from './commands/mention.ts';
import { registerModel } from './commands/model.ts';
import { registerMove } from './commands/move.ts';
import { registerNeighborhood } from './commands/neighborhood.ts';
import { registerNote } from './commands/note.ts';
import { registerObserve } from './commands/observe.ts';
import { registerRead } from './commands/read.ts';
import { registerRemove } from './commands/remove.ts';
import { registerRuns } from './commands/runs.ts';
import { registerRunsEnd } from './commands/runs-end.ts';
import { registerSample } from './commands/sample.ts';
import { registerSearch } from './commands/search.ts';
import { registerServe } from './commands/serve.ts';
import { registerServer } from './commands/server.ts';
import { registerSettings } from './commands/settings.ts';
import { registerStatus } from './commands/status.ts';
import { registerSync } from './commands/sync.ts';
import { registerTeams } from './commands/teams.ts';
import { registerTree } from './commands/tree.ts';
import { registerUnlock } from './commands/unlock.ts';
import { registerVersions } from './commands/versions.ts';
import { fail } from './output.ts';

export function buildProgram(): Command {
  const program = new Command('brain')
    .description("Org Brain: a team's shared memory. Add files, index them, search with citations.")
    .option('--home <dir>', 'workspace data folder (default: $BRAIN_HOME or ~/.org-brain)')
    .option('--as <user>', 'act as this member (default: the local user)')
    .showHelpAfterError()
    .exitOverride();
  registerAdd(program);
  registerFiles(program);
  registerSample(program);
  registerMove(program);
  registerIndex(program);
  registerUnlock(program);
  registerSearch(program);
  registerRead(program);
  registerContext(program);
  registerNote(program);
  registerStatus(program);
  registerServe(program);
  registerServer(program);
  registerMembers(program);
  registerModel(program);
  registerMcp(program);
  registerActivity(program);
  registerAccessCheck(program);
  registerSync(program);
  registerTeams(program);
  registerEntities(program);
  registerDossier(program);
  registerGraph(program);
  registerMention(program);
  registerFact(program);
  registerObserve(program);
  registerAgents(program);
  registerCompile(program);
  registerRemove(program);
  registerErase(program);
  registerVersions(program);
  registerLink(program);
  registerNeighborhood(program);
  registerAsk(program);
  registerChat(program);
  registerConfig(program);
  registerSettings(program);
  registerBackups(program);
  registerExport(program);
  registerInbox(program);
  registerRuns(program);
  registerTree(program);
  registerRunsEnd(program);
  return program;
}

// Everything this process creates is its owner's only ([M1] in docs/SECURITY.md): our own files
// pass 0600/0700 explicitly, and the umask covers what libraries create (SQLite, PGlite folders).
// The CLI writes nowhere else except the UI build `brain serve` may start (src/cli/commands/serve.ts).
process.umask(0o077);

// `brain search … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  // A command that let an error through still answers as `error[<code>]: message` (a lock error
  // as `busy`, docs/WORKSPACE.md [B2]); BRAIN_DEBUG adds the stack.
  fail(err);
}
