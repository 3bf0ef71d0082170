/**
 * Sandboxed preload (bundled to out/preload/index.cjs). Exposes only `window.api`: invoke a command of
 * the BrainApi contract, subscribe to one of its events, and get the path of a dropped file. No
 * ipcRenderer, no Node, no event objects leak through.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from 'electron';
import { type BrainBridge, type BridgeResult, EVENT_CHANNEL, INVOKE_CHANNEL } from '#shared/api/bridge.ts';
import { isEventName } from '#shared/api/events.ts';
import { isApiCommand } from '#shared/api/names.ts';

const describe = (value: unknown) =>
  typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;

function invoke(name: unknown, input?: unknown): Promise<BridgeResult> {
  if (!isApiCommand(name)) {
    return Promise.resolve({
      ok: false,
      error: { code: 'forbidden', message: `Unknown command ${describe(name)}.` },
    });
  }
  return ipcRenderer.invoke(INVOKE_CHANNEL, name, input) as Promise<BridgeResult>;
}

function on(event: unknown, cb: unknown): () => void {
  if (!isEventName(event)) throw new Error(`Unknown event ${describe(event)}.`);
  if (typeof cb !== 'function') throw new TypeError('The event callback must be a function.');
  const listener = (_event: IpcRendererEvent, name: unknown, payload: unknown): void => {
    if (name === event) (cb as (payload: unknown) => void)(payload);
  };
  ipcRenderer.on(EVENT_CHANNEL, listener);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  };
}

function pathForFile(file: File): string {
  return webUtils.getPathForFile(file);
}

const api: BrainBridge = { invoke, on, pathForFile } as BrainBridge;

contextBridge.exposeInMainWorld('api', api);
