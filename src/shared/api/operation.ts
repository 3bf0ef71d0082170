/**
 * One operation, declared once for every surface (docs/ARCHITECTURE.md): the app over IPC and the
 * browser host over HTTP (`app`), the `brain` command (`cli`) and the MCP server (`agent`). Each
 * declares its input and output as zod schemas and its limits per surface (agents get k ≤ 8, for
 * one), so a surface never retypes a rule; the engine's command validates with the surface's
 * schema and owns every scope rule. The CLI command and the MCP tool are derived from it.
 */
import type { z } from 'zod';

export type Surface = 'app' | 'cli' | 'agent';

// biome-ignore lint/suspicious/noExplicitAny: the registry holds operations of every input and output type.
type AnyObject = z.ZodObject<any>;

export type Operation<
  I extends AnyObject = AnyObject,
  O extends AnyObject = AnyObject,
  N extends string = string,
> = {
  /** `domain.verb`, the name on every transport. */
  name: N;
  /** One line: the CLI's description, the MCP tool's title. */
  summary: string;
  /** The input on the app's surface; other surfaces may narrow it (same fields, other limits). */
  input: I;
  inputFor?: Partial<Record<Surface, I>>;
  output: O;
  mutates: boolean;
  /** Surfaces that do not offer it (the app has no screen for it, say); all offer it by default. */
  notOn?: readonly Surface[];
  /** The MCP tool it is for agents: its name and what the model reads about it. */
  tool?: { name: string; description: string; idempotent?: boolean };
};

export function defineOperation<I extends AnyObject, O extends AnyObject, const N extends string>(
  op: Operation<I, O, N>,
): Operation<I, O, N> {
  return op;
}

/** The input schema of an operation on a surface: its own limits there, else the app's. */
export function inputOn<I extends AnyObject>(op: Operation<I>, surface: Surface): I {
  return op.inputFor?.[surface] ?? op.input;
}

export function offeredOn(op: Operation, surface: Surface): boolean {
  return !op.notOn?.includes(surface);
}

export type InputOf<O> = O extends Operation<infer I> ? z.input<I> : never;
export type ParsedInputOf<O> = O extends Operation<infer I> ? z.output<I> : never;
export type OutputOf<O> = O extends Operation<AnyObject, infer R> ? z.output<R> : never;

/** The contract entries (input, mutates) and outputs of a list of operations, by name. */
export type EntriesOf<L extends readonly Operation[]> = {
  [O in L[number] as O['name']]: { input: O['input']; mutates: boolean };
};
export type OutputsOf<L extends readonly Operation[]> = {
  [O in L[number] as O['name']]: z.output<O['output']>;
};

export function entriesOf<L extends readonly Operation[]>(ops: L): EntriesOf<L> {
  return Object.fromEntries(ops.map((o) => [o.name, { input: o.input, mutates: o.mutates }])) as EntriesOf<L>;
}
