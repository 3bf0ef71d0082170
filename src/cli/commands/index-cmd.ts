import type { Command } from 'commander';
import { auditFile } from '#engine/audit/index.ts';
import { withEngine } from '../context.ts';
import { print, printJson, progressBar } from '../output.ts';

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('Index files so they can answer questions (everything not indexed, or the named items)')
    .argument('[id...]', 'file ids (default: every file not indexed yet)')
    .option('--json', 'print JSON')
    .action((ids: string[], opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const bar = progressBar('indexing');
        const report = await engine.index(ids, (p) =>
          bar.update(p.done, p.total, p.phase === 'embed' ? 'embedding' : p.label),
        );
        bar.stop();
        const audits = [];
        for (const f of report.indexed) audits.push(await auditFile(engine, f.id));
        if (opts.json) return printJson(report);
        for (const f of report.indexed) print(`indexed  ${f.id}  ${f.label} (${f.sections} sections)`);
        for (const f of report.failed) print(`failed   ${f.id}  ${f.label}: ${f.reason}`);
        const embedded = report.embedded ? `, ${report.embedded} items embedded for semantic search` : '';
        print(`${report.indexed.length} indexed, ${report.failed.length} failed${embedded}.`);
        const mentions = audits.reduce((n, a) => n + (a?.mentions ?? 0), 0);
        if (audits.length) print(`audit: ${mentions} mentions of known entities linked.`);
      }),
    );
}
