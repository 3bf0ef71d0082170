import { describe, expect, it } from 'vitest';
import { findRefIds, isRefId, leadingRefId } from './refids.ts';

describe('reference ids', () => {
  it.each(['RULE-INV01-0001', 'ADR-003', 'R-01', 'HTTP-2', 'A1-B'])('%s is an id', (id) => {
    expect(isRefId(id)).toBe(true);
  });

  it.each(['ADR003', 'Adr-003', 'ABC-DEF', '1-ABC', 'ADR-', 'ADR--1', `A-${'1'.repeat(70)}`])(
    '%s is not an id',
    (id) => {
      expect(isRefId(id)).toBe(false);
    },
  );

  it('finds the id a heading starts with', () => {
    expect(leadingRefId('RULE-INV01-0001 Prices must match')).toBe('RULE-INV01-0001');
    expect(leadingRefId('ADR-003: Use Postgres')).toBe('ADR-003');
    expect(leadingRefId('R-01 — Prices differ')).toBe('R-01');
    expect(leadingRefId('ADR-003-draft notes')).toBeNull();
    expect(leadingRefId('See ADR-003')).toBeNull();
    expect(leadingRefId('Business rules')).toBeNull();
  });

  it('finds ids standing alone in text, not inside words or paths', () => {
    const found = findRefIds('See ADR-003, (R-01) and RULE-INV01-0001. Not xADR-004, ADR-005b or ADR-006-x.');
    expect(found.map((f) => f.id)).toEqual(['ADR-003', 'R-01', 'RULE-INV01-0001']);
    expect(findRefIds('no ids here')).toEqual([]);
  });
});
