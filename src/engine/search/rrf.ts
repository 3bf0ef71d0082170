/** Reciprocal rank fusion and freshness ([Q1] in docs/PRODUCT.md). Pure arithmetic, no score scaling. */
import { FRESHNESS_FLOOR, FRESHNESS_HALF_LIFE_DAYS, RRF_K } from '#shared/constants.ts';

/**
 * Each list votes 1 / (60 + rank) for each of its entries (rank 1-based), times its weight (1
 * unless `weights` says otherwise, in the lists' order); votes add up.
 */
export function fuseRanks<T>(
  lists: readonly (readonly T[])[],
  k = RRF_K,
  weights: readonly number[] = [],
): Map<T, number> {
  const scores = new Map<T, number>();
  for (const [at, list] of lists.entries()) {
    const weight = weights[at] ?? 1;
    list.forEach((key, index) => {
      scores.set(key, (scores.get(key) ?? 0) + weight / (k + index + 1));
    });
  }
  return scores;
}

const DAY_MS = 86_400_000;

/** max(0.25, 0.5 ^ (age_days / 90)); an unknown or future date counts as fresh. */
export function freshness(when: string | null | undefined, now: number): number {
  const t = when ? Date.parse(when) : Number.NaN;
  if (Number.isNaN(t)) return 1;
  const ageDays = Math.max(0, (now - t) / DAY_MS);
  return Math.max(FRESHNESS_FLOOR, 0.5 ** (ageDays / FRESHNESS_HALF_LIFE_DAYS));
}
