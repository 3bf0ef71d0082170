import { z } from 'zod';
import { PULL_MAX_OPS } from '#shared/sync/protocol.ts';

/** `limit` above the maximum is clamped rather than refused: old clients keep working. */
export const PullQuerySchema = z
  .object({
    after: z.coerce.number().int().nonnegative().default(0),
    limit: z.coerce.number().int().positive().default(PULL_MAX_OPS),
    /** The id of the last page the replica committed ([S19]); old clients send none. */
    ack: z.string().min(1).max(100).optional(),
  })
  .strict();
