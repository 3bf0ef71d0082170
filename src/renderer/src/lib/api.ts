/**
 * The renderer's one door to the engine. Components use the hooks in src/hooks, which use this; nothing
 * else touches `window.api` or fetch. The transport (Electron bridge or the browser host) is picked once
 * at startup.
 */

import type { BrainBridge } from '#shared/api/bridge.ts';
import type { CommandName, Inputs, Outputs } from '#shared/api/contract.ts';
import type { EventName } from '#shared/api/events.ts';
import type { AddReport } from '#shared/api/types.ts';
import { AppError } from '#shared/errors.ts';
import { takeTokenFromLocation } from './token.ts';
import {
  browserTransport,
  type ConnectionState,
  electronTransport,
  type Listener,
  type Result,
  type Transport,
} from './transport.ts';
import { mergeReports, type QueueProgress, refusedReport, runQueue } from './upload-queue.ts';

export type { ConnectionState, Result } from './transport.ts';

/** Optional input when the operation needs none (every field optional, or no fields). */
export type InputArgs<N extends CommandName> = undefined extends Inputs[N]
  ? [input?: Inputs[N]]
  : Record<string, never> extends Inputs[N]
    ? [input?: Inputs[N]]
    : [input: Inputs[N]];

export type StartupProblem = { title: string; message: string };

let transport: Transport | null = null;
let startupProblem: StartupProblem | null = null;

function detect(): void {
  const bridge = (window as unknown as { api?: BrainBridge }).api;
  if (bridge && typeof bridge.invoke === 'function') {
    transport = electronTransport(bridge);
    return;
  }
  const token = takeTokenFromLocation();
  if (!token) {
    startupProblem = {
      title: 'This page needs its link',
      message:
        'Open the address that `brain serve` printed, including its #token=… part. Each launch prints a new one.',
    };
    return;
  }
  transport = browserTransport(token);
}

/** Chooses the transport; call once before rendering. Returns why the app cannot start, if it cannot. */
export function startApi(): StartupProblem | null {
  if (!transport && !startupProblem) detect();
  return startupProblem;
}

/**
 * Puts `next` in place of the transport startApi() would pick (null: none). The component tests stand a
 * fake engine behind the real components this way (src/renderer/src/test/fake-transport.ts).
 */
export function installTransport(next: Transport | null): void {
  transport = next;
  startupProblem = null;
}

function current(): Transport {
  if (!transport)
    throw new AppError('engine-unavailable', startupProblem?.message ?? 'The app is not connected.');
  return transport;
}

/** Calls a command and returns its Result envelope (never throws). */
export async function callResult<N extends CommandName>(
  name: N,
  ...args: InputArgs<N>
): Promise<Result<Outputs[N]>> {
  if (!transport) {
    return {
      ok: false,
      error: { code: 'engine-unavailable', message: startupProblem?.message ?? 'Not connected.' },
    };
  }
  try {
    return (await transport.invoke(name, args[0])) as Result<Outputs[N]>;
  } catch (err) {
    return {
      ok: false,
      error: { code: 'internal', message: err instanceof Error ? err.message : String(err) },
    };
  }
}

/** Calls a command; throws an AppError with the host's code and message on failure. */
export async function call<N extends CommandName>(name: N, ...args: InputArgs<N>): Promise<Outputs[N]> {
  const result = await callResult(name, ...args);
  if (!result.ok) throw new AppError(result.error.code, result.error.message, result.error.details);
  return result.data;
}

/** Subscribes to an app event; returns the unsubscribe function. */
export function subscribe<E extends EventName>(event: E, cb: Listener<E>): () => void {
  if (!transport) return () => {};
  return transport.on(event, cb);
}

/** Browser host only: follows the event stream's connection. */
export function onConnection(cb: (state: ConnectionState) => void): () => void {
  return transport?.onConnection?.(cb) ?? (() => {});
}

/** A file from a drop or a file picker, with its path relative to what was dropped. */
export type DroppedFile = { file: File; path: string };

const UPLOAD_CONCURRENCY = 3;
/** Electron's files.add takes at most 10,000 paths a call (the contract's limit). */
const ADD_BATCH = 10_000;

/**
 * Adds dropped files: by OS path in Electron (files.add), by upload to the browser host. Every file ends
 * up in the merged report: added, unchanged, or refused with its reason.
 */
export async function addDroppedFiles(
  files: readonly DroppedFile[],
  scope?: string,
  onProgress?: (progress: QueueProgress) => void,
): Promise<AddReport> {
  const t = current();
  if (t.kind === 'electron') {
    const paths = files.map((f) => t.pathForFile?.(f.file) ?? '').filter((p) => p !== '');
    const missing = files.filter((f) => !t.pathForFile?.(f.file));
    const reports: AddReport[] = missing.map((f) =>
      refusedReport(f.path, 'The app could not read where this file is.'),
    );
    for (let i = 0; i < paths.length; i += ADD_BATCH) {
      onProgress?.({ done: i, total: paths.length, current: null });
      reports.push(await call('files.add', { paths: paths.slice(i, i + ADD_BATCH), scope }));
    }
    return mergeReports(reports);
  }
  const upload = t.upload;
  if (!upload) throw new AppError('unsupported', 'This transport cannot upload files.');
  onProgress?.({ done: 0, total: files.length, current: files[0]?.path ?? null });
  const reports = await runQueue(
    files,
    UPLOAD_CONCURRENCY,
    async (f) => {
      const result = await upload(f.file, f.path, scope);
      return result.ok ? result.data : refusedReport(f.path, result.error.message);
    },
    (done, total, f) => onProgress?.({ done, total, current: f.path }),
  );
  return mergeReports(reports);
}
