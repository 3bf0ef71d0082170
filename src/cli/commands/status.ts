/** `brain status`: the contract's status.get (src/shared/api/ops/workspace.ts), as the app's status bar. */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { StatusGet } from '#shared/api/ops/workspace.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(StatusGet.summary)
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const s = await run(memberContext(engine, 'cli'), StatusGet, {});
        if (opts.json) return printJson(s);
        const c = s.counts;
        print(`workspace  ${s.home}`);
        print(`user       ${s.user} (sees ${s.scopes.join(', ')})`);
        print(
          `files      ${c.files} (${c.indexed} indexed, ${c.notIndexed} not indexed${c.failed ? `, ${c.failed} failed` : ''})`,
        );
        print(`sections   ${c.sections}   notes ${c.notes}   entities ${c.entities}`);
        print(`queue      ${s.queue.queued} queued, ${s.queue.running} running`);
        const m = s.model;
        print(
          `semantic   ${m.status === 'on' ? `on (${m.modelId})` : `${m.status}${m.reason ? `: ${m.reason}` : ''}`}${m.pending ? `; ${m.pending} chosen, not here yet` : ''}`,
        );
        const chosen = s.embeddingModels.find((e) => e.chosen);
        if (chosen)
          print(
            `language   ${chosen.name} (${chosen.modelId}${chosen.downloaded ? '' : ', not downloaded'})`,
          );
        print(
          `chat       ${s.chatModel.status === 'on' ? `on (${s.chatModel.reason})` : `off: ${s.chatModel.reason}`}`,
        );
        const y = s.sync;
        if (!y) return;
        if (y.connected) {
          print(
            `sync       ${y.state ?? 'not yet'} ${y.server} as ${y.user}, ${y.pending} pending, last sync ${y.lastSync ?? 'never'}${y.lastError ? ` (${y.lastError})` : ''}`,
          );
        } else if (y.lastError) print(`sync       not connected: ${y.lastError}`);
        if (y.refused > 0)
          print(
            `not sent   ${y.refused} local change${y.refused === 1 ? '' : 's'} will not reach anyone${y.lastRefused ? `; latest: ${y.lastRefused.kind} ${y.lastRefused.ref}: ${y.lastRefused.reason}` : ''}`,
          );
        if (y.setAside > 0)
          print(`set aside  ${y.setAside} pulled operations from a newer Org Brain (update to apply them)`);
      }),
    );
}
