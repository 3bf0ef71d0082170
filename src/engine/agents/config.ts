/**
 * The numbers of agent brains (docs/AGENTS.md [G3]–[G5]), with the seed's defaults, and the price
 * table synthesis costs are estimated from. They are workspace settings (the `settings` table,
 * where the chat model's are, src/engine/llm/config.ts):
 *  - `agents.prices`: JSON `{ "<model id>": { "input": n, "output": n, "cached": n } }`, USD per
 *    1M tokens; a model not in it has no price, and its versions no cost ([G4]);
 *  - `agents.minSynthesisImportance` (0.2), `agents.pruneImportance` (0.3),
 *    `agents.staleDays` (90): the synthesis floor and the two pruning windows ([G5]).
 */
import { z } from 'zod';
import type { AGENT_TIERS } from '#shared/api/ops/agents.ts';
import { AppError } from '#shared/errors.ts';
import type { Db } from '../db/driver.ts';
import type { Usage } from '../llm/client.ts';
import { getSetting, putSetting } from '../llm/config.ts';

export type Tier = (typeof AGENT_TIERS)[number];

/** New qualifying observations an agent needs before it is due ([G3]). */
export const TIER_THRESHOLDS: Record<Tier, number> = { lead: 5, default: 20, 'high-volume': 90 };

export const SYNTHESIS = {
  /** At most this many of the agent's own observations per synthesis ([G3]). */
  maxObservations: 50,
  /** At most this many people's observations per synthesis (the newest). */
  maxHuman: 100,
  /** At most once an hour per agent ([G3]). */
  minIntervalMs: 60 * 60_000,
  timeoutMs: 180_000,
} as const;

export type AgentNumbers = { minSynthesisImportance: number; pruneImportance: number; staleDays: number };

const DEFAULTS: AgentNumbers = { minSynthesisImportance: 0.2, pruneImportance: 0.3, staleDays: 90 };

const PriceSchema = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  cached: z.number().min(0),
});
const PricesSchema = z.record(z.string().min(1), PriceSchema);
export type Price = z.output<typeof PriceSchema>;

function number(db: Db, key: keyof AgentNumbers, min: number, max: number): number {
  const raw = getSetting(db, `agents.${key}`);
  const n = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(n) && n >= min && n <= max ? n : DEFAULTS[key];
}

/** The synthesis floor and pruning windows; a setting out of range falls back to the default. */
export function readAgentNumbers(db: Db): AgentNumbers {
  return {
    minSynthesisImportance: number(db, 'minSynthesisImportance', 0, 1),
    pruneImportance: number(db, 'pruneImportance', 0, 1),
    staleDays: number(db, 'staleDays', 1, 36_500),
  };
}

/** The price table; an unreadable one is no table (no cost is guessed from it). */
export function readPrices(db: Db): Record<string, Price> {
  const raw = getSetting(db, 'agents.prices');
  if (raw === null) return {};
  try {
    const parsed = PricesSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Writes the agent settings given (prices checked first, by model id). */
export function writeAgentSettings(
  db: Db,
  patch: Partial<AgentNumbers> & { prices?: Record<string, Price> },
): void {
  if (patch.prices !== undefined) {
    const parsed = PricesSchema.safeParse(patch.prices);
    if (!parsed.success)
      throw new AppError(
        'validation-failed',
        `agents.prices: ${parsed.error.issues[0]?.path.join('.')}: invalid.`,
      );
    putSetting(db, 'agents.prices', JSON.stringify(parsed.data));
  }
  const ranges = { minSynthesisImportance: [0, 1], pruneImportance: [0, 1], staleDays: [1, 36_500] } as const;
  for (const key of ['minSynthesisImportance', 'pruneImportance', 'staleDays'] as const) {
    const v = patch[key];
    if (v === undefined) continue;
    const [min, max] = ranges[key];
    // The reader would fall back to the default on a number out of range: refuse it here instead.
    if (!Number.isFinite(v) || v < min || v > max)
      throw new AppError('validation-failed', `agents.${key}: ${v} is not between ${min} and ${max}.`);
    putSetting(db, `agents.${key}`, String(v));
  }
}

/**
 * The estimated cost in USD of one call ([G4]): the prompt's uncached tokens at the input price,
 * its cached ones at the cached price, the completion at the output price. No usage, or a model
 * without a price: null, never a guess.
 */
export function estimateCost(
  prices: Record<string, Price>,
  model: string,
  usage: Usage | null,
): number | null {
  const price = prices[model];
  if (!price || !usage) return null;
  const uncached = Math.max(0, usage.input - usage.cached);
  const usd =
    (uncached * price.input + usage.cached * price.cached + usage.output * price.output) / 1_000_000;
  return Math.round(usd * 1e8) / 1e8;
}
