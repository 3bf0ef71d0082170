/**
 * Starts the engine in an Electron utilityProcess and relays calls to it, so SQLite, extraction
 * and embedding never block the window or the IPC loop. If the engine process cannot start or
 * dies, every pending and later call gets `engine-unavailable` and the window shows why.
 */
import { join } from 'node:path';
import { safeStorage, type UtilityProcess, utilityProcess } from 'electron';
import type { EngineMessage, MainMessage } from '#engine/host/messages.ts';
import type { BridgeResult } from '#shared/api/bridge.ts';
import type { EventName } from '#shared/api/events.ts';

type Pending = (result: BridgeResult) => void;

export class EngineProcess {
  private child: UtilityProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private dead: string | null = null;
  private stopping = false;
  private readonly ready: Promise<void>;

  constructor(
    entryDir: string,
    env: { home: string; version: string },
    private readonly onEvent: (event: EventName, payload: unknown) => void,
    hooks: {
      /** Also hands the engine's output here (the app log, docs/PACKAGING.md [N12]). */
      onOutput?: (text: string) => void;
      /** Called when the process stops without stop() (src/main/engine-supervisor.ts, [N13]). */
      onExit?: (reason: string) => void;
    } = {},
  ) {
    const { onOutput, onExit } = hooks;
    this.ready = new Promise((resolve) => {
      const child = utilityProcess.fork(join(entryDir, 'engine-host.js'), [], {
        serviceName: 'Org Brain engine',
        stdio: onOutput ? 'pipe' : 'inherit',
        env: { ...process.env, BRAIN_HOME: env.home, BRAIN_APP_VERSION: env.version },
      });
      this.child = child;
      if (onOutput) {
        // The output still reaches this process's own stdout and stderr, as with 'inherit'.
        child.stdout?.on('data', (chunk: Buffer) => {
          process.stdout.write(chunk);
          onOutput(chunk.toString('utf8'));
        });
        child.stderr?.on('data', (chunk: Buffer) => {
          process.stderr.write(chunk);
          onOutput(chunk.toString('utf8'));
        });
      }
      child.on('message', (message: EngineMessage) => {
        if (message.type === 'ready') resolve();
        if (message.type === 'fatal') {
          this.fail(`The engine could not start: ${message.message}`);
          resolve();
        }
        if (message.type === 'event') this.onEvent(message.event, message.payload);
        if (message.type === 'secret') child.postMessage(answerSecret(message) satisfies MainMessage);
        if (message.type === 'result') {
          this.pending.get(message.id)?.(message.result as BridgeResult);
          this.pending.delete(message.id);
        }
      });
      child.on('exit', (code) => {
        const reason = `The engine process stopped (exit code ${code}).`;
        this.fail(reason);
        resolve();
        if (!this.stopping) onExit?.(reason);
      });
    });
  }

  private fail(reason: string): void {
    this.dead ??= reason;
    for (const [id, done] of this.pending) {
      done({ ok: false, error: { code: 'engine-unavailable', message: reason } });
      this.pending.delete(id);
    }
  }

  async invoke(name: string, input: unknown): Promise<BridgeResult> {
    await this.ready;
    if (this.dead || !this.child) {
      return {
        ok: false,
        error: { code: 'engine-unavailable', message: this.dead ?? 'The engine is not running.' },
      };
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child?.postMessage({ type: 'invoke', id, name, input } satisfies MainMessage);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.child || this.dead) return;
    const child = this.child;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve();
      }, 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.postMessage({ type: 'shutdown' } satisfies MainMessage);
    });
  }
}

/** The engine's model key, encrypted and decrypted here with the OS keychain (safeStorage). */
function answerSecret(m: { id: number; op: 'encrypt' | 'decrypt'; data: string }) {
  try {
    if (!safeStorage.isEncryptionAvailable()) throw new Error('the OS keychain is not available');
    const data =
      m.op === 'encrypt'
        ? safeStorage.encryptString(m.data).toString('base64')
        : safeStorage.decryptString(Buffer.from(m.data, 'base64'));
    return { type: 'secret-result' as const, id: m.id, ok: true, data };
  } catch (err) {
    return {
      type: 'secret-result' as const,
      id: m.id,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}
