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

describe('normaliseName: what an alias is found by', () => {
  it.each([
    ['case', 'GLOBEX', 'company', 'globex'],
    ['accents', 'Société Générale', 'company', 'societe generale'],
    ['accents in people', 'Zoë Ångström', 'person', 'zoe angstrom'],
    ['legal suffix with dots', 'Initech S.p.A.', 'company', 'initech'],
    ['stacked suffixes', 'Umbrella Holdings Pty Ltd', 'company', 'umbrella holdings'],
    ['punctuation', "O'Brien-Smith & Co.", 'company', 'o brien smith'],
    ['punctuation in people', 'Dana  Reyes, Jr.', 'person', 'dana reyes jr'],
    ['a suffix is kept for a person', 'Ltd Smith Inc', 'person', 'ltd smith inc'],
  ] as const)('%s: %s → %s', (_what, name, kind, want) => {
    expect(normaliseName(name, kind)).toBe(want);
  });
});
