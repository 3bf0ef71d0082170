/**
 * Secrets: device tokens and invitation codes are random, shown once, and stored only as their
 * sha256 (a database leak does not leak credentials). High-entropy secrets need no slow hash.
 */
import { createHash, randomBytes } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function newDeviceToken(): string {
  return `obt_${randomBytes(32).toString('base64url')}`;
}

export function newInviteCode(): string {
  return `obi_${randomBytes(18).toString('base64url')}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
