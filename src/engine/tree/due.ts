/**
 * Which trees are due a build (docs/TREES.md [T4], [T13]): a tree whose tip moved since its
 * indexed commit (a branch's commit, a folder's fingerprint, a received tree's record once its
 * documents arrived), unless it is off or its last build failed on that same tip. Hosts look every
 * minute and after each pull; `brain sync` builds the received trees a pull made due.
 */
import type { Engine } from '../engine.ts';
import { type BuildOutcome, buildSource, listSources, type TreeSource, tipOf } from './sources.ts';

export async function buildDueTrees(
  engine: Engine,
  options: { only?: (source: TreeSource) => boolean; closed?: () => boolean } = {},
): Promise<{ tree: string; outcome: BuildOutcome | null }[]> {
  const built: { tree: string; outcome: BuildOutcome | null }[] = [];
  for (const source of listSources(engine)) {
    if (options.closed?.()) break;
    if (options.only && !options.only(source)) continue;
    // Not skipped while `indexing`: a process killed mid-build leaves that state behind, and two
    // builds at once are safe (the second finds the tree moved and leaves it as it is).
    if (source.state === 'off') continue;
    const tip = await tipOf(engine, source).catch(() => null);
    if (!tip) {
      // A received tree still waiting for documents says how many.
      if (source.remote) await buildSource(engine, source.id).catch(() => null);
      continue;
    }
    if (tip === source.indexedCommit && source.state === 'ready') continue;
    if (source.state === 'failed' && tip === source.attemptedCommit) continue;
    try {
      built.push({ tree: source.id, outcome: await buildSource(engine, source.id) });
    } catch {
      built.push({ tree: source.id, outcome: null }); // failed: its state says why
    }
  }
  return built;
}
