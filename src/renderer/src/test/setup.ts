/**
 * Set-up for the component tests (vitest.components.config.ts): a fresh DOM and no transport after each
 * test, and the little layout happy-dom does not do.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { installTransport } from '../lib/api.ts';

// sigma reads WebGL2RenderingContext as it loads, which happy-dom has not. The Graph screen is not under
// test here: its canvas fails to start, as in a window without WebGL 2, and says so (GraphCanvas.tsx).
vi.mock('sigma', () => ({
  default: class {
    constructor() {
      throw new Error('no WebGL 2 in happy-dom');
    }
  },
}));

afterEach(() => {
  cleanup();
  installTransport(null);
});

// happy-dom lays nothing out: every box is 0 × 0, so the file grid's virtualizers (FileTable.tsx, FileTiles.tsx), which
// render the rows that fit their scroll box, would render none. Their scroll boxes get a window's size here.
const GRID_BOX = { width: 1200, height: 600 };
for (const [prop, size] of [
  ['clientWidth', GRID_BOX.width],
  ['clientHeight', GRID_BOX.height],
  ['offsetWidth', GRID_BOX.width],
  ['offsetHeight', GRID_BOX.height],
] as const) {
  const base =
    Object.getOwnPropertyDescriptor(Element.prototype, prop) ??
    Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop);
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      if (this.classList.contains('grid') || this.classList.contains('tiles')) return size;
      return (base?.get?.call(this) as number | undefined) ?? 0;
    },
  });
}
