import { z } from 'zod';

export const HashParamSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex'),
});
