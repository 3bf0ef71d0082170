/**
 * `brain note add --source-key` as scripts run it again and again: the same text under the same
 * key changes nothing and says "unchanged" (docs/FACTS.md [K16]); new text is the next version.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';

let ws: CliWorkspace;

beforeEach(() => {
  ws = cliWorkspace('brain-cli-note-unchanged-');
});
afterEach(() => ws.remove());

describe('[K16] brain note add with a source key', () => {
  it('says wrote, then unchanged for the same text, then updated for new text', async () => {
    const add = (text: string) =>
      ws.brainText('note', 'add', '--label', 'Billing owner', '--source-key', 'billing-owner', text);
    const first = await add('Dana owns billing.');
    expect(first).toMatch(/^wrote n_\S+ in org \(version 1\)\n$/);
    const id = first.split(' ')[1];

    expect(await add('Dana owns billing.')).toBe(`unchanged ${id} in org (version 1)\n`);
    const again = await ws.brainJson<{ created: boolean; changed: boolean; version: number }>(
      'note',
      'add',
      '--label',
      'Billing owner',
      '--source-key',
      'billing-owner',
      'Dana owns billing.',
    );
    expect(again).toMatchObject({ created: false, changed: false, version: 1 });

    expect(await add('Sam owns billing.')).toBe(`updated ${id} in org (version 2)\n`);
  }, 60_000);
});
