/**
 * Running access checks ([R4] in docs/RETRIEVAL.md): each case's question goes through the search
 * every surface runs (src/engine/search/search.ts, as Engine.search calls it: hybrid when the
 * embedding model is on, else keyword) with ACCESS_CHECK_K hits, in the scopes the engine gives
 * the case's member (`visibleScopes`, what Engine.scopes() gives an engine opened as them). A file
 * is reached when a hit is the file or one of its sections (`citation.fileId`). A case that cannot
 * be judged (an unknown member or file) fails with its error. The run is one `access-check` entry
 * in the admin's Activity; the searches are not logged as the members', who did not ask them.
 */
import { basename } from 'node:path';
import type { AccessCheckReport } from '#shared/api/ops/access.ts';
import type { SearchResult } from '#shared/types.ts';
import type { Embedder } from '../embed/index.ts';
import type { Engine } from '../engine.ts';
import { visibleScopes } from '../scope.ts';
import { search } from '../search/search.ts';
import { logEvent, type Surface } from '../telemetry.ts';
import { userExists } from '../workspace.ts';
import type { CheckCase } from './checks-text.ts';
import { type FileRef, resolveFileRefs } from './file-refs.ts';

/**
 * Hits each case's search keeps: a page of results, more than the 8 an agent gets
 * (SEARCH_K_MAX_AGENT), so a file a member reaches a little further down still counts as reached.
 */
const ACCESS_CHECK_K = 20;

type CaseResult = AccessCheckReport['cases'][number];

/** Logged as event `access-check` under the admin (telemetry.ts); its summary is what Activity shows. */
type AccessCheckEventData = {
  by: string;
  as: string[];
  cases: number;
  passed: number;
  failed: number;
  source: string | null;
  surface: Surface;
  summary: string;
};

/** The query vector as Engine.search makes it: none when the model is off or fails (keywords answer). */
async function queryVectorOf(embedder: Embedder, question: string) {
  if (embedder.state().status !== 'on') return null;
  try {
    const vector = await embedder.embedQuery(question);
    const model = embedder.modelId();
    return model ? { vector, model } : null;
  } catch {
    return null;
  }
}

async function searchAs(engine: Engine, member: string, question: string): Promise<SearchResult> {
  return search(engine.db, question, {
    scopes: visibleScopes(engine.db, member),
    k: ACCESS_CHECK_K,
    maxK: ACCESS_CHECK_K,
    queryVector: await queryVectorOf(engine.embedder, question),
  });
}

/** The case's files by reference, or why it cannot be judged. */
function filesOf(c: CheckCase, refs: Map<string, FileRef>): Map<string, string> | string {
  const errors: string[] = [];
  const ids = new Map<string, string>();
  for (const ref of [...c.mustReach, ...c.mustNotReach]) {
    const found = refs.get(ref);
    if (!found || 'error' in found) errors.push(found?.error ?? `no file "${ref}"`);
    else ids.set(ref, found.id);
  }
  if (errors.length) return [...new Set(errors)].join('; ');
  const both = c.mustReach.find((r) => c.mustNotReach.some((n) => ids.get(n) === ids.get(r)));
  return both === undefined ? ids : `"${both}" is in both mustReach and mustNotReach`;
}

/** The case's row, and whether its search was hybrid (null: it could not run). */
async function runCase(
  engine: Engine,
  c: CheckCase,
  refs: Map<string, FileRef>,
): Promise<{ row: CaseResult; semantic: boolean | null }> {
  const base = { as: c.as, question: c.question, reached: [], missing: [], leaked: [] };
  const unjudged = (error: string) => ({ row: { ...base, pass: false, error }, semantic: null });
  if (!userExists(engine.db, c.as)) return unjudged(`no member "${c.as}" in this workspace`);
  const files = filesOf(c, refs);
  if (typeof files === 'string') return unjudged(files);
  const result = await searchAs(engine, c.as, c.question);
  const hitFiles = new Set(result.hits.flatMap((h) => (h.citation ? [h.citation.fileId] : [])));
  const isReached = (ref: string) => hitFiles.has(files.get(ref) ?? '');
  const missing = c.mustReach.filter((r) => !isReached(r));
  const leaked = c.mustNotReach.filter(isReached);
  const reached = [...c.mustReach, ...c.mustNotReach].filter(isReached);
  const pass = missing.length === 0 && leaked.length === 0;
  return { row: { ...base, pass, reached, missing, leaked }, semantic: result.semantic };
}

function record(
  engine: Engine,
  admin: string,
  surface: Surface,
  source: string | null,
  r: AccessCheckReport,
) {
  const members = [...new Set(r.cases.map((c) => c.as))];
  const n = r.cases.length;
  const shownMembers = members.slice(0, 5).join(', ') + (members.length > 5 ? ', …' : '');
  const summary =
    `access check${source ? ` (${basename(source)})` : ''}: ${n} case${n === 1 ? '' : 's'} as ${shownMembers}, ` +
    `${r.passed} passed, ${r.failed} failed (${surface})`;
  const data: AccessCheckEventData = {
    by: admin,
    as: members,
    cases: n,
    passed: r.passed,
    failed: r.failed,
    source,
    surface,
    summary,
  };
  logEvent(engine.db, surface, admin, 'access-check', data);
}

/**
 * Runs checked cases as the admin `admin` (src/engine/access/local-admin.ts decided that) and
 * records the run in their Activity.
 */
export async function runAccessChecks(
  engine: Engine,
  cases: readonly CheckCase[],
  options: { admin: string; surface: Surface; source?: string },
): Promise<AccessCheckReport> {
  const refs = resolveFileRefs(
    engine.db,
    cases.flatMap((c) => [...c.mustReach, ...c.mustNotReach]),
  );
  const results: CaseResult[] = [];
  const modes: boolean[] = [];
  for (const c of cases) {
    const { row, semantic } = await runCase(engine, c, refs);
    results.push(row);
    if (semantic !== null) modes.push(semantic);
  }
  // Hybrid only when every search was; no search ran: whether the model is on.
  const semantic = modes.length ? modes.every(Boolean) : engine.embedder.state().status === 'on';
  const passed = results.filter((r) => r.pass).length;
  const report = { cases: results, passed, failed: results.length - passed, semantic };
  record(engine, options.admin, options.surface, options.source ?? null, report);
  return report;
}
