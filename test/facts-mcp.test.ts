/**
 * Facts over time through the real processes (docs/FACTS.md): invoices added with `brain add`, an
 * agent states facts over MCP with `brain_fact` (a real `brain mcp` process), a person reads the
 * page with `brain fact list`, a newer invoice replaces the price, `brain fact retire` retires one.
 * No model anywhere.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliWorkspace, cliWorkspace } from './cli-process.ts';
import { callTool, mcpAgent } from './mcp-agent.ts';

let ws: CliWorkspace;
const clients: Client[] = [];

type Fact = {
  id: string;
  statement: string;
  attribute: string | null;
  status: string;
  supersededBy: string | null;
  citations: unknown[];
};

const agent = (...args: string[]) => mcpAgent(ws, 'clerk', clients, ...args);
const tool = callTool;

const invoice = (n: number, price: string, date: string) =>
  `# Invoice ${n}\n\nSupplier: Acme Paper Ltd. Date: ${date}.\n\nPrice per box: ${price}.\n`;

beforeAll(() => {
  ws = cliWorkspace('brain-facts-mcp-');
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  ws.remove();
});

describe('[K6] facts by an agent over MCP and a person on the command line', () => {
  it('states, consolidates, replaces and retires facts with their citations', async () => {
    const files = [
      [1, 'EUR 10', '2026-01-10'],
      [2, 'EUR 10', '2026-02-10'],
      [3, 'EUR 12', '2026-03-10'],
    ].map(([n, price, date]) => {
      const path = join(ws.files, `inv${n}.md`);
      writeFileSync(path, invoice(Number(n), String(price), String(date)));
      return path;
    });
    const added = await ws.brainJson<{ added: { id: string }[] }>('add', ...files);
    await ws.brain('index');
    const ids = added.added.map((a) => a.id);
    const client = await agent();
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('brain_fact');
    let entity = '';
    for (const [i, [price, date]] of [
      ['EUR 10', '2026-01-10'],
      ['EUR 10', '2026-02-10'],
      ['EUR 12', '2026-03-10'],
    ].entries()) {
      const out = await tool<{ entity: { id: string }; fact: Fact }>(client, 'brain_fact', {
        entity: 'Acme Paper Ltd.',
        kind: 'company',
        statement: `A box of paper costs ${price}.`,
        attribute: 'price',
        valid_at: date,
        item_id: ids[i],
        quote: `Price per box: ${price}`,
      });
      entity = out.entity.id;
    }
    const page = await ws.brainJson<{ facts: Fact[] }>('fact', 'list', entity);
    expect(page.facts.map((f) => [f.statement, f.citations.length])).toEqual([
      ['A box of paper costs EUR 12.', 1],
    ]);
    const history = await ws.brainJson<{ facts: Fact[] }>('fact', 'list', entity, '--history');
    expect(history.facts.map((f) => [f.statement, f.status, f.citations.length])).toEqual([
      ['A box of paper costs EUR 12.', 'current', 1],
      ['A box of paper costs EUR 10.', 'retired', 2],
    ]);
    expect(history.facts[1]?.supersededBy).toBe(page.facts[0]?.id);
    // The person's view names the citation and who stated it.
    const text = await ws.brainText('fact', 'list', entity);
    expect(text).toContain('price: A box of paper costs EUR 12.');
    expect(text).toContain('agent:clerk');

    // Retired on the command line: the newer price has no claim left, so the older one, whose
    // sources remain, is current again ([K4]).
    const retired = await ws.brainJson<{ fact: Fact }>('fact', 'retire', String(page.facts[0]?.id));
    expect(retired.fact.status).toBe('retired');
    const after = await ws.brainJson<{ facts: Fact[] }>('fact', 'list', entity);
    expect(after.facts.map((f) => f.statement)).toEqual(['A box of paper costs EUR 10.']);
    // A quote the source does not hold is refused with the reason.
    const bad = await client.callTool({
      name: 'brain_fact',
      arguments: { entity, statement: 'x', item_id: ids[0], quote: 'not in the invoice' },
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/does not occur/);
    // A date that is not one is named as the tool's parameter is.
    const badDate = await client.callTool({
      name: 'brain_fact',
      arguments: { entity, statement: 'x', item_id: ids[0], quote: 'EUR 10', valid_at: '2026-02-30' },
    });
    expect(badDate.isError).toBe(true);
    expect(JSON.stringify(badDate.content)).toContain('valid_at \\"2026-02-30\\" is not a date');
  });
});
