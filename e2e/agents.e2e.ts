/**
 * The Agents screen in Chromium against `brain serve` (docs/AGENTS.md [G11]): observations seeded for
 * an agent with `brain observe`, the agent listed with its waiting count, its page with the stream;
 * with the scripted OpenAI-compatible model configured, "Synthesize now" (skipped as not due, then
 * forced) writes version 1, a second observation and synthesis write version 2, and a confirmed
 * rollback moves the active version back to 1.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, type ScriptedReply, startScriptedModel } from '#engine/testing/scripted-model.ts';
import { screenshot, unexpectedProblems } from './support/browser.ts';
import { brain, freshHome } from './support/serve.ts';
import { cleanup, start } from './support/session.ts';

const AGENT = 'e2e-coder';
const BRAIN = path.resolve('bin/brain.mjs');

/** One short agent run over MCP (stdio): an observation with brain_observe, then brain_run_end. */
async function agentRun(home: string, run: string, text: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BRAIN, '--home', home, 'mcp', '--agent', AGENT, '--run', run],
    env: { ...(process.env as Record<string, string>), BRAIN_MODEL_DIR: path.join(home, 'no-model') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'agents-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = (await client.callTool({
      name: 'brain_observe',
      arguments: { type: 'gotcha', text, importance: 0.6 },
    })) as { isError?: boolean; content: { text: string }[] };
    if (result.isError) throw new Error(result.content.map((c) => c.text).join('\n'));
    // The run is ended, so it is one the person can see and name (docs/AGENTS.md [G10]).
    const ended = (await client.callTool({
      name: 'brain_run_end',
      arguments: { status: 'succeeded', work_products: 'Looked into the CI cache.' },
    })) as { isError?: boolean; content: { text: string }[] };
    if (ended.isError) throw new Error(ended.content.map((c) => c.text).join('\n'));
  } finally {
    await client.close();
  }
}
const LESSONS = ['Run the PGlite suite before pushing', 'Migrations are additive only', 'Use named exports'];

/** A brain citing every observation id the synthesis request shows, one gotcha each. */
function brainReply(req: ChatRequest): ScriptedReply {
  const user = String(req.messages.find((m) => m.role === 'user')?.content ?? '');
  const ids = [...new Set(user.match(/o_[0-9a-f]{20}/g) ?? [])];
  const brainDoc = {
    summary: `Learned from ${ids.length} observations`,
    sections: {
      gotchas: ids.map((id, i) => ({ text: `Lesson ${i + 1} of ${ids.length}`, observation_ids: [id] })),
    },
  };
  return { content: JSON.stringify(brainDoc), usage: { prompt_tokens: 1200, completion_tokens: 150 } };
}

const observe = (home: string, text: string) =>
  brain(home, ['observe', '--agent', AGENT, '--type', 'gotcha', '--text', text, '--importance', '0.7']);

describe('the Agents screen in a browser', () => {
  it('lists a seeded agent, shows its stream, synthesizes two versions and rolls back to the first', async () => {
    const model = await startScriptedModel((req) => brainReply(req));
    cleanup(() => model.close());
    const home = freshHome();
    for (const text of LESSONS) await observe(home, text);
    await brain(home, ['config', 'set', 'model.baseUrl', model.url]);
    await brain(home, ['config', 'set', 'model.name', 'scripted']);
    const { s } = await start(home);
    const { page } = s;

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Agents' }).click();
    const table = page.getByRole('table', { name: 'Agents' });
    const row = table.getByRole('row', { name: new RegExp(AGENT) });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'default',
      'none yet',
      '3 / 20',
      'never',
      '—',
    ]);
    await screenshot(page, '60-agents-list');

    await row.getByRole('button', { name: AGENT }).click();
    await page.getByRole('heading', { name: AGENT, level: 1 }).waitFor();
    const stream = page.getByRole('list', { name: 'Observation stream' });
    await stream.getByRole('listitem').first().waitFor();
    expect(await stream.getByRole('listitem').count()).toBe(3);
    for (const text of LESSONS) await stream.getByText(text).waitFor();

    // Not due (3 of 20): the reason is shown, then forced.
    const status = page.getByRole('status', { name: 'Synthesis' });
    await page.getByRole('button', { name: 'Synthesize now' }).click();
    await status.getByText(/^Skipped: not due: 3 of 20/).waitFor();
    await page.getByRole('button', { name: 'Synthesize anyway' }).click();
    await status.getByText('Synthesized version 1').waitFor({ timeout: 30_000 });
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.getByRole('row', { name: /^v1\s*active/ }).waitFor();
    await page.getByRole('region', { name: 'Gotchas' }).getByText('Lesson 1 of 3').waitFor();

    // One more observation while the app runs, and a second version.
    await observe(home, 'Never edit a shipped migration');
    await page.getByRole('button', { name: 'Synthesize now' }).click();
    await status.getByText(/^Skipped: not due/).waitFor();
    await page.getByRole('button', { name: 'Synthesize anyway' }).click();
    await status.getByText('Synthesized version 2').waitFor({ timeout: 30_000 });
    await versions.getByRole('row', { name: /^v2\s*active/ }).waitFor();
    await screenshot(page, '61-agent-page');

    // The diff of v1 → v2, then a confirmed rollback to v1.
    await versions
      .getByRole('row', { name: /^v2/ })
      .getByRole('combobox', { name: 'Diff v2 against' })
      .selectOption('1');
    await page.getByRole('region', { name: 'Diff v1 → v2' }).getByRole('listitem').first().waitFor();

    await versions.getByRole('button', { name: 'Roll back to v1' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Roll back ${AGENT}?` });
    await dialog
      .getByText(`${AGENT} reads version 2 now; from its next run it will read version 1.`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Roll back to v1' }).click();
    await versions.getByRole('row', { name: /^v1\s*active/ }).waitFor();
    await page.getByText(`${AGENT} now reads version 1 (was 2)`).waitFor();
    const shown = JSON.parse(await brain(home, ['agents', 'show', AGENT, '--json'])) as {
      agent: { activeVersion: number; versions: number };
    };
    expect(shown.agent).toMatchObject({ activeVersion: 1, versions: 2 });

    await page.getByRole('list', { name: 'Cost per version' }).waitFor();
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });

  it("records a person's thumbs on an agent's run from Activity", async () => {
    const home = freshHome();
    await agentRun(home, 'run-e2e-1', 'The CI cache goes stale on Mondays');
    const { s } = await start(home);
    const { page } = s;

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Activity' }).click();
    const bar = page.getByRole('group', { name: 'Feedback on this run' });
    await bar.first().waitFor();
    expect(await bar.count()).toBe(1);
    await bar.getByRole('button', { name: 'Thumbs down' }).click();
    await bar.getByRole('textbox', { name: 'Comment (optional)' }).fill('It looped on the same search');
    await bar.getByRole('button', { name: 'Send thumbs down' }).click();
    await page.getByText('Thanks: a thumbs down goes to every agent’s next synthesis').waitFor();
    await screenshot(page, '62-activity-run-feedback');

    const listed = JSON.parse(await brain(home, ['observations', '--json'])) as {
      observations: { agent: string | null; type: string; text: string | null; payload: unknown }[];
    };
    const thumbs = listed.observations.filter((o) => o.type === 'human_thumbs_down');
    expect(thumbs).toHaveLength(1);
    expect(thumbs[0]).toMatchObject({
      agent: null,
      text: 'It looped on the same search',
      run: 'run-e2e-1',
      payload: { run: 'run-e2e-1', agent: AGENT },
    });
    expect(unexpectedProblems(s.problems)).toEqual([]);
  });
});
