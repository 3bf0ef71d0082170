/**
 * `brain export [--out DIR] [--json]` and `brain import DIR [--json]` ([N16], [N17] in
 * docs/PACKAGING.md): the contract's workspace.export and workspace.import
 * (src/shared/api/ops/export.ts). Export draws its progress on stderr; Ctrl+C stops it and
 * leaves nothing behind. Import goes into an empty workspace: `brain --home NEW import DIR`.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Events } from '#shared/api/events.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { WorkspaceExport, WorkspaceImport } from '#shared/api/ops/export.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

type Counts = OutputOf<typeof WorkspaceExport>['counts'];

function summary(c: Counts): string {
  return [
    plural(c.files, 'file'),
    plural(c.sections, 'section'),
    plural(c.notes, 'note'),
    plural(c.entities, 'entity', 'entities'),
    plural(c.facts, 'fact'),
    plural(c.edges, 'edge'),
    plural(c.agents, 'agent'),
    plural(c.agentVersions, 'brain version'),
    plural(c.observations, 'observation'),
    plural(c.runs, 'run'),
  ].join(', ');
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description(WorkspaceExport.summary)
    .option('--out <dir>', 'a new or empty folder (default: "Org Brain export <date>" in your home folder)')
    .option('--json', 'print JSON')
    .action((opts: { out?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('Exporting');
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          const out = await run(
            memberContext(engine, 'cli', {
              signal: stop.signal,
              notify: (event, payload) => {
                if (event !== 'export.progress') return;
                const p = payload as Events['export.progress'];
                if (p.phase !== 'done') bar.update(p.done, p.total, p.phase);
              },
            }),
            WorkspaceExport,
            opts.out === undefined ? {} : { out: resolve(opts.out) },
          );
          bar.stop(); // before the summary, on the line the bar held (stopping twice is a no-op)
          if (opts.json) return printJson(out);
          print(`Exported ${summary(out.counts)} to ${out.folder}`);
        } finally {
          bar.stop();
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }),
    );
  program
    .command('import <dir>')
    .description(WorkspaceImport.summary)
    .option('--json', 'print JSON')
    .action((dir: string, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const out = await run(memberContext(engine, 'cli'), WorkspaceImport, { from: resolve(dir) });
        if (opts.json) return printJson(out);
        print(`Imported ${summary(out.counts)} from ${out.folder}`);
        if (out.personalScope)
          print(`What was ${out.personalScope.from}'s own is now ${out.personalScope.to}'s.`);
        // [N20] An import makes nobody a member of a team: what it left out, and how to have it.
        const left = out.leftOut.teams;
        if (left.length > 0) {
          print(
            `Left out ${summary(out.leftOut.counts)} of ${left.map((t) => `team:${t}`).join(', ')}: ${engine.user} is not a member here, and an import makes nobody a member.`,
          );
          print(
            `To import them, import into a new workspace after \`brain --home NEW members add ${engine.user} --team ${left.join(' ')}\`; a workspace server that has you in the team sends them when you connect.`,
          );
        }
        print(
          'Keyword search works now; vectors for semantic search are made when brain index, brain serve or the app next runs.',
        );
      }),
    );
}
