/** The type of `window.api`, exposed by the preload. The renderer references this file. */
import type { BrainApi } from './contract.ts';

declare global {
  interface Window {
    readonly api: BrainApi;
  }
}
