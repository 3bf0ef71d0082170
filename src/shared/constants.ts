/** The product's numbers (docs/PRODUCT.md); every surface reads them from here. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
export const SECTION_MAX_CHARS = 1000;
export const SECTION_OVERLAP_CHARS = 100;
export const EMBED_BATCH = 100;
export const EMBED_MAX_CHARS = 2000;
export const EMBED_DIM = 384;
export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
export const MULTILINGUAL_MODEL_ID = 'Xenova/paraphrase-multilingual-MiniLM-L12-v2';
/**
 * The embedding models a workspace can choose ([R8] in docs/RETRIEVAL.md): both 384 dimensions,
 * mean pooled, no prefixes, so either fills the same vector table.
 */
export const EMBEDDING_MODELS = {
  english: { id: DEFAULT_MODEL_ID, name: 'English', about: 'English text; about 90 MB' },
  multilingual: {
    id: MULTILINGUAL_MODEL_ID,
    name: 'Multilingual',
    about: 'more than 50 languages, German, Japanese and Chinese among them; about 470 MB',
  },
} as const;
export type EmbeddingModelChoice = keyof typeof EMBEDDING_MODELS;
export const EMBEDDING_MODEL_CHOICES = Object.keys(EMBEDDING_MODELS) as EmbeddingModelChoice[];
export const STREAM_ROWS = 50;
export const RRF_K = 60;
/**
 * What a keyword match of a whole file's row (its title and opening) votes in the fusion, against
 * 1 for a section's ([R10] in docs/RETRIEVAL.md).
 */
export const KEYWORD_FILE_VOTE = 0.5;
export const FRESHNESS_HALF_LIFE_DAYS = 90;
export const FRESHNESS_FLOOR = 0.25;
export const SEARCH_K_DEFAULT = 5;
export const SEARCH_K_MAX_AGENT = 8;
export const SEARCH_K_MAX_CLI = 100;
export const BODY_MAX_CHARS = 4000;
/** How long a writer waits for another process's write lock before failing clearly. */
export const WRITE_LOCK_TIMEOUT_MS = 10_000;
/** Bounds for extracting one file (a worker thread that is killed past them). */
export const EXTRACT_TIMEOUT_MS = 120_000;
export const EXTRACT_MAX_HEAP_MB = 1536;
/** brain_neighborhood and the graph view: per hop, at most this many new items and edges. */
export const NEIGHBORHOOD_ITEMS_PER_HOP = 50;
export const NEIGHBORHOOD_EDGES_PER_HOP = 100;

/** The most languages one OCR run reads at once: each one more slows every page (docs/OCR.md [O2]). */
export const OCR_LANGUAGES_MAX = 3;
