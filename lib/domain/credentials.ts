// Secrets: API keys (Zulip's 32 alphanumeric characters) and scrypt password hashes. Keys are
// compared in constant time; nothing here logs or returns a secret except to its owner.
import { scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;

/** 32 characters drawn uniformly from [A-Za-z0-9] (rejection sampling keeps it unbiased). */
export function generateApiKey(random: (size: number) => Buffer): string {
  let key = '';
  while (key.length < 32) {
    for (const byte of random(48)) {
      if (byte < 248 && key.length < 32) key += ALPHANUMERIC[byte % 62];
    }
  }
  return key;
}

/** Constant-time equality of two strings of possibly different lengths. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string, random: (size: number) => Buffer): Promise<string> {
  const salt = random(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

// Verified against when the account does not exist, or its hash is unusable, so every path takes the same time.
const DUMMY = { salt: Buffer.alloc(16), digest: Buffer.alloc(SCRYPT.keylen) };

// Only the parameters parley writes are accepted: the cost is fixed, and an empty or short digest
// (which would match any password) or a salt of another size never matches.
const PARLEY_HASH = new RegExp(`^scrypt\\$${SCRYPT.N}\\$${SCRYPT.r}\\$${SCRYPT.p}\\$([A-Za-z0-9+/]{22}==)\\$([A-Za-z0-9+/]{43}=)$`);

/** Salt and digest of a hash parley wrote, or undefined for anything else. */
function parseHash(stored: string): { salt: Buffer; digest: Buffer } | undefined {
  const match = PARLEY_HASH.exec(stored);
  if (!match) return undefined;
  const salt = Buffer.from(match[1]!, 'base64');
  const digest = Buffer.from(match[2]!, 'base64');
  return salt.length === 16 && digest.length === SCRYPT.keylen ? { salt, digest } : undefined;
}

/**
 * Whether the password matches the stored hash. No hash (no account, no password) never matches;
 * neither does a hash parley did not write, which is reported through `onUnusable`.
 */
export async function verifyPassword(password: string, stored: string | null, onUnusable: () => void = () => {}): Promise<boolean> {
  const parsed = stored === null ? undefined : parseHash(stored);
  if (stored !== null && parsed === undefined) onUnusable();
  const { salt, digest } = parsed ?? DUMMY;
  const got = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return timingSafeEqual(got, digest) && parsed !== undefined;
}
