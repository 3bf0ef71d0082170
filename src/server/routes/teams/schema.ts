import { z } from 'zod';

const id = z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/);
export const TeamParamSchema = z.object({ team: id });
export const TeamMemberParamsSchema = z.object({ team: id, user: id });
