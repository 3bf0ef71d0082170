/** The type of `window.api`, exposed by the preload. The renderer references this file. */
import type { BrainBridge } from '#shared/api/bridge.ts';

declare global {
  interface Window {
    readonly api?: BrainBridge;
  }
}
