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

// Verified against when the account does not exist, so both paths take the same time.
const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, expected] = parts as [string, string, string, string, string, string];
  const want = Buffer.from(expected, 'base64');
  const got = await scryptAsync(password, Buffer.from(salt, 'base64'), want.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(got, want) && stored !== null;
}
