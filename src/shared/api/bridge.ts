/** What the Electron preload exposes to the renderer as `window.api`. */
import type { TransferableError } from '../errors.ts';

export type BridgeResult = { ok: true; data: unknown } | { ok: false; error: TransferableError };

export type BrainBridge = {
  /** Calls one BrainApi command; names outside the contract are refused. */
  invoke(name: string, input?: unknown): Promise<BridgeResult>;
  /** Subscribes to one app event; returns the function that unsubscribes. */
  on(event: string, cb: (payload: unknown) => void): () => void;
  /** The OS path of a file dropped on the window (Electron's webUtils.getPathForFile). */
  pathForFile(file: File): string;
};

export const INVOKE_CHANNEL = 'brain:invoke';
export const EVENT_CHANNEL = 'brain:event';
