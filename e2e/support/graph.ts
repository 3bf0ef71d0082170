/** The graph view, driven as a person does: open it, find a node, click the node the camera centres. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function openGraph(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Graph' }).click();
  const canvas = page.getByRole('application', { name: 'Graph canvas' });
  await canvas.waitFor();
  return canvas;
}

export async function focus(page: Page, name: string) {
  const search = page.getByRole('combobox', { name: 'Find a node' });
  await search.fill(name);
  await page
    .getByRole('option', { name: new RegExp(name) })
    .first()
    .waitFor();
  await search.press('Enter');
}

/** Clicks the middle of the canvas, where a focused node sits once the camera is there. */
export async function clickCentre(page: Page) {
  const canvas = page.getByRole('application', { name: 'Graph canvas' });
  let last = '';
  await expect
    .poll(
      async () => {
        const now = (await canvas.getAttribute('data-camera')) ?? '';
        const settled = now === last;
        last = now;
        return settled;
      },
      { interval: 250, timeout: 10_000 },
    )
    .toBe(true);
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}
