import type { Command } from 'commander';
import { connect, leave, type SyncReport, syncNow } from '../../engine/sync/index.ts';
import { AppError } from '../../shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerSync(program: Command): void {
  program
    .command('connect')
    .description(
      'Join a workspace server with an invitation (this replica acts as the invited user), then sync',
    )
    .argument('<server-url>', 'the server, like http://127.0.0.1:4000')
    .requiredOption('--invite <code>', 'the invitation code')
    .option('--device <name>', 'how the server lists this device')
    .option('--json', 'print JSON')
    .action((url: string, opts: { invite: string; device?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await connect(engine, url, opts.invite, { device: opts.device });
        if (opts.json) return printJson(r);
        print(
          `connected to ${r.server} (${r.workspace.name}) as ${r.user}${r.isAdmin ? ' (workspace admin)' : ''}`,
        );
        if (r.rekeyed.items) print(`${r.rekeyed.items} local items joined the workspace`);
        if (r.sync)
          print(`synced: ${r.sync.pushed} pushed, ${r.sync.pulled} pulled, ${r.sync.pending} pending`);
        if (r.syncError) process.stderr.write(`warning: the first sync failed: ${r.syncError}\n`);
      }),
    );

  program
    .command('sync')
    .description('Run one push/pull round with the workspace server')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await syncNow(engine);
        if (opts.json) printJson(r);
        else
          print(
            `${r.pushed} pushed${r.refused ? ` (${r.refused} refused)` : ''}, ${r.pulled} pulled${r.evicted ? `, ${r.evicted} removed` : ''}${r.proposals ? `, ${r.proposals} inbox changes (see \`brain inbox\`)` : ''}${r.setAside ? `, ${r.setAside} set aside (from a newer Org Brain: update)` : ''}, ${r.pending} pending, cursor ${r.cursor}`,
          );
        // A local change that will never reach anyone is an error, never a quiet count.
        if (r.unsent.length > 0) throw unsentError(r.unsent);
      }),
    );

  program
    .command('leave')
    .description('Disconnect this replica from its server (the items stay here; unsent changes are dropped)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, (engine) => {
        const r = leave(engine);
        if (opts.json) return printJson(r);
        print(
          r.left
            ? `left ${r.left}${r.unsent ? ` (${r.unsent} unsent changes dropped)` : ''}`
            : 'not connected',
        );
      }),
    );
}

function unsentError(unsent: SyncReport['unsent']): AppError {
  const shown = unsent
    .slice(0, 3)
    .map((u) => `${u.kind} ${u.ref}: ${u.reason}`)
    .join('; ');
  const more = unsent.length > 3 ? `; and ${unsent.length - 3} more` : '';
  return new AppError(
    'refused',
    `${unsent.length} local change${unsent.length === 1 ? ' was' : 's were'} not sent: ${shown}${more} (\`brain status\` keeps them listed)`,
  );
}
