/**
 * Repository trees (docs/TREES.md): the model-free tree index of a Markdown repository. A build
 * parses each document alone (`parseDocument` in parse.ts, stored for incremental builds) and
 * assembles the tree from parsed documents (`assemble` in assemble.ts, changed in place by an
 * incremental build: reassemble.ts), so a whole and an incremental build of one commit store the
 * same rows. These are the names the builder shares with the rest of the engine.
 */
export type { ParsedDocument } from './parsed.ts';
export { PARSED_VERSION } from './parsed.ts';
export { indexablePath } from './paths.ts';
