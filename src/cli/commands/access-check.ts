/**
 * `brain access-check [FILE] [--json]`: the contract's accessChecks.run ([R4] in
 * docs/RETRIEVAL.md) on a checks file (JSON or YAML), or on the checks kept in Settings. Prints the
 * pass/fail table and exits 1 when a case fails, so a checks file can gate a script or CI.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import { type AccessCheckReport, AccessChecksRun } from '#shared/api/ops/access.ts';
import { AppError } from '#shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

const QUESTION_COLUMN = 48;

function readChecks(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new AppError('not-found', `Cannot read the checks file ${file} (${code}).`);
  }
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function details(c: AccessCheckReport['cases'][number]): string {
  if (c.error) return `error: ${c.error}`;
  const parts = [];
  if (c.missing.length) parts.push(`missing: ${c.missing.join(', ')}`);
  if (c.leaked.length) parts.push(`leaked: ${c.leaked.join(', ')}`);
  return parts.join('; ');
}

function printTable(report: AccessCheckReport): void {
  const rows = report.cases.map((c, i) => [
    String(i + 1),
    c.as,
    cut(c.question.replace(/\s+/g, ' '), QUESTION_COLUMN),
    c.pass ? 'PASS' : 'FAIL',
    details(c),
  ]);
  const head = ['#', 'member', 'question', 'result', 'missing / leaked'];
  const widths = head.map((h, col) => Math.max(h.length, ...rows.map((r) => (r[col] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, col) => (col === cells.length - 1 ? cell : cell.padEnd(widths[col] ?? 0)))
      .join('  ')
      .trimEnd();
  print(line(head));
  for (const r of rows) print(line(r));
  print();
  print(
    `${report.passed} passed, ${report.failed} failed` +
      (report.semantic ? '' : ' (semantic search is off: keyword search only)'),
  );
}

export function registerAccessCheck(program: Command): void {
  program
    .command('access-check')
    .description(AccessChecksRun.summary)
    .argument(
      '[file]',
      'the checks, JSON or YAML: a list of {as, question, mustReach, mustNotReach} (default: those kept in Settings)',
    )
    .option('--json', 'print JSON')
    .action((file: string | undefined, opts: { json?: boolean }) =>
      withEngine(program, async (engine) => {
        const input = file === undefined ? {} : { text: readChecks(file), source: file };
        const report = await run(memberContext(engine, 'cli'), AccessChecksRun, input);
        if (opts.json) printJson(report);
        else printTable(report);
        if (report.failed > 0) process.exitCode = 1;
      }),
    );
}
