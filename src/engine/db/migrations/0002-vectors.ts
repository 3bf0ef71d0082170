/**
 * Vectors live in sqlite-vec: one float32 column for exact rescoring and one binary-quantized
 * column for a fast first pass. The stream (file / section / note, entities join notes) is the
 * partition key; scope and model are metadata columns, so both filter inside the KNN query.
 */
export const sql = `
CREATE VIRTUAL TABLE vec_items USING vec0 (
  item_rowid INTEGER PRIMARY KEY,
  stream TEXT PARTITION KEY,
  scope TEXT,
  model TEXT,
  embedding float[384] distance_metric=cosine,
  embedding_bq bit[384]
);
`;
