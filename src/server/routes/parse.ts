/** Request validation with the protocol's zod schemas: a malformed request is a 400 with the reason. */
import { type ZodType, z } from 'zod';
import { badRequest } from '../errors.ts';

export function parseWith<T>(schema: ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`Malformed ${what}: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** A Fastify path pattern from a protocol route builder: `routePattern(ROUTES.revoke, 'user')`. */
export function routePattern(build: (value: string) => string, name: string): string {
  const marker = `__${name}__`;
  return build(marker).replace(marker, `:${name}`);
}
