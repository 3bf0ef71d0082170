import { describe, expect, it } from 'vitest';
import { gate, type Proposal } from './gate.ts';
import { detectSensitive } from './sensitive.ts';

const ctx = {
  user: 'alice',
  userExists: (id: string) => ['alice', 'bob'].includes(id),
  writable: ['org', 'user:alice', 'team:ops'],
};
const base: Proposal = {
  kind: 'decision',
  label: 'Invoices are approved by finance',
  body: 'Every supplier invoice above 5000 EUR is approved by the finance team before payment.',
  scope: 'org',
  confidence: 0.9,
  sensitive: false,
};

describe('the gate', () => {
  it('skips empty and nonsense proposals', () => {
    expect(gate({ ...base, body: '   ' }, ctx)).toMatchObject({
      decision: 'skip',
      reason: expect.stringMatching(/^empty/),
    });
    expect(gate({ ...base, label: '' }, ctx).decision).toBe('skip');
    for (const body of [
      'asdf qwer zxcv',
      '!!!! ???? #### $$$$ 1234 5678',
      'ok ok ok ok ok ok ok ok ok',
      'lorem ipsum dolor sit amet consectetur',
    ]) {
      expect(gate({ ...base, body }, ctx)).toMatchObject({
        decision: 'skip',
        reason: expect.stringMatching(/^nonsense/),
      });
    }
  });

  it('sends sensitive proposals to review, flagged by the model or found by the check', () => {
    const flagged = gate({ ...base, sensitive: true, sensitiveReason: 'salary data' }, ctx);
    expect(flagged).toMatchObject({ decision: 'review', reason: expect.stringContaining('salary data') });
    // The model missed it; the deterministic check did not.
    const missed = gate(
      { ...base, body: 'The staging database password: Hunter2!x and it rotates monthly.', confidence: 0.99 },
      ctx,
    );
    expect(missed.decision).toBe('review');
    expect(missed.reason).toMatch(/detected password/);
    expect(missed.detected.map((d) => d.kind)).toEqual(['password']);
  });

  it('sends low confidence to review', () => {
    expect(gate({ ...base, confidence: 0.74 }, ctx)).toMatchObject({
      decision: 'review',
      reason: expect.stringMatching(/low confidence \(0\.74/),
    });
    expect(gate({ ...base, confidence: Number.NaN }, ctx).decision).toBe('review');
  });

  it('always reviews user scope, and skips it when no user is attached (never widened to org)', () => {
    expect(gate({ ...base, scope: 'user' }, ctx)).toMatchObject({
      decision: 'review',
      scope: 'user:alice',
      reason: expect.stringMatching(/user scope/),
    });
    expect(gate({ ...base, scope: 'user:alice', confidence: 1 }, ctx)).toMatchObject({
      decision: 'review',
      scope: 'user:alice',
    });
    const none = { ...ctx, user: null };
    expect(gate({ ...base, scope: 'user' }, none)).toMatchObject({
      decision: 'skip',
      reason: expect.stringMatching(/no user attached/),
    });
    expect(gate({ ...base, scope: 'user:ghost' }, ctx)).toMatchObject({
      decision: 'skip',
      reason: expect.stringMatching(/no user attached/),
    });
    expect(gate({ ...base, scope: 'user:bob' }, ctx).decision).toBe('skip');
  });

  it('writes confident org knowledge straight in; a team the user is not in is skipped', () => {
    expect(gate(base, ctx)).toMatchObject({
      decision: 'write',
      scope: 'org',
      reason: expect.stringMatching(/confident org/),
    });
    expect(gate({ ...base, scope: 'team:ops' }, ctx)).toMatchObject({ decision: 'write', scope: 'team:ops' });
    expect(gate({ ...base, scope: 'team:sales' }, ctx).decision).toBe('skip');
    expect(gate({ ...base, scope: 'everyone!' }, ctx).decision).toBe('skip');
  });
});

describe('the sensitive-data check', () => {
  const found = (text: string) => detectSensitive(text).map((d) => d.kind);
  it.each([
    ['use sk-proj-abcdefghijklmnop1234567890 for the API', 'API key'],
    ['AWS key AKIAIOSFODNN7EXAMPLE in the vault', 'API key'],
    ['api_key = 9f8e7d6c5b4a39281706', 'API key'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token'],
    ['Authorization: Bearer abcdefghijklmnopqrstuvwxyz123456', 'token'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE...', 'private key'],
    ['the admin password is Tr0ub4dor&3', 'password'],
    ['call Maria on +39 347 123 4567 after six', 'phone number'],
    ['call (555) 123-4567', 'phone number'],
    ['pay to IBAN DE89 3704 0044 0532 0130 00', 'IBAN'],
    ['she lives at 221B Baker Street, London', 'personal address'],
    ['ship it to Via Roma 12, Milano', 'personal address'],
    ['wohnt in der Hauptstraße 5', 'personal address'],
    ['postgres://admin:s3cret@db.internal/prod', 'credentials in a URL'],
  ])('finds %s', (text, kind) => {
    expect(found(text)).toContain(kind);
  });

  it.each([
    'The release on 2024-05-17 moved to version 3.12.4.',
    'Revenue grew 1250000 EUR in 2023.',
    'The password policy requires rotation every 90 days.',
    'Invoices above 5000 EUR go to finance.',
    'Ticket ABC-1234 tracks the migration.',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(found(text)).toEqual([]);
  });

  it('never returns the secret itself', () => {
    const [d] = detectSensitive('api_key = 9f8e7d6c5b4a39281706');
    expect(d?.sample).not.toContain('9f8e7d6c5b4a39281706');
  });
});
