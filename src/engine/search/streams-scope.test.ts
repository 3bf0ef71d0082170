/** Scope filtering happens inside each of the six streams, before any ranking. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { keywordStream, STREAMS, vectorStream } from './search.ts';

let ws: TestWorkspace;
let admin: Engine;

beforeEach(async () => {
  ws = createTestWorkspace();
  admin = ws.open({ model: true });
  admin.addMember('ana', ['legal']);
  admin.addMember('ben', []);
  const ana = ws.open({ model: true, user: 'ana' });
  const text = 'The supplier contract with Acme renews every March and needs legal review.';
  await ana.add([ws.write('legal/contract.md', `# Supplier contract\n\n${text}\n`)], { scope: 'team:legal' });
  await ana.add([ws.write('mine/contract-notes.md', `# My notes\n\n${text}\n`)], { scope: 'user:ana' });
  await ana.add([ws.write('org/contract-faq.md', `# Contract FAQ\n\n${text}\n`)]);
  await ana.index();
  for (const scope of ['team:legal', 'user:ana', 'org']) {
    const [vector] = await ana.embedder.embed([text]);
    upsertNote(
      ana.db,
      ana.workspaceId,
      { kind: 'fact', label: `Renewal (${scope})`, body: text, scope, actor: 'ana', source: 'test' },
      { model: ana.embedder.modelId()!, vector: vector! },
    );
  }
});
afterEach(async () => ws.cleanup());

describe('scope inside every stream', () => {
  it('each of the six streams returns only items in the given scopes', async () => {
    const [q] = await admin.embedder.embed(['supplier contract renews March legal review']);
    const query = { vector: q!, model: admin.embedder.modelId()! };
    const scopeOf = (rowid: number) =>
      (admin.db.prepare('SELECT scope FROM items WHERE rowid = ?').get(rowid) as { scope: string }).scope;
    const anaScopes = ['org', 'user:ana', 'team:legal'];
    const benScopes = ['org', 'user:ben'];
    for (const stream of STREAMS) {
      const anaKeyword = keywordStream(admin.db, 'supplier contract renews', stream, anaScopes).map(scopeOf);
      const anaVector = vectorStream(admin.db, query, stream, anaScopes).map(scopeOf);
      expect(new Set(anaKeyword), `keyword ${stream}`).toEqual(new Set(anaScopes));
      expect(new Set(anaVector), `vector ${stream}`).toEqual(new Set(anaScopes));
      const benKeyword = keywordStream(admin.db, 'supplier contract renews', stream, benScopes).map(scopeOf);
      const benVector = vectorStream(admin.db, query, stream, benScopes).map(scopeOf);
      expect(benKeyword.length, `keyword ${stream}`).toBeGreaterThan(0);
      expect(benVector.length, `vector ${stream}`).toBeGreaterThan(0);
      expect(new Set([...benKeyword, ...benVector]), stream).toEqual(new Set(['org']));
    }
  });

  it('a note with the same source key updates in place', () => {
    const a = upsertNote(admin.db, admin.workspaceId, {
      kind: 'decision',
      label: 'Billing owner',
      body: 'Dana owns billing.',
      scope: 'org',
      sourceKey: 'k1',
      actor: 'x',
      source: 'test',
    });
    const b = upsertNote(admin.db, admin.workspaceId, {
      kind: 'decision',
      label: 'Billing owner',
      body: 'Eli owns billing now.',
      scope: 'org',
      sourceKey: 'k1',
      actor: 'x',
      source: 'test',
    });
    expect(b.id).toBe(a.id);
    expect(b.version).toBe(2);
    expect(b.body).toBe('Eli owns billing now.');
  });
});
