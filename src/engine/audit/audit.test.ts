/** The audit pass: the deterministic alias linker, and the model audit's step budget (never merging). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { observeMention } from '../knowledge/graph.ts';
import { upsertNote } from '../knowledge/notes.ts';
import { roleOf, type ScriptedModel, startScriptedModel } from '../testing/scripted-model.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { findMentions } from './deterministic.ts';
import { auditFile } from './index.ts';
import { AUDIT_MAX_STEPS } from './model-audit.ts';

let ws: TestWorkspace;
let engine: Engine;
let model: ScriptedModel | null = null;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => {
  await model?.close();
  model = null;
  await ws.cleanup();
});

/** A known company (with an alias) and a known person, seen in a note. */
function knownEntities(): void {
  const note = upsertNote(engine.db, engine.workspaceId, {
    kind: 'fact',
    label: 'Suppliers',
    body: 'Café Noir S.r.l. supplies the coffee; Jane Doe owns the contract.',
    scope: 'org',
    actor: 'test',
    source: 'test',
  });
  const origin = { actor: 'test', source: 'test', run: 'seed' };
  observeMention(
    engine.db,
    engine.workspaceId,
    ['org'],
    { itemId: note.id, name: 'Café Noir S.r.l.', kind: 'company', quote: 'Café Noir S.r.l.' },
    origin,
  );
  observeMention(
    engine.db,
    engine.workspaceId,
    ['org'],
    { itemId: note.id, name: 'Jane Doe', kind: 'person', quote: 'Jane Doe' },
    origin,
  );
}

async function indexedFile(text: string): Promise<string> {
  const path = ws.write('minutes.md', text);
  const added = await engine.add([path]);
  const id = added.added[0]?.id ?? '';
  await engine.index([id]);
  return id;
}

const count = (sql: string) => (engine.db.prepare(sql).get() as { n: number }).n;

describe('the deterministic audit', () => {
  it('finds aliases ignoring case, accents and legal suffixes, whole words only', () => {
    const aliases = [{ tokens: ['cafe', 'noir'], kind: 'company' as const }];
    const text = 'We met CAFE NOIR srl and café noir, Inc. but not cafenoir or Café Noirette.';
    expect(findMentions(text, aliases).map((m) => m.text)).toEqual(['CAFE NOIR', 'café noir']);
  });

  it('links mentions of entities the workspace already knows, creating none and merging nothing', async () => {
    knownEntities();
    const entities = count("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'entity'");
    const fileId = await indexedFile(
      '# Minutes\n\nCAFE NOIR GmbH raised prices. jane doe will renegotiate.\n\nNothing about Acme.\n',
    );
    const result = await auditFile(engine, fileId, { access: null });
    expect(result).toMatchObject({ mode: 'deterministic', mentions: 2, error: null });
    expect(count("SELECT COUNT(*) AS n FROM items WHERE storage_kind = 'entity'")).toBe(entities);
    const edges = engine.db
      .prepare(
        "SELECT e.props, i.label FROM edges e JOIN items i ON i.id = e.to_id WHERE e.type = 'MENTIONS' AND e.origin_source = 'audit'",
      )
      .all() as { props: string; label: string }[];
    expect(edges.map((e) => [e.label, JSON.parse(e.props).mention]).sort()).toEqual([
      ['Café Noir S.r.l.', 'CAFE NOIR'],
      ['Jane Doe', 'jane doe'],
    ]);
    // Idempotent: a second pass adds no edge.
    await auditFile(engine, fileId, { access: null });
    expect(count("SELECT COUNT(*) AS n FROM edges WHERE origin_source = 'audit'")).toBe(2);
  });
});

describe('the model audit', () => {
  it('plans once, stays within 30 steps even when the model never stops, and never merges', async () => {
    knownEntities();
    const fileId = await indexedFile(
      '# Minutes\n\nCafé Noir raised prices.\n\n## Next\n\nJane Doe will call them.\n',
    );
    const section = engine.db
      .prepare(
        "SELECT id, body FROM items WHERE file_id = ? AND storage_kind = 'section' AND body LIKE '%raised%'",
      )
      .get(fileId) as { id: string };
    const other = engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'note'").get() as {
      id: string;
    };
    let plans = 0;
    model = await startScriptedModel((req) => {
      if (roleOf(req) !== 'audit') return { content: 'ok' };
      if (!req.tools) {
        plans += 1;
        return { content: 'Plan: record the supplier mention, link to the suppliers note.' };
      }
      // A model that never stops calling tools, including a merge attempt.
      return {
        toolCalls: [
          {
            name: 'observe_mention',
            arguments: { item_id: section.id, name: 'Café Noir', kind: 'company', quote: 'Café Noir' },
          },
          { name: 'link', arguments: { from: section.id, to: other.id, type: 'MERGED_INTO' } },
          { name: 'link', arguments: { from: section.id, to: other.id, type: 'RELATES_TO' } },
          { name: 'search', arguments: { query: 'coffee' } },
        ],
      };
    });
    const itemsBefore = engine.db.prepare('SELECT id, body, retired_at FROM items ORDER BY id').all();
    const result = await auditFile(engine, fileId, {
      access: { baseUrl: model.url, model: 'scripted', key: null },
    });
    expect(result).toMatchObject({ mode: 'model', steps: AUDIT_MAX_STEPS, error: null });
    expect(plans).toBe(1);
    expect(result?.links).toBeGreaterThan(0);
    // Never merges: no item was retired, rewritten or removed; no MERGE edge exists.
    const after = engine.db.prepare('SELECT id, body, retired_at FROM items ORDER BY id').all() as {
      id: string;
      retired_at: string | null;
    }[];
    for (const before of itemsBefore as { id: string }[])
      expect(after.some((a) => a.id === before.id && a.retired_at === null)).toBe(true);
    expect(count("SELECT COUNT(*) AS n FROM edges WHERE type LIKE '%MERGE%'")).toBe(0);
    const toolResults = model.requests
      .at(-1)
      ?.messages.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(toolResults?.some((t) => t.includes('never merges'))).toBe(true);
  });

  it('records a model failure on the audit and keeps the deterministic mentions', async () => {
    knownEntities();
    const fileId = await indexedFile('# Minutes\n\nJane Doe met Café Noir.\n');
    model = await startScriptedModel(() => ({ status: 503, error: 'overloaded' }));
    const result = await auditFile(engine, fileId, {
      access: { baseUrl: model.url, model: 'scripted', key: null },
    });
    expect(result).toMatchObject({
      mode: 'model',
      mentions: 2,
      error: expect.stringMatching(/503|overloaded/),
    });
    const log = engine.db.prepare("SELECT data FROM telemetry WHERE event = 'audit'").get() as {
      data: string;
    };
    expect(JSON.parse(log.data).error).toMatch(/503|overloaded/);
  });
});
