/**
 * The IPC contract between main, preload and renderer. Plain TypeScript (no electron, no node:*), so
 * main, the sandboxed preload bundle and the renderer's types all read the same allowlists.
 */
import type { ErrorCode } from '../shared/errors.ts';

export const INVOKE_CHANNEL = 'brain:invoke';
export const EVENT_CHANNEL = 'brain:event';

export type AppInfo = { name: string; version: string };

/** Every command the renderer may invoke, with its input and output. */
export type Commands = {
  'app.info': { input: undefined; output: AppInfo };
};
export type CommandName = keyof Commands;

/** Every event main may push to the renderer, with its payload. */
export type Events = {
  'window.focus': { focused: boolean };
};
export type EventName = keyof Events;

/** The allowlists: the preload refuses anything else, and main checks again. */
export const COMMAND_NAMES: readonly CommandName[] = ['app.info'];
export const EVENT_NAMES: readonly EventName[] = ['window.focus'];

export type IpcError = { code: ErrorCode; message: string };
export type Result<T> = { ok: true; data: T } | { ok: false; error: IpcError };

/** What the preload exposes as `window.api`. */
export type BrainApi = {
  invoke<N extends CommandName>(
    name: N,
    input?: Commands[N]['input'],
  ): Promise<Result<Commands[N]['output']>>;
  /** Subscribes to one event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, cb: (payload: Events[E]) => void): () => void;
};

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && (COMMAND_NAMES as readonly string[]).includes(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}

/** A short, printable description of an untrusted name, for error messages. */
export function describeName(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;
}
