import { describe, expect, it } from 'vitest';
import { normaliseLinkType, normaliseName } from './graph.ts';

describe('normaliseName', () => {
  it.each([
    ['ACME, Inc.', 'company', 'acme'],
    ['Acme', 'company', 'acme'],
    ['Café Noir S.r.l.', 'company', 'cafe noir'],
    ['Müller GmbH & Co. KG', 'company', 'muller'],
    ['Globex Corporation Ltd', 'company', 'globex'],
    ['  José   Álvarez ', 'person', 'jose alvarez'],
    ['Inc', 'company', 'inc'],
    ['Project Co', 'project', 'project co'],
  ] as const)('%s (%s) → %s', (name, kind, want) => {
    expect(normaliseName(name, kind)).toBe(want);
  });
});

describe('normaliseLinkType', () => {
  it('keeps free text as UPPER_SNAKE and refuses junk', () => {
    expect(normaliseLinkType('same as')).toBe('SAME_AS');
    expect(normaliseLinkType('Depends-on')).toBe('DEPENDS_ON');
    expect(() => normaliseLinkType('1abc')).toThrow(/must start with a letter/);
    expect(() => normaliseLinkType('a;b')).toThrow();
  });
});
