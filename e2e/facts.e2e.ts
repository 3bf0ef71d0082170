/**
 * Facts over time in Chromium against `brain serve` (docs/FACTS.md), as issue 13's "done" reads:
 * three invoices of one supplier and two contracts are added and indexed by the CLI, an agent states
 * what they say over MCP (stdio), then a person sees one page with one fact per figure, all cited,
 * the old term retired pointing to the new one in the history, and, after removing the newest
 * invoice from the Files grid, the page still right: the older price is current again.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, unexpectedProblems } from './support/browser.ts';
import { clickCentre, focus, openGraph } from './support/graph.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

const BRAIN = path.resolve('bin/brain.mjs');
const SUPPLIER = 'Acme Paper Ltd.';

const invoice = (n: number, price: string, date: string) =>
  `# Invoice ${n}\n\nSupplier: ${SUPPLIER} Date: ${date}.\n\nAcme Paper supplies our office paper. Price per box: ${price}.\n`;
const contract = (year: number, until: string) =>
  `# Supply contract ${year}\n\n${SUPPLIER} supplies our office paper. The contract runs until ${until}.\n`;

/** Calls brain_fact once per fact, as an agent does, in one short-lived MCP server. */
async function statedOverMcp(home: string, facts: Record<string, unknown>[]): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRAIN, '--home', home, 'mcp', '--agent', 'e2e-agent'],
    env: { ...(process.env as Record<string, string>), BRAIN_MODEL_DIR: path.join(home, 'no-model') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'facts-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    for (const args of facts) {
      const result = (await client.callTool({ name: 'brain_fact', arguments: args })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      if (result.isError) throw new Error(result.content.map((c) => c.text).join('\n'));
    }
  } finally {
    await client.close();
  }
}

async function openSupplier(page: Page) {
  await openGraph(page);
  await focus(page, SUPPLIER);
  await clickCentre(page);
  const dossier = page.getByRole('complementary', { name: 'Dossier' });
  await dossier.getByRole('heading', { name: SUPPLIER }).waitFor();
  return dossier;
}

describe('Facts over time in a browser', () => {
  it('one page from three invoices and two contracts, its history, and a removed invoice', async () => {
    const home = freshHome();
    const folder = freshHome('org-brain-e2e-facts-');
    cleanup(() => rmSync(folder, { recursive: true, force: true }));
    const files: [string, string][] = [
      ['inv1.md', invoice(1, 'EUR 10', '2026-01-10')],
      ['inv2.md', invoice(2, 'EUR 10', '2026-02-10')],
      ['inv3.md', invoice(3, 'EUR 12', '2026-03-10')],
      ['contract-2025.md', contract(2025, '2026-12-31')],
      ['contract-2026.md', contract(2026, '2027-12-31')],
    ];
    for (const [name, text] of files) writeFileSync(path.join(folder, name), text);
    const added = JSON.parse(await brain(home, ['add', folder, '--json'])) as {
      added: { id: string; label: string }[];
    };
    await brain(home, ['index']);
    const id = (label: string) => added.added.find((a) => a.label === label)?.id ?? '';

    const facts: Record<string, unknown>[] = [];
    for (const [n, price, date] of [
      [1, 'EUR 10', '2026-01-10'],
      [2, 'EUR 10', '2026-02-10'],
      [3, 'EUR 12', '2026-03-10'],
    ] as const) {
      const item = id(`inv${n}.md`);
      facts.push(
        {
          entity: SUPPLIER,
          kind: 'company',
          statement: 'Acme Paper supplies our office paper.',
          item_id: item,
          quote: 'Acme Paper supplies our office paper.',
          valid_at: date,
        },
        {
          entity: SUPPLIER,
          kind: 'company',
          statement: `A box of paper costs ${price}.`,
          attribute: 'price',
          item_id: item,
          quote: `Price per box: ${price}`,
          valid_at: date,
        },
      );
    }
    for (const [year, until] of [
      [2025, '2026-12-31'],
      [2026, '2027-12-31'],
    ] as const) {
      facts.push({
        entity: SUPPLIER,
        kind: 'company',
        statement: `The supply contract runs until ${until}.`,
        attribute: 'term',
        item_id: id(`contract-${year}.md`),
        quote: `The contract runs until ${until}.`,
        valid_at: `${year}-01-01`,
      });
    }
    await statedOverMcp(home, facts);

    const { s } = await start(home);
    const { page } = s;
    const dossier = await openSupplier(page);
    const list = dossier.getByRole('list', { name: 'Facts' });
    await list.getByText('A box of paper costs EUR 12.').waitFor();
    // One fact per figure, grouped by what it gives; the supply fact cites all three invoices.
    await list.getByRole('heading', { name: 'price' }).waitFor();
    await list.getByRole('heading', { name: 'term' }).waitFor();
    expect(await list.getByText('A box of paper costs EUR 10.').count()).toBe(0);
    await list.getByText('The supply contract runs until 2027-12-31.').waitFor();
    expect(await list.getByText('The supply contract runs until 2026-12-31.').count()).toBe(0);
    for (const n of [1, 2, 3])
      await list
        .getByRole('button', { name: new RegExp(`^Open the citation in Invoice ${n}`) })
        .first()
        .waitFor();
    expect(await list.getByRole('button', { name: /^Open the citation in Invoice/ }).count()).toBe(4);
    await screenshot(page, 'facts-01-page');

    // The history: the old term and the old price, each pointing to what replaced it.
    await dossier.getByRole('button', { name: /Show history/ }).click();
    await list.getByText('replaced by "The supply contract runs until 2027-12-31."').waitFor();
    await list.getByText('replaced by "A box of paper costs EUR 12."').waitFor();
    await screenshot(page, 'facts-02-history');

    // A citation opens the cited range in the source.
    await list.getByRole('button', { name: /^Open the citation in Supply contract 2026/ }).click();
    const cited = dossier.locator('mark.cited');
    await cited.waitFor();
    expect(await cited.textContent()).toBe('The contract runs until 2027-12-31.');

    // Remove the newest invoice from the Files grid: the older price is current again.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Files' }).click();
    const grid = page.getByRole('grid', { name: 'Files' });
    await grid.getByText('inv3.md').waitFor();
    await grid.getByRole('button', { name: 'Name' }).click();
    await grid.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Delete');
    await page.getByRole('alertdialog', { name: 'Remove inv3.md?' }).waitFor();
    // The confirmation starts on Cancel: Tab to Remove, then Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const result = page.getByRole('dialog', { name: 'Removed inv3.md' });
    await result.getByText('1 fact stopped being current.').waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');

    const after = await openSupplier(page);
    const now = after.getByRole('list', { name: 'Facts' });
    await now.getByText('A box of paper costs EUR 10.').waitFor();
    expect(await now.getByText('A box of paper costs EUR 12.').count()).toBe(0);
    expect(await now.getByRole('button', { name: /^Open the citation in Invoice 3/ }).count()).toBe(0);
    await now
      .getByRole('button', { name: /^Open the citation in Invoice 2/ })
      .first()
      .waitFor();
    await screenshot(page, 'facts-03-after-remove');
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
