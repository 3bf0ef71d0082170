/**
 * A span or quote on a whole file counts in the file's text as brain_read returns it, not in its
 * row's body (its title and opening): the mention and the fact record the words the caller pointed
 * at, and a span past that text is refused by its length.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { runCommand } from './index.ts';
import { memberContext } from './types.ts';

let ws: TestWorkspace;
let engine: Engine;
let fileId: string;
let text: string;

beforeEach(async () => {
  ws = createTestWorkspace();
  engine = ws.open();
  writeFileSync(
    join(ws.files, 'prices-2026-03.md'),
    '# Supplier prices\n\nPrice per box: EUR 12 from Acme Paper Ltd.\n',
  );
  await engine.add([ws.files]);
  await engine.index();
  fileId = (engine.db.prepare("SELECT id FROM items WHERE storage_kind = 'file'").get() as { id: string }).id;
  text = (await engine.read(fileId)).text;
});
afterEach(async () => {
  await ws.cleanup();
});

const ctx = () => memberContext(engine, 'cli');

describe('spans on a whole file', () => {
  it('a mention by span records the words at that span of the read text', async () => {
    const start = text.indexOf('Acme Paper Ltd');
    const out = (await runCommand(ctx(), 'mentions.observe', {
      item_id: fileId,
      name: 'Acme Paper',
      kind: 'company',
      span: { start, end: start + 'Acme Paper Ltd'.length },
    })) as { edge: { props: { mention: string; span: unknown } } };
    expect(out.edge.props.mention).toBe('Acme Paper Ltd');
  });

  it('a fact by quote is placed in the read text', async () => {
    const entity = (await runCommand(ctx(), 'mentions.observe', {
      item_id: fileId,
      name: 'Acme Paper Ltd.',
      kind: 'company',
      quote: 'Acme Paper Ltd.',
    })) as { entity: { id: string }; edge: { props: { span: { start: number; end: number } } } };
    expect(entity.edge.props.span).toEqual({ start: text.indexOf('Acme'), end: text.indexOf('Acme') + 15 });
    const out = (await runCommand(ctx(), 'facts.state', {
      entity: entity.entity.id,
      statement: 'A box of paper costs EUR 12.',
      attribute: 'price',
      item_id: fileId,
      quote: 'Price per box: EUR 12',
    })) as { edge: { props: { span: { start: number; end: number }; quote: string } } };
    const at = text.indexOf('Price per box');
    expect(out.edge.props.span).toEqual({ start: at, end: at + 'Price per box: EUR 12'.length });
  });

  it('a span past the read text is refused, naming its length', async () => {
    await expect(
      runCommand(ctx(), 'mentions.observe', {
        item_id: fileId,
        name: 'Acme',
        kind: 'company',
        span: { start: text.length - 2, end: text.length + 10 },
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining(`(${text.length} characters)`) });
  });
});
