/** Canonical JSON (keys sorted at every level): the body an op id is bound to for idempotency. */
import { createHash } from 'node:crypto';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function bodyHash(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}

/** Last writer wins: the larger (hlc, op id), compared by code unit (the database uses COLLATE "C"). */
export function isNewer(a: { hlc: string; opId: string }, b: { hlc: string; opId: string }): boolean {
  if (a.hlc !== b.hlc) return a.hlc > b.hlc;
  return a.opId > b.opId;
}
