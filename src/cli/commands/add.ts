/**
 * `brain add <path...>`: the contract's files.add (src/shared/api/ops/files.ts). The bytes are
 * stored; `brain index` makes them answerable (the command line is a one-shot process: indexing
 * on add is a host's, the app's or `brain serve`'s). With `--password-file`, the PDF and Office
 * files it added that are not indexed yet are indexed at once with that password (files.unlock,
 * docs/FORMATS.md [F12]); the password is used for those extractions only and never stored.
 */
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import type { OutputOf } from '#shared/api/operation.ts';
import { FilesAdd, FilesUnlock } from '#shared/api/ops/files.ts';
import type { AddReport } from '#shared/api/types.ts';
import { toTransferable } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import { scopeKeptSentence } from '#shared/scope-kept.ts';
import { withEngine } from '../context.ts';
import { oneLine, print, printJson, progressBar } from '../output.ts';
import { readPasswordFile } from '../password-file.ts';

type AddOptions = { scope?: string; externalId?: string; passwordFile?: string; json?: boolean };
type Unlocked = {
  unlocked: OutputOf<typeof FilesUnlock>[];
  unlockFailed: { id: string; label: string; reason: string }[];
};

/** The formats a password can open (docs/FORMATS.md [F11]). */
const LOCKABLE = new Set(['pdf', 'docx', 'xlsx', 'pptx']);

/** Indexes with the password each file of the report that could need one and is not indexed yet. */
async function unlockAdded(engine: Engine, report: AddReport, password: string): Promise<Unlocked> {
  const out: Unlocked = { unlocked: [], unlockFailed: [] };
  const row = engine.db.prepare('SELECT format, indexed FROM items WHERE id = ?');
  for (const f of [...report.added, ...report.unchanged]) {
    const r = row.get(f.id) as { format: string | null; indexed: number } | undefined;
    if (!r || r.indexed === 1 || !LOCKABLE.has(r.format ?? '')) continue;
    try {
      out.unlocked.push(await run(memberContext(engine, 'cli'), FilesUnlock, { id: f.id, password }));
    } catch (err) {
      out.unlockFailed.push({ id: f.id, label: f.label, reason: toTransferable(err).message });
    }
  }
  return out;
}

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description(FilesAdd.summary)
    .argument('<path...>', 'files or folders')
    // No default value: only a scope the person named is reported when a file already here keeps its own.
    .option('--scope <scope>', 'org, team:<id> or user:<id> (default: org)')
    .option('--external-id <id>', "the source's own id: new bytes under it are its next version")
    .option(
      '--password-file <path>',
      'index the PDF and Office files added at once, with the password in this file (- for standard input)',
    )
    .option('--json', 'print JSON (with --password-file also: unlocked, unlockFailed)')
    .action((paths: string[], opts: AddOptions) =>
      withEngine(program, async (engine) => {
        // Read first: a missing password file adds nothing.
        const password = opts.passwordFile === undefined ? null : readPasswordFile(opts.passwordFile);
        const bar = progressBar('adding');
        const notify = (event: string, payload: unknown) => {
          const p = payload as { done: number; total: number };
          if (event === 'add.progress') bar.update(p.done, p.total, '');
        };
        const result = await run(memberContext(engine, 'cli', { notify }), FilesAdd, {
          paths,
          scope: opts.scope,
          external_id: opts.externalId,
        });
        bar.stop();
        const unlocked = password === null ? null : await unlockAdded(engine, result, password);
        if (opts.json) printJson(unlocked ? { ...result, ...unlocked } : result);
        else printReport(result, unlocked, paths);
        // Re-adding never moves a file (src/engine/add/move.ts): said on stderr, after the report.
        for (const k of result.scopeKept ?? []) process.stderr.write(`${scopeKeptSentence(k)}\n`);
      }),
    );
}

function printReport(result: AddReport, unlocked: Unlocked | null, paths: readonly string[]): void {
  if (result.added.length + result.unchanged.length + result.refused.length === 0) {
    print(`Nothing added: no files found in ${paths.join(', ')}.`);
    return;
  }
  for (const a of result.added) print(`added      ${a.id}  ${oneLine(a.path)}`);
  for (const u of result.unchanged) print(`unchanged  ${u.id}  ${oneLine(u.path)}`);
  for (const r of result.refused) print(`refused    ${oneLine(r.path)}: ${r.reason}`);
  for (const f of unlocked?.unlocked ?? [])
    print(`indexed    ${f.id}  ${oneLine(f.label)} (${plural(f.sections, 'section')})`);
  for (const f of unlocked?.unlockFailed ?? []) print(`failed     ${f.id}  ${oneLine(f.label)}: ${f.reason}`);
  const left = result.added.length - (unlocked?.unlocked.length ?? 0);
  print(
    `${result.added.length} added, ${result.unchanged.length} unchanged, ${result.refused.length} refused.` +
      (left > 0 ? ' Run `brain index` to make them answerable.' : ''),
  );
}
