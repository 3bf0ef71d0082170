/**
 * Sandboxed preload (bundled to out/preload/index.cjs). Exposes only `window.api`: invoke an allowlisted
 * command, or subscribe to an allowlisted event. No ipcRenderer, no Node, no event objects leak through.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import {
  type BrainApi,
  describeName,
  EVENT_CHANNEL,
  type EventName,
  type Events,
  INVOKE_CHANNEL,
  isCommandName,
  isEventName,
  type Result,
} from './contract.ts';

function invoke(name: unknown, input?: unknown): Promise<Result<unknown>> {
  if (!isCommandName(name)) {
    return Promise.resolve({
      ok: false,
      error: { code: 'forbidden', message: `Unknown command ${describeName(name)}.` },
    });
  }
  return ipcRenderer.invoke(INVOKE_CHANNEL, name, input) as Promise<Result<unknown>>;
}

function on(event: unknown, cb: unknown): () => void {
  if (!isEventName(event)) throw new Error(`Unknown event ${describeName(event)}.`);
  if (typeof cb !== 'function') throw new TypeError('The event callback must be a function.');
  const wanted: EventName = event;
  const listener = (_event: IpcRendererEvent, name: unknown, payload: unknown): void => {
    if (name === wanted) (cb as (payload: Events[EventName]) => void)(payload as Events[EventName]);
  };
  ipcRenderer.on(EVENT_CHANNEL, listener);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  };
}

const api: BrainApi = { invoke, on } as BrainApi;

contextBridge.exposeInMainWorld('api', api);
