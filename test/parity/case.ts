/**
 * A row of the parity table (test/parity.test.ts): one operation, one input, the `brain` command
 * line that says the same, run through every surface. Each domain keeps its rows in
 * test/parity/<domain>.cases.ts.
 */
import type { Engine } from '#engine/engine.ts';

export type Case = {
  name: string;
  op: string;
  input: Record<string, unknown>;
  /** The same call as `brain` arguments (`--json` is added). */
  cli: string[];
  /** Fields a write makes anew on each surface (ids of new notes), left out of the comparison. */
  fresh?: string[];
  /** Fields only `brain --json` adds to the answer (`brain inbox`: the review cards too), left out of its comparison. */
  cliOnly?: string[];
};

/** What the rows may use: the workspace home and its engine (one indexed Markdown file about a lease). */
export type ParityWorld = { home: string; engine: Engine; sectionId: string };
