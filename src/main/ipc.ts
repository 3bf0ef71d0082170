/**
 * The main-process side of `window.api.invoke`. Every call is checked twice: the sender frame must be the
 * app's own UI, and the command must be in the allowlist. Replies are always a Result, never a throw.
 */
import { app, type IpcMainInvokeEvent, ipcMain } from 'electron';
import {
  type AppInfo,
  type CommandName,
  type Commands,
  describeName,
  INVOKE_CHANNEL,
  type IpcError,
  isCommandName,
  type Result,
} from '../preload/contract.ts';
import { AppError } from '../shared/errors.ts';

export const APP_DISPLAY_NAME = 'Org Brain';

type Handlers = {
  [N in CommandName]: (input: unknown) => Promise<Commands[N]['output']> | Commands[N]['output'];
};

const handlers: Handlers = {
  'app.info': (input): AppInfo => {
    if (input !== undefined && input !== null) {
      throw new AppError('validation-failed', 'app.info takes no input.');
    }
    return { name: APP_DISPLAY_NAME, version: app.getVersion() };
  },
};

function fail(code: IpcError['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

export function registerIpc(isTrustedUrl: (url: string) => boolean): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!frame || !isTrustedUrl(frame.url)) {
      return fail('forbidden', 'IPC refused: the sender is not the app window.');
    }
    if (!isCommandName(name)) return fail('forbidden', `Unknown command ${describeName(name)}.`);
    try {
      const data = await handlers[name](input);
      return { ok: true, data } satisfies Result<unknown>;
    } catch (err) {
      if (err instanceof AppError) return fail(err.code, err.message);
      console.error(`[ipc] ${name} failed:`, err);
      return fail('internal', `${name} failed unexpectedly.`);
    }
  });
}

export function unregisterIpc(): void {
  ipcMain.removeHandler(INVOKE_CHANNEL);
}
