import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { run } from '#engine/commands/index.ts';
import { memberContext } from '#engine/commands/types.ts';
import type { Engine } from '#engine/engine.ts';
import { inputOn } from '#shared/api/operation.ts';
import { SearchQuery } from '#shared/api/ops/retrieval.ts';
import { describeCitation } from '#shared/citation.ts';
import { SEARCH_K_MAX_CLI } from '#shared/constants.ts';
import { AppError, toTransferable } from '#shared/errors.ts';
import { plural } from '#shared/plural.ts';
import { withEngine } from '../context.ts';
import { print, printJson } from '../output.ts';

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
    try {
      const result = await run(memberContext(engine, 'cli'), SearchQuery, { query: String(q.text ?? ''), k });
      printJson({ id: q.id ?? null, ...result });
    } catch (err) {
      const e = toTransferable(err);
      printJson({ id: q.id ?? null, error: { code: e.code, message: e.message } });
    }
  }
}

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('Hybrid search (keyword + semantic, six streams fused), with citations')
    .argument('[query...]', 'what to look for')
    .option('-k, --k <n>', `how many hits (at most ${SEARCH_K_MAX_CLI})`, '5')
    .option('--batch <file>', 'one JSON query {id,text} a line in (- for stdin), one JSON result a line out')
    .option('--json', 'print JSON')
    .action((words: string[], opts: { k: string; batch?: string; json?: boolean }) =>
      withEngine(program, async (engine) => {
        const k = Number(opts.k);
        // A bad --k is a usage error before any query runs, batch or not.
        const checked = inputOn(SearchQuery, 'cli').shape.k.safeParse(k);
        if (!checked.success)
          throw new AppError('validation-failed', `--k: ${checked.error.issues[0]?.message ?? 'invalid'}`);
        if (opts.batch) return runBatch(engine, opts.batch, k);
        const query = words.join(' ').trim();
        if (!query) throw new AppError('validation-failed', 'Give a query: brain search "<words>"');
        // The contract's search.query with the CLI's limits (k up to SEARCH_K_MAX_CLI).
        const result = await run(memberContext(engine, 'cli'), SearchQuery, { query, k });
        if (opts.json) return printJson(result);
        if (!result.semantic) print('(semantic search is off: keyword results only)');
        if (result.hits.length === 0) print('Nothing found.');
        result.hits.forEach((hit, i) => {
          print(`${i + 1}. ${hit.label}  [${hit.storageKind}, ${hit.scope}]  score ${hit.score.toFixed(4)}`);
          print(`   ${hit.id}  ${describeCitation(hit.citation)}`);
          print(`   ${hit.body.replace(/\s+/g, ' ').slice(0, 200)}`);
          // The same source's other matching passages ride along ([R6] in docs/RETRIEVAL.md).
          const also = hit.also ?? [];
          const unlisted = (hit.more ?? 0) - also.length;
          if (hit.more) print(`   + ${plural(hit.more, 'more passage')} from this source:`);
          for (const a of also) print(`     ${a.id}  ${describeCitation(a.citation)}`);
          if (unlisted > 0) print(`     … and ${unlisted} more`);
        });
      }),
    );
}
