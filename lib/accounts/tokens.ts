// The secrets of the ways in and of the links sent by email: random, URL-safe, and kept only as
// their SHA-256 (a secret drawn from 256 bits needs no slow hash: it cannot be guessed).
import { createHash } from 'node:crypto';
import type { Ctx } from '../context.js';

/** A new secret: 32 random bytes as base64url (43 characters). */
export function newSecret(ctx: Ctx): string {
  return ctx.random(32).toString('base64url');
}

/** What is stored of a secret. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** A secret parley could have made (43 base64url characters): anything else is looked up as nothing. */
export function isSecretShaped(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
