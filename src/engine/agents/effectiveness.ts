/**
 * Effectiveness of an agent's brain versions (docs/AGENTS.md [G8]): per version, the runs that
 * read it (runs.brain_version, [G7]), how many ended and succeeded, the success rate, people's
 * thumbs on those runs and the version's cost; the trend exactly as the design's source has it;
 * the synthesis cost per week; and the comparison of two versions when one is set ([G9]).
 */
import type { Db } from '../db/driver.ts';
import { type AgentRow, listVersions } from './agents.ts';
import { comparisonOf } from './mount.ts';

/** Final statuses: a blocked run waits for someone and may be ended again, so it has not ended ([G8]). */
const FINAL_STATUSES = ['succeeded', 'failed', 'cancelled'] as const;

const TREND = {
  minVersions: 3,
  minRuns: 5,
  /** 5 percentage points. */
  thresholdPoints: 5,
} as const;

const COST_WEEKS = 8;

export type Trend = 'improving' | 'declining' | 'stable' | 'insufficient data';

type VersionEffectiveness = {
  number: number;
  runs: number;
  ended: number;
  succeeded: number;
  rate: number | null;
  thumbsUp: number;
  thumbsDown: number;
  score: number | null;
  costUsd: number | null;
};

type Stats = { runs: number; succeeded: number; rate: number | null };

export type Effectiveness = {
  agent: string;
  versions: VersionEffectiveness[];
  trend: Trend;
  weeks: { week: string; costUsd: number | null }[];
  comparison: null | {
    a: number;
    b: number;
    split: number;
    since: string | null;
    aStats: Stats;
    bStats: Stats;
  };
};

/**
 * [G8] The trend, exactly as the design's source: of the versions with runs (here: with ended
 * runs, the rate's denominator), newest first, at least 3 and at least 5 runs in all; the newest's
 * success rate against the third-most-recent's: more than 5 points better is improving, more than
 * 5 worse declining, else stable; otherwise insufficient data. Compared in integers
 * (100·(s₁e₃ − s₃e₁) against 5·e₁e₃), so exactly 5 points is stable, never a float's rounding.
 */
export function calculateTrend(newestFirst: readonly { ended: number; succeeded: number }[]): Trend {
  const withRuns = newestFirst.filter((v) => v.ended > 0);
  const total = withRuns.reduce((n, v) => n + v.ended, 0);
  if (withRuns.length < TREND.minVersions || total < TREND.minRuns) return 'insufficient data';
  const newest = withRuns[0] as { ended: number; succeeded: number };
  const third = withRuns[TREND.minVersions - 1] as { ended: number; succeeded: number };
  const delta = 100 * (newest.succeeded * third.ended - third.succeeded * newest.ended);
  const bar = TREND.thresholdPoints * newest.ended * third.ended;
  if (delta > bar) return 'improving';
  if (delta < -bar) return 'declining';
  return 'stable';
}

/** The ISO date (UTC) of the Monday of `at`'s week. */
export function mondayOf(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

type RunCounts = { v: number; runs: number; ended: number; succeeded: number };
type ThumbCounts = { v: number; up: number; down: number };

const rateOf = (succeeded: number, ended: number) => (ended > 0 ? succeeded / ended : null);

/**
 * [G8] The quality score: a person's thumbs up counts as one more success, a thumbs down as one
 * more failure, over the ended runs; null with neither. The rate (and so the trend) stays the seed's.
 */
function scoreOf(succeeded: number, ended: number, up: number, down: number): number | null {
  const n = ended + up + down;
  return n > 0 ? (succeeded + up) / n : null;
}

/**
 * The agent's effectiveness as `visible` (the reader's scopes) sees it: runs of every member count
 * (a run holds no text here, only its status); thumbs count when the reader can see them.
 */
export function effectiveness(
  db: Db,
  agent: AgentRow,
  visible: readonly string[],
  now = new Date(),
): Effectiveness {
  const finals = FINAL_STATUSES.map((s) => `'${s}'`).join(', ');
  const runs = db
    .prepare(
      `SELECT brain_version AS v, count(*) AS runs, sum(status IN (${finals})) AS ended,
         sum(status = 'succeeded') AS succeeded
       FROM runs WHERE agent_id = ? AND brain_version IS NOT NULL GROUP BY brain_version`,
    )
    .all(agent.id) as RunCounts[];
  const thumbs = db
    .prepare(
      `SELECT r.brain_version AS v, sum(o.type = 'human_thumbs_up') AS up, sum(o.type = 'human_thumbs_down') AS down
       FROM observations o JOIN runs r ON r.id = o.run_id
       WHERE r.agent_id = ? AND r.brain_version IS NOT NULL
         AND o.type IN ('human_thumbs_up', 'human_thumbs_down')
         AND o.scope IN (${visible.map(() => '?').join(', ') || "''"})
       GROUP BY r.brain_version`,
    )
    .all(agent.id, ...visible) as ThumbCounts[];
  const runsBy = new Map(runs.map((r) => [r.v, r]));
  const thumbsBy = new Map(thumbs.map((t) => [t.v, t]));
  const rows = listVersions(db, agent);
  const versions = rows.map((v): VersionEffectiveness => {
    const r = runsBy.get(v.number);
    const t = thumbsBy.get(v.number);
    const ended = r?.ended ?? 0;
    const succeeded = r?.succeeded ?? 0;
    const up = t?.up ?? 0;
    const down = t?.down ?? 0;
    return {
      number: v.number,
      runs: r?.runs ?? 0,
      ended,
      succeeded,
      rate: rateOf(succeeded, ended),
      thumbsUp: up,
      thumbsDown: down,
      score: scoreOf(succeeded, ended, up, down),
      costUsd: v.cost_usd,
    };
  });

  const weeks: Effectiveness['weeks'] = [];
  const thisWeek = Date.parse(`${mondayOf(now)}T00:00:00.000Z`);
  for (let i = COST_WEEKS - 1; i >= 0; i--) {
    const start = new Date(thisWeek - i * 7 * 86_400_000);
    const end = new Date(start.getTime() + 7 * 86_400_000);
    const costs = rows
      .filter((v) => v.created_at >= start.toISOString() && v.created_at < end.toISOString())
      .map((v) => v.cost_usd);
    // None, or one of unknown cost: unknown, as costSince in agents.ts says ([G4]).
    const known = costs.length > 0 && costs.every((c) => c !== null);
    weeks.push({
      week: start.toISOString().slice(0, 10),
      costUsd: known ? (costs as number[]).reduce((s, c) => s + c, 0) : null,
    });
  }

  const c = comparisonOf(agent);
  const since = agent.compare_since;
  // [G9] Each side counts the runs since the comparison was set: earlier runs of the same version
  // were not chosen by the split.
  const compared = db.prepare(
    `SELECT count(*) AS runs, coalesce(sum(status IN (${finals})), 0) AS ended,
       coalesce(sum(status = 'succeeded'), 0) AS succeeded
     FROM runs WHERE agent_id = ? AND brain_version = ? AND (? IS NULL OR ended_at >= ?)`,
  );
  const stats = (n: number): Stats => {
    const r = compared.get(agent.id, n, since, since) as Omit<RunCounts, 'v'>;
    return { runs: r.runs, succeeded: r.succeeded, rate: rateOf(r.succeeded, r.ended) };
  };
  return {
    agent: agent.name,
    versions,
    trend: calculateTrend(versions),
    weeks,
    comparison: c ? { ...c, since, aStats: stats(c.a), bStats: stats(c.b) } : null,
  };
}
