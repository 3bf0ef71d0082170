/**
 * Input holding a NUL character (U+0000) is refused by every operation before it runs, naming the
 * field, with nothing written: neither store keeps a NUL, and the workspace server refuses an op
 * holding one (src/shared/nul.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';
import { runCommand } from './index.ts';
import { memberContext } from './types.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(async () => {
  await ws.cleanup();
});

const notes = () =>
  (engine.db.prepare("SELECT count(*) AS n FROM items WHERE storage_kind = 'note'").get() as { n: number }).n;

describe('NUL characters in input', () => {
  it('a note whose body holds one is refused, naming the field; nothing is written', async () => {
    const add = runCommand(memberContext(engine, 'agent'), 'notes.add', {
      kind: 'decision',
      label: 'Billing owner',
      body: 'Dana owns billing.\u0000',
    });
    await expect(add).rejects.toMatchObject({
      code: 'validation-failed',
      message: 'body holds a NUL character (U+0000): remove it and try again.',
    });
    expect(notes()).toBe(0);
  });

  it('the same note without it is written', async () => {
    await runCommand(memberContext(engine, 'agent'), 'notes.add', {
      kind: 'decision',
      label: 'Billing owner',
      body: 'Dana owns billing.',
    });
    expect(notes()).toBe(1);
  });
});
