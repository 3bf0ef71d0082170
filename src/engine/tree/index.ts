/**
 * Repository trees (docs/TREES.md): the model-free tree index of a Markdown repository. A build
 * parses each document alone (`parseDocument`, stored for incremental builds) and assembles the
 * tree from parsed documents (`assembleTree`), so a whole and an incremental build of one commit
 * store the same rows.
 */
export { assembleTree } from './assemble.ts';
export { parseDocument } from './parse.ts';
export type { ParsedDocument } from './parsed.ts';
export { PARSED_VERSION } from './parsed.ts';
export { indexablePath } from './paths.ts';
