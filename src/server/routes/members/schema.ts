import { z } from 'zod';

const UserIdSchema = z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/);
export const UserParamSchema = z.object({ user: UserIdSchema });
