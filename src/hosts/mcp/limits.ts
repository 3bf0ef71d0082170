/**
 * Limits of the MCP server's own presentation. The tools' input limits are declared with their
 * operations (src/shared/api/ops), in one place for every surface.
 */
export const MCP_LIMITS = {
  /** brain_read answers at most this many characters; the rest is read by line range. */
  readChars: 50_000,
} as const;

export { DATA_NOT_INSTRUCTIONS } from '#shared/framing-text.ts';
