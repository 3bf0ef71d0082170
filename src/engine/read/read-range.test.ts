/**
 * Reading a line range (read.ts): a range past the end of the item says so in words, with how many
 * lines the item has, as items.read answers `brain read --lines` and brain_read's from_line alone
 * (src/engine/commands/retrieval.ts reads to the end then).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createTestWorkspace, type TestWorkspace } from '../testing/test-engine.ts';

let ws: TestWorkspace;
let engine: Engine;

beforeEach(() => {
  ws = createTestWorkspace();
  engine = ws.open();
});
afterEach(() => ws.cleanup());

async function shortFile(): Promise<string> {
  const lines = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of the rota.`);
  const path = ws.write('rota.txt', `${lines.join('\n')}\n`);
  const [file] = (await engine.add([path])).added;
  return file!.id;
}

describe('read: a range past the end', () => {
  it('names the line and how many lines the file has, not a range to the largest number', async () => {
    const id = await shortFile();
    const whole = await engine.read(id);
    const last = whole.lineEnd;
    await expect(engine.read(id, { from: 50, to: Number.MAX_SAFE_INTEGER })).rejects.toThrow(
      `line 50 is past the end: rota.txt has ${last} lines.`,
    );
    await expect(engine.read(id, { from: 50, to: 60 })).rejects.toThrow(
      `line 50 is past the end: rota.txt has ${last} lines.`,
    );
    const tail = await engine.read(id, { from: 12, to: Number.MAX_SAFE_INTEGER });
    expect(tail.text.trimEnd()).toBe('Line 12 of the rota.');
  });
});
