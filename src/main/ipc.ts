/**
 * The main-process side of `window.api.invoke`: the only file that imports ipcMain. Every call is
 * checked twice (the sender frame must be the app's own UI; the command must be in the contract
 * and its input must parse), then relayed to the engine process. Replies are always a Result.
 */
import { type IpcMainInvokeEvent, ipcMain } from 'electron';
import { type BridgeResult, INVOKE_CHANNEL } from '#shared/api/bridge.ts';
import { CONTRACT, isCommandName } from '#shared/api/contract.ts';
import type { ErrorCode } from '#shared/errors.ts';

const fail = (code: ErrorCode, message: string): BridgeResult => ({ ok: false, error: { code, message } });

export function registerIpc(
  isTrustedUrl: (url: string) => boolean,
  relay: (name: string, input: unknown) => Promise<BridgeResult>,
): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!frame || !isTrustedUrl(frame.url))
      return fail('forbidden', 'IPC refused: the sender is not the app window.');
    if (!isCommandName(name)) return fail('forbidden', `Unknown command ${String(name).slice(0, 80)}.`);
    const parsed = CONTRACT[name].input.safeParse(input ?? {});
    if (!parsed.success)
      return fail('validation-failed', `${name}: ${parsed.error.issues[0]?.message ?? 'invalid input'}.`);
    try {
      return await relay(name, input);
    } catch (err) {
      console.error(`[ipc] ${name} failed:`, err);
      return fail('internal', `${name} failed unexpectedly.`);
    }
  });
}
