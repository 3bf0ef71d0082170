import { describe, expect, it } from 'vitest';
import { narrowestScope } from '../scopes.ts';
import { bodyHash, canonicalJson, isNewer } from './canonical.ts';

describe('canonical bodies and ordering', () => {
  it('[S5] canonical JSON ignores key order at every level', () => {
    const a = canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } });
    const b = canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 });
    expect(a).toBe(b);
    expect(bodyHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('[S8] last writer wins by hlc, then op id, by code unit; symmetric', () => {
    const cases: [string, string, string, string, boolean][] = [
      ['1767225600001-000000-a', 'x', '1767225600000-000009-z', 'y', true],
      ['1767225600000-000001-a', 'x', '1767225600000-000000-z', 'y', true],
      ['1767225600000-000000-B', 'x', '1767225600000-000000-a', 'y', false],
      ['1767225600000-000000-a', 'b', '1767225600000-000000-a', 'a', true],
    ];
    for (const [h1, o1, h2, o2, want] of cases) {
      expect(isNewer({ hlc: h1, opId: o1 }, { hlc: h2, opId: o2 })).toBe(want);
      expect(isNewer({ hlc: h2, opId: o2 }, { hlc: h1, opId: o1 })).toBe(!want);
    }
  });

  it('[S4] the narrowest scope of two; incomparable ones fail closed', () => {
    const table: [string, string, string | null][] = [
      ['org', 'org', 'org'],
      ['org', 'team:a', 'team:a'],
      ['user:u', 'org', 'user:u'],
      ['team:a', 'team:a', 'team:a'],
      ['team:a', 'team:b', null],
      ['team:a', 'user:u', null],
      ['user:u', 'user:v', null],
    ];
    for (const [a, b, want] of table) {
      expect(narrowestScope(a, b)).toBe(want);
      expect(narrowestScope(b, a)).toBe(want);
    }
  });
});
