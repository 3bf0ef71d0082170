/**
 * The gate ([W2] in docs/PRODUCT.md), a pure function of a proposal and who the run belongs to:
 *
 *   empty or nonsense                      → skip
 *   user scope with no user attached       → skip (never widened to org)
 *   sensitive (model flag or detector)     → review (an inbox card)
 *   confidence < 0.75                      → review
 *   user scope                             → review, always
 *   confident org (or team) knowledge      → written straight in
 *
 * Scopes are resolved here: `user`/`personal` means the run's user; a user scope naming anyone
 * else, a team the run's user is not in, or anything unparseable is skipped (never widened). The
 * deterministic sensitive check always runs, so nothing sensitive is written straight in even when
 * the model misses it.
 */
import { type Detection, detectSensitive } from './sensitive.ts';

const CONFIDENCE_FLOOR = 0.75;

export type Proposal = {
  kind: string;
  label: string;
  body: string;
  scope: string;
  confidence: number;
  sensitive: boolean;
  sensitiveReason?: string | null;
};

export type GateContext = {
  /** The user the run belongs to (null: no user attached). */
  user: string | null;
  userExists: (id: string) => boolean;
  /** Scopes the run's user may write in (org, their user scope, their teams). */
  writable: readonly string[];
};

export type GateDecision = {
  decision: 'skip' | 'review' | 'write';
  reason: string;
  /** The scope the proposal is stored (and, once approved, written) at. */
  scope: string;
  detected: Detection[];
};

const SCOPE_RE = /^(org|team:[A-Za-z0-9._@-]{1,64}|user:[A-Za-z0-9._@-]{1,64})$/;

/** Why a text is not knowledge, or null when it may be. */
function nonsenseReason(label: string, body: string): string | null {
  const text = `${label} ${body}`;
  const words = body.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  if (body.length < 12 || words.length < 4) return 'nonsense: too short to be knowledge';
  const visible = text.replace(/\s+/g, '');
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  if (letters / Math.max(1, visible.length) < 0.5) return 'nonsense: mostly symbols or digits';
  const lower = words.map((w) => w.toLowerCase());
  if (lower.length >= 6 && new Set(lower).size / lower.length < 0.3) return 'nonsense: repeated words';
  if (/\blorem ipsum\b/i.test(text)) return 'nonsense: placeholder text';
  if (words.filter((w) => /[aeiouyàèéìòù]/i.test(w) || /\p{N}/u.test(w)).length / words.length < 0.5)
    return 'nonsense: not words';
  return null;
}

function resolveScope(raw: string, ctx: GateContext): { scope: string } | { skip: string } {
  const s = raw.trim().toLowerCase() === '' ? 'org' : raw.trim();
  const lower = s.toLowerCase();
  if (lower === 'user' || lower === 'personal' || lower === 'user:' || lower === 'me') {
    if (!ctx.user) return { skip: 'user scope with no user attached: skipped, never widened to org' };
    return { scope: `user:${ctx.user}` };
  }
  if (lower === 'org' || lower === 'organisation' || lower === 'organization') return { scope: 'org' };
  if (!SCOPE_RE.test(s)) return { skip: `unknown scope "${raw.slice(0, 80)}": skipped` };
  if (s.startsWith('user:')) {
    const id = s.slice('user:'.length);
    if (!ctx.user || !ctx.userExists(id))
      return { skip: 'user scope with no user attached: skipped, never widened to org' };
    if (id !== ctx.user)
      return { skip: `user scope of another user (${id}): a run only proposes for its own user` };
    return { scope: s };
  }
  if (!ctx.writable.includes(s)) return { skip: `${s} is not a scope the run's user can write in: skipped` };
  return { scope: s };
}

export function gate(p: Proposal, ctx: GateContext): GateDecision {
  const label = p.label.trim();
  const body = p.body.trim();
  const detected = detectSensitive(`${label}\n${body}`);
  const base = { detected, scope: 'org' };
  if (!label || !body) return { ...base, decision: 'skip', reason: 'empty: no label or no body' };
  const nonsense = nonsenseReason(label, body);
  if (nonsense) return { ...base, decision: 'skip', reason: nonsense };
  const resolved = resolveScope(p.scope, ctx);
  if ('skip' in resolved) return { ...base, decision: 'skip', reason: resolved.skip };
  const scope = resolved.scope;
  const confidence = Number.isFinite(p.confidence) ? p.confidence : 0;
  if (p.sensitive || detected.length) {
    const what = [
      ...(p.sensitive ? [`the writer flagged it${p.sensitiveReason ? `: ${p.sensitiveReason}` : ''}`] : []),
      ...(detected.length ? [`detected ${detected.map((d) => d.kind).join(', ')}`] : []),
    ];
    return { decision: 'review', reason: `sensitive (${what.join('; ')})`, scope, detected };
  }
  if (confidence < CONFIDENCE_FLOOR)
    return {
      decision: 'review',
      reason: `low confidence (${confidence.toFixed(2)} < ${CONFIDENCE_FLOOR})`,
      scope,
      detected,
    };
  if (scope.startsWith('user:'))
    return {
      decision: 'review',
      reason: 'user scope: personal knowledge is always reviewed',
      scope,
      detected,
    };
  return {
    decision: 'write',
    reason: `confident ${scope === 'org' ? 'org' : scope} knowledge (${confidence.toFixed(2)}): written straight in`,
    scope,
    detected,
  };
}
