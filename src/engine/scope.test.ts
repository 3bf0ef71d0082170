import { describe, expect, it } from 'vitest';
import { openDb } from './db/driver.ts';
import { canSee, narrowestScope, parseScope, visibleScopes } from './scope.ts';
import { addMember } from './workspace.ts';

describe('scopes', () => {
  it('parses org, team and user scopes; missing means org; anything else is refused', () => {
    expect(parseScope(undefined)).toBe('org');
    expect(parseScope('')).toBe('org');
    expect(parseScope('team:finance')).toBe('team:finance');
    expect(parseScope('user:dana')).toBe('user:dana');
    expect(() => parseScope('team:')).toThrow(/Unknown scope/);
    expect(() => parseScope("team:x' OR 1=1")).toThrow(/Unknown scope/);
  });

  it('a user sees org, their own scope and their teams', () => {
    const db = openDb(':memory:');
    addMember(db, 'dana', ['finance', 'ops']);
    addMember(db, 'eli', []);
    expect(visibleScopes(db, 'dana')).toEqual(['org', 'user:dana', 'team:finance', 'team:ops']);
    expect(visibleScopes(db, 'eli')).toEqual(['org', 'user:eli']);
    expect(canSee(visibleScopes(db, 'eli'), 'team:finance')).toBe(false);
    expect(canSee(visibleScopes(db, 'eli'), null)).toBe(true);
  });

  it('derived items take the narrowest scope; incomparable scopes fail closed', () => {
    expect(narrowestScope(['org', 'team:a'])).toBe('team:a');
    expect(narrowestScope(['org', ''])).toBe('org');
    expect(narrowestScope(['team:a', 'team:b'])).toBeNull();
    expect(narrowestScope(['team:a', 'user:x'])).toBeNull();
  });
});
