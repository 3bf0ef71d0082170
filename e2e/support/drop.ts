/**
 * A synthetic OS drop: the files are given to a throwaway <input type=file> (so even a 101 MB file is
 * read from disk by the browser, not pushed through the test protocol), then a DataTransfer holding
 * them is dispatched as dragenter → dragover → drop on the app's drop zone.
 * The in-page code is a string: the e2e project compiles without DOM types.
 */
import type { Page } from 'playwright-core';

const HELPER_ID = 'e2e-drop-files';

const CREATE_INPUT = `(() => {
  document.getElementById(${JSON.stringify(HELPER_ID)})?.remove();
  const input = document.createElement('input');
  input.type = 'file';
  input.multiple = true;
  input.id = ${JSON.stringify(HELPER_ID)};
  input.hidden = true;
  document.body.append(input);
})()`;

function dispatchDrop(selector: string): string {
  return `(() => {
    const input = document.getElementById(${JSON.stringify(HELPER_ID)});
    const zone = document.querySelector(${JSON.stringify(selector)});
    if (!zone) throw new Error('No drop zone matches ' + ${JSON.stringify(selector)});
    const dt = new DataTransfer();
    for (const file of Array.from(input.files ?? [])) dt.items.add(file);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
    }
    input.remove();
  })()`;
}

export async function dropFiles(page: Page, filePaths: string[], target = '[data-dropzone]'): Promise<void> {
  await page.evaluate(CREATE_INPUT);
  await page.setInputFiles(`#${HELPER_ID}`, filePaths);
  await page.evaluate(dispatchDrop(target));
}
