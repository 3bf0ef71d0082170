/**
 * One reusable extraction worker, fed one job at a time. A job past its timeout, or a worker past
 * its heap limit, gets the thread terminated; the job fails with a plain reason and the next job
 * starts a fresh thread.
 */
import type { Worker } from 'node:worker_threads';
import { EXTRACT_MAX_HEAP_MB, EXTRACT_TIMEOUT_MS } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import { startWorker } from '../processes/worker.ts';
import type { Extraction, PageProgress } from './types.ts';
import type { WorkerReply, WorkerRequest } from './worker-protocol.ts';

export type JobLimits = { timeoutMs?: number; maxHeapMb?: number; onProgress?: (p: PageProgress) => void };

type Job = {
  id: number;
  started: number;
  req: WorkerRequest;
  timeoutMs: number;
  heapMb: number;
  onProgress?: (p: PageProgress) => void;
  resolve: (v: Extraction | string) => void;
  reject: (e: Error) => void;
};

type Slot = { worker: Worker; heapMb: number };

let slot: Slot | null = null;
let active: { job: Job; timer: NodeJS.Timeout } | null = null;
const queue: Job[] = [];
let nextId = 1;
/** However many beats, no job runs longer than this (a 300-page scan at about 6 s a page). */
const MAX_JOB_MS = 30 * 60_000;

function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

function finish(job: Job, outcome: { value: Extraction | string } | { error: Error }): void {
  if (active?.job !== job) return;
  clearTimeout(active.timer);
  active = null;
  slot?.worker.unref();
  if ('error' in outcome) job.reject(outcome.error);
  else job.resolve(outcome.value);
  dispatch();
}

/** Drops the current thread (terminating it) and fails the job it was running. */
function kill(error: Error): void {
  const dead = slot;
  slot = null;
  void dead?.worker.terminate();
  if (active) finish(active.job, { error });
}

function onMessage(reply: WorkerReply): void {
  const job = active?.job;
  if (!job || job.id !== reply.id) return;
  if ('beat' in reply) {
    restartTimer(job);
    try {
      if (reply.progress) job.onProgress?.(reply.progress);
    } catch {
      // A listener's failure is its own: the extraction goes on.
    }
  } else if (reply.ok) finish(job, { value: reply.value });
  else finish(job, { error: new AppError(reply.error.code, reply.error.message, reply.error.details) });
}

function spawn(heapMb: number): Slot {
  const worker = startWorker('extract-worker', {
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
  const mine: Slot = { worker, heapMb };
  worker.on('message', (reply: WorkerReply) => {
    if (slot === mine) onMessage(reply);
  });
  worker.on('error', (err: Error & { code?: string }) => {
    if (slot !== mine) return;
    const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const message = oom
      ? `needed more than ${heapMb} MB of memory to read; gave up`
      : `the reader crashed: ${err.message.slice(0, 200)}`;
    kill(new AppError(oom ? 'refused' : 'internal', message));
  });
  worker.on('exit', (code) => {
    if (slot === mine) kill(new AppError('internal', `the reader stopped unexpectedly (exit code ${code})`));
  });
  return mine;
}

function jobTimer(job: Job): NodeJS.Timeout {
  return setTimeout(() => {
    kill(new AppError('refused', `took longer than ${seconds(job.timeoutMs)} s to read; gave up`));
  }, job.timeoutMs);
}

/** A beat gives the job another `timeoutMs`, up to MAX_JOB_MS in all (docs/OCR.md [O4]). */
function restartTimer(job: Job): void {
  if (!active || active.job !== job || Date.now() - job.started > MAX_JOB_MS) return;
  clearTimeout(active.timer);
  active.timer = jobTimer(job);
}

function dispatch(): void {
  if (active || queue.length === 0) return;
  const job = queue.shift()!;
  job.started = Date.now();
  if (slot && slot.heapMb !== job.heapMb) {
    void slot.worker.terminate();
    slot = null;
  }
  slot ??= spawn(job.heapMb);
  slot.worker.ref();
  active = { job, timer: jobTimer(job) };
  // The bytes are a private copy (see runInWorker), so they can be moved instead of cloned.
  slot.worker.postMessage({ ...job.req, id: job.id }, [job.req.bytes.buffer as ArrayBuffer]);
}

export function runInWorker(req: WorkerRequest, limits: JobLimits = {}): Promise<Extraction | string> {
  return new Promise((resolve, reject) => {
    queue.push({
      id: nextId++,
      started: 0,
      // A copy, never a view: Buffer#slice shares memory, and the copy's buffer is transferred.
      req: { ...req, bytes: new Uint8Array(req.bytes) },
      timeoutMs: limits.timeoutMs ?? EXTRACT_TIMEOUT_MS,
      heapMb: limits.maxHeapMb ?? EXTRACT_MAX_HEAP_MB,
      ...(limits.onProgress ? { onProgress: limits.onProgress } : {}),
      resolve,
      reject,
    });
    dispatch();
  });
}

export async function closeWorkers(): Promise<void> {
  const closing = new AppError('engine-unavailable', 'the ingest workers were shut down');
  for (const job of queue.splice(0)) job.reject(closing);
  const dead = slot;
  slot = null;
  if (active) {
    clearTimeout(active.timer);
    active.job.reject(closing);
    active = null;
  }
  if (dead) await dead.worker.terminate();
}
