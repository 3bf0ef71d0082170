/**
 * Which embedding model this workspace uses ([R8] in docs/RETRIEVAL.md): a row of `meta` in the
 * replica's database, so every process on the workspace (the app, `brain serve`, each `brain
 * mcp`, the command line) reads the same choice, and the embedder follows it when it changes
 * (src/engine/embed/embedder.ts). A replica's own: vectors of another model that arrive by sync
 * are not searched, and the items are embedded again with this replica's model.
 */
import { DEFAULT_MODEL_ID, EMBEDDING_MODELS, type EmbeddingModelChoice } from '#shared/constants.ts';
import { type Db, stmt, writeTx } from '../db/driver.ts';

const KEY = 'embedding_model';

/** The model id this workspace embeds with: the chosen one, else the English default. */
export function chosenModelId(db: Db): string {
  try {
    const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(KEY) as { value: string } | undefined;
    return row?.value ?? DEFAULT_MODEL_ID;
  } catch {
    // A closed or busy database must not take semantic search down with it.
    return DEFAULT_MODEL_ID;
  }
}

export function chooseModel(db: Db, choice: EmbeddingModelChoice): void {
  writeTx(db, () => {
    stmt(
      db,
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(KEY, EMBEDDING_MODELS[choice].id);
  });
}

/** Items whose vector is not of `modelId`: what switching to it embeds again. */
export function itemsToEmbed(db: Db, modelId: string): number {
  return (
    stmt(
      db,
      `SELECT count(*) AS n FROM items WHERE indexed = 1 AND retired_at IS NULL
         AND (embedded_model IS NULL OR embedded_model != ?)`,
    ).get(modelId) as { n: number }
  ).n;
}
