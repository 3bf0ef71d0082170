/**
 * `brain connect`, `brain sync`, `brain sync status`, `brain leave`: the contract's sync.connect,
 * sync.now, sync.status and sync.leave (src/shared/api/ops/team.ts), for people or as JSON.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { SyncConnect, SyncLeave, SyncNow, SyncStatus } from '#shared/api/ops/team.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

type Report = OutputOf<typeof SyncNow>;

export function registerSync(program: Command): void {
  program
    .command('connect')
    .description(SyncConnect.summary)
    .argument('<server-url>', 'the server, like http://127.0.0.1:4000')
    .requiredOption('--invite <code>', 'the invitation code')
    .option('--device <name>', 'how the server lists this device')
    .option('--json', 'print JSON')
    .action((url: string, opts: { invite: string; device?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const input = { url, code: opts.invite, device: opts.device };
        const r = await run(memberContext(engine, 'cli'), SyncConnect, input);
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

  const sync = program
    .command('sync')
    .description(SyncNow.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await run(memberContext(engine, 'cli'), SyncNow, {});
        if (opts.json) printJson(r);
        else print(summary(r));
        // [S29] in docs/SYNC_SPEC.md: a local change that will never reach anyone is an error
        // after the summary, never a quiet count.
        if (r.unsent.length > 0) throw unsentError(r.unsent);
      }),
    );
  sync
    .command('status')
    .description(`${SyncStatus.summary}, without a round`)
    .option('--json', 'print JSON')
    // `brain sync status --json`: commander gives `--json` to `sync`, which declares it too.
    .action((_opts: unknown, cmd: Command) =>
      withEngine(program, async (engine) => {
        const s = await run(memberContext(engine, 'cli'), SyncStatus, {});
        if (cmd.optsWithGlobals<{ json?: boolean }>().json) return printJson(s);
        if (!s.connected) return print(`not connected${s.lastError ? `: ${s.lastError}` : ''}`);
        print(`${s.state ?? 'not tried yet'} ${s.server} (${s.workspace ?? '…'}) as ${s.user}`);
        print(`${s.pending} pending, ${s.refused} not sent, last sync ${s.lastSync ?? 'never'}`);
        if (s.lastError) print(`last error: ${s.lastError}`);
      }),
    );

  program
    .command('leave')
    .description(SyncLeave.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const r = await run(memberContext(engine, 'cli'), SyncLeave, {});
        if (opts.json) return printJson(r);
        print(
          r.left
            ? `left ${r.left}${r.unsent ? ` (${r.unsent} unsent changes dropped)` : ''}`
            : 'not connected',
        );
      }),
    );
}

function summary(r: Report): string {
  const parts = [
    `${r.pushed} pushed${r.refused ? ` (${r.refused} refused)` : ''}`,
    `${r.pulled} pulled`,
    ...(r.evicted ? [`${r.evicted} removed`] : []),
    ...(r.proposals ? [`${r.proposals} inbox changes (see \`brain inbox\`)`] : []),
    ...(r.setAside ? [`${r.setAside} set aside (from a newer Org Brain: update)`] : []),
    `${r.pending} pending`,
    `cursor ${r.cursor}`,
  ];
  return parts.join(', ');
}

function unsentError(unsent: Report['unsent']): AppError {
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
