/**
 * A transport for component tests: the same interface the app's two transports implement
 * (src/renderer/src/lib/transport.ts), answering each command from a canned handler instead of the
 * engine, recording every call, and pushing events when a test says so. The engine itself is covered by
 * its own suites; here only the renderer is under test.
 */
import type { CommandName, Inputs, Outputs } from '#shared/api/contract.ts';
import type { EventName, Events } from '#shared/api/events.ts';
import { AppError, type ErrorCode } from '#shared/errors.ts';
import type { Listener, Result, Transport } from '../lib/transport.ts';

type Handler<N extends CommandName> = (input: Inputs[N]) => Outputs[N] | Promise<Outputs[N]>;
export type Handlers = { [N in CommandName]?: Handler<N> };
type Call = { name: string; input: unknown };

export type FakeTransport = Transport & {
  /** Every command the components called, in order. */
  readonly calls: readonly Call[];
  /** The inputs of every call of one command. */
  inputsOf<N extends CommandName>(name: N): Inputs[N][];
  /** Answers `name` with `handler` from now on. */
  answer<N extends CommandName>(name: N, handler: Handler<N>): void;
  /** Fails `name` with this error from now on, as the host would send it. */
  fail(name: CommandName, code: ErrorCode, message: string): void;
  /** Pushes an event to every subscriber, as the engine would. */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
};

function errorResult(code: ErrorCode, message: string): Result<unknown> {
  return { ok: false, error: { code, message } };
}

export function fakeTransport(handlers: Handlers = {}): FakeTransport {
  const table = new Map<string, (input: unknown) => unknown>(
    Object.entries(handlers) as [string, (input: unknown) => unknown][],
  );
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const calls: Call[] = [];

  return {
    kind: 'browser',
    calls,
    async invoke(name, input) {
      calls.push({ name, input });
      const handler = table.get(name);
      if (!handler) return errorResult('not-found', `The test gave no answer for ${name}.`);
      try {
        return { ok: true, data: await handler(input) };
      } catch (err) {
        if (err instanceof AppError) return errorResult(err.code, err.message);
        return errorResult('internal', err instanceof Error ? err.message : String(err));
      }
    },
    on<E extends EventName>(event: E, cb: Listener<E>) {
      const set = listeners.get(event) ?? new Set();
      const wrapped = cb as (payload: unknown) => void;
      set.add(wrapped);
      listeners.set(event, set);
      return () => {
        set.delete(wrapped);
      };
    },
    inputsOf<N extends CommandName>(name: N) {
      return calls.filter((c) => c.name === name).map((c) => c.input as Inputs[N]);
    },
    answer(name, handler) {
      table.set(name, handler as (input: unknown) => unknown);
    },
    fail(name, code, message) {
      table.set(name, () => {
        throw new AppError(code, message);
      });
    },
    emit(event, payload) {
      for (const cb of listeners.get(event) ?? []) cb(payload);
    },
  };
}
