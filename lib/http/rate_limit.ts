// Zulip-compatible rate limiting: a token bucket per user (N requests per minute) whose state is
// reported in X-RateLimit-* headers, and a stricter bucket per address for failed
// authentications and password logins. Over the limit: 429 RATE_LIMIT_HIT with retry-after.
import { ApiError } from '../errors.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #clock: () => number;

  constructor(perMinute: number, clock: () => number) {
    this.#capacity = perMinute;
    this.#refillPerMs = perMinute / 60_000;
    this.#clock = clock;
  }

  #bucket(key: string): Bucket {
    const now = this.#clock();
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      if (this.#buckets.size > 100_000) this.#sweep(now);
      bucket = { tokens: this.#capacity, updatedMs: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.updatedMs) * this.#refillPerMs);
      bucket.updatedMs = now;
    }
    return bucket;
  }

  /** Full buckets carry no information: drop them so memory stays bounded. */
  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.updatedMs) * this.#refillPerMs >= this.#capacity) this.#buckets.delete(key);
    }
  }

  /** Seconds until one token is available again (0 when one is). */
  waitSeconds(key: string): number {
    const bucket = this.#bucket(key);
    return bucket.tokens >= 1 ? 0 : (1 - bucket.tokens) / this.#refillPerMs / 1000;
  }

  /** Takes a token; returns the X-RateLimit-* headers, or throws RATE_LIMIT_HIT. */
  take(key: string): Record<string, string> {
    const bucket = this.#bucket(key);
    if (bucket.tokens < 1) throw rateLimited((1 - bucket.tokens) / this.#refillPerMs / 1000, this.#headers(bucket));
    bucket.tokens -= 1;
    return this.#headers(bucket);
  }

  #headers(bucket: Bucket): Record<string, string> {
    const resetMs = bucket.updatedMs + (this.#capacity - bucket.tokens) / this.#refillPerMs;
    return {
      'X-RateLimit-Limit': String(this.#capacity),
      'X-RateLimit-Remaining': String(Math.max(0, Math.floor(bucket.tokens))),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    };
  }
}

export function rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
  const retryAfter = Math.max(0.001, Math.round(retryAfterSeconds * 1000) / 1000);
  return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', {
    extra: { 'retry-after': retryAfter },
    headers: { ...headers, 'Retry-After': String(Math.ceil(retryAfter)) },
  });
}

/** API-key failures and password logins are counted apart: logging in must not lock out API keys. */
export type AuthKind = 'api_key' | 'password';

export interface RateLimiter {
  /** Per-user request limit; returns headers for the response. */
  user(userId: number): Record<string, string>;
  /** Throws when the address used up its authentication attempts of this kind. */
  checkAuthAllowed(ip: string, kind?: AuthKind): void;
  /** Counts a failed API-key authentication, or a password login attempt, of the address. */
  noteAuthAttempt(ip: string, kind?: AuthKind): void;
}

export function createRateLimiter(
  options: { requestsPerMinute?: number; authAttemptsPerMinute?: number },
  clock: () => number,
): RateLimiter | undefined {
  const perMinute = options.requestsPerMinute ?? 0;
  const authPerMinute = options.authAttemptsPerMinute ?? (perMinute > 0 ? Math.max(5, Math.ceil(perMinute / 10)) : 0);
  if (perMinute <= 0 && authPerMinute <= 0) return undefined;
  const users = perMinute > 0 ? new TokenBuckets(perMinute, clock) : undefined;
  const addresses = authPerMinute > 0 ? new TokenBuckets(authPerMinute, clock) : undefined;
  return {
    user: (userId) => (users ? users.take(String(userId)) : {}),
    checkAuthAllowed(ip, kind = 'api_key') {
      const wait = addresses?.waitSeconds(`${kind} ${ip}`) ?? 0;
      if (wait > 0) throw rateLimited(wait);
    },
    noteAuthAttempt(ip, kind = 'api_key') {
      try {
        addresses?.take(`${kind} ${ip}`);
      } catch {
        // Already exhausted: the next attempt is refused by checkAuthAllowed.
      }
    },
  };
}
