/** Formatting for the Agents screen: costs (never a guessed number), section names, tiers. */
import { AGENT_TIERS } from '#shared/api/ops/agents.ts';

export type Tier = (typeof AGENT_TIERS)[number];
export const TIERS = AGENT_TIERS;

/** The tier's synthesis threshold, as docs/AGENTS.md [G3] sets it (the engine's answer wins). */
export const TIER_LABEL: Record<Tier, string> = {
  lead: 'Lead (every 5)',
  default: 'Default (every 20)',
  'high-volume': 'High volume (every 90)',
};

/** US dollars; "—" when the cost is unknown (no price for the model, docs/AGENTS.md [G4]). */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return '—';
  if (usd === 0) return '$0';
  // Syntheses cost cents: below a dollar keep four decimals (trailing zeros beyond two dropped).
  if (usd < 1) return `$${usd.toFixed(4).replace(/0{1,2}$/, '')}`;
  return `$${usd.toFixed(2)}`;
}

export function formatTokens(n: number | null): string {
  return n === null ? '—' : n.toLocaleString();
}

/** `open_questions` → "Open questions". */
export function sectionTitle(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]?.toUpperCase() + words.slice(1) : name;
}

/** The order sections are shown in: the published ones first, then the rest by name. */
const KNOWN = ['conventions', 'gotchas', 'decisions', 'open_questions'];
export function sectionOrder(names: readonly string[]): string[] {
  const rank = (n: string) => (KNOWN.includes(n) ? KNOWN.indexOf(n) : KNOWN.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function formatPercent(rate: number | null): string {
  return rate === null ? '—' : `${Math.round(rate * 100)} %`;
}
