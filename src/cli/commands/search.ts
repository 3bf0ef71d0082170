import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.ts';
import { describeCitation } from '../../shared/citation.ts';
import { SEARCH_K_MAX_CLI } from '../../shared/constants.ts';
import { AppError } from '../../shared/errors.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

function parseK(value: string): number {
  const k = Number(value);
  if (!Number.isInteger(k) || k < 1 || k > SEARCH_K_MAX_CLI) {
    throw new AppError(
      'validation-failed',
      `--k takes a whole number from 1 to ${SEARCH_K_MAX_CLI} (got ${value}).`,
    );
  }
  return k;
}

async function runBatch(engine: Engine, file: string, k: number): Promise<void> {
  const lines = createInterface({
    input: file === '-' ? process.stdin : createReadStream(file),
    crlfDelay: Infinity,
  });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let q: { id?: unknown; text?: unknown };
    try {
      q = JSON.parse(line) as { id?: unknown; text?: unknown };
    } catch {
      printJson({ error: { code: 'validation-failed', message: `not JSON: ${line.slice(0, 80)}` } });
      continue;
    }
    const result = await engine.search(String(q.text ?? ''), { k, maxK: SEARCH_K_MAX_CLI });
    printJson({ id: q.id ?? null, ...result });
  }
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Hybrid search (keyword + semantic, six streams fused), with citations')
    .argument('[query...]', 'what to look for')
    .option('--k <n>', `how many hits (default 5, at most ${SEARCH_K_MAX_CLI})`, '5')
    .option('--batch <file>', 'one JSON query {id,text} a line in (- for stdin), one JSON result a line out')
    .option('--json', 'print JSON')
    .action((words: string[], opts: { k: string; batch?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const k = parseK(opts.k);
        if (opts.batch) return runBatch(engine, opts.batch, k);
        const query = words.join(' ').trim();
        if (!query) throw new AppError('validation-failed', 'Give a query: brain search "<words>"');
        const result = await engine.search(query, { k, maxK: SEARCH_K_MAX_CLI });
        if (opts.json) return printJson(result);
        if (!result.semantic) print('(semantic search is off: keyword results only)');
        if (result.hits.length === 0) print('Nothing found.');
        result.hits.forEach((hit, i) => {
          print(`${i + 1}. ${hit.label}  [${hit.storageKind}, ${hit.scope}]  score ${hit.score.toFixed(4)}`);
          print(`   ${hit.id}  ${describeCitation(hit.citation)}`);
          print(`   ${hit.body.replace(/\s+/g, ' ').slice(0, 200)}`);
        });
      }),
    );
}
