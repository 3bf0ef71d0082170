/**
 * A file "Read by OCR" (docs/OCR.md [O9]): every page read by OCR, its text layer ignored, on every
 * index of it until it is turned off. Local to this replica like index_error: not a synced column
 * (src/engine/sync/outbox.ts), so no sync trigger fires on it; the sections it gives carry the
 * mark in their locators (`forced`), which is all read-back needs on any replica.
 */
export const sql = `
ALTER TABLE items ADD COLUMN read_by_ocr INTEGER NOT NULL DEFAULT 0;
`;
