import { NEIGHBORHOOD_EDGES_PER_HOP, NEIGHBORHOOD_ITEMS_PER_HOP } from '../../shared/constants.ts';

/** Limits every MCP tool enforces on the server (zod schemas and checks), whatever the client sends. */
export const MCP_LIMITS = {
  kDefault: 5,
  kMax: 8,
  hopsMax: 2,
  itemsPerHop: NEIGHBORHOOD_ITEMS_PER_HOP,
  edgesPerHop: NEIGHBORHOOD_EDGES_PER_HOP,
  anchorsMax: 4,
  queryChars: 2000,
  messageChars: 8000,
  bodyChars: 20_000,
  labelChars: 300,
  kindChars: 64,
  scopeChars: 80,
  sourceKeyChars: 500,
  idChars: 64,
  nameChars: 200,
  quoteChars: 1000,
  linkTypeChars: 64,
  linkNoteChars: 1000,
  runIdChars: 100,
  workProductsChars: 8000,
  /** brain_read answers at most this many characters; the rest is read by line range. */
  readChars: 50_000,
} as const;

export { DATA_NOT_INSTRUCTIONS } from '../../shared/framing-text.ts';
