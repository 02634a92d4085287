// Zulip-compatible rate limiting: a token bucket per user (N requests per minute), one per address
// for requests without credentials, and stricter ones per address for failed authentications and
// password logins; their state is reported in X-RateLimit-* headers. Over: 429 RATE_LIMIT_HIT.
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

  /** The bucket's headers without taking a token; throws RATE_LIMIT_HIT when it has none. */
  peek(key: string): RateLimitHeaders {
    const bucket = this.#bucket(key);
    if (bucket.tokens < 1) throw rateLimited((1 - bucket.tokens) / this.#refillPerMs / 1000, this.#headers(bucket));
    return this.#headers(bucket);
  }

  /** Takes a token; returns the X-RateLimit-* headers, or throws RATE_LIMIT_HIT. */
  take(key: string): RateLimitHeaders {
    const bucket = this.#bucket(key);
    if (bucket.tokens < 1) throw rateLimited((1 - bucket.tokens) / this.#refillPerMs / 1000, this.#headers(bucket));
    bucket.tokens -= 1;
    return this.#headers(bucket);
  }

  #headers(bucket: Bucket): RateLimitHeaders {
    const resetMs = bucket.updatedMs + (this.#capacity - bucket.tokens) / this.#refillPerMs;
    return {
      'X-RateLimit-Limit': String(this.#capacity),
      'X-RateLimit-Remaining': String(Math.max(0, Math.floor(bucket.tokens))),
      'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
    };
  }
}

export type RateLimitHeaders = Record<string, string>;

/** When several limits apply, the strictest is reported (Zulip: least remaining, latest reset). */
export function strictest(a: RateLimitHeaders, b: RateLimitHeaders): RateLimitHeaders {
  if (a['X-RateLimit-Limit'] === undefined) return b;
  if (b['X-RateLimit-Limit'] === undefined) return a;
  const min = (name: string) => String(Math.min(Number(a[name]), Number(b[name])));
  return {
    'X-RateLimit-Limit': min('X-RateLimit-Limit'),
    'X-RateLimit-Remaining': min('X-RateLimit-Remaining'),
    'X-RateLimit-Reset': String(Math.max(Number(a['X-RateLimit-Reset']), Number(b['X-RateLimit-Reset']))),
  };
}

export function rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
  const retryAfter = Math.max(0.001, Math.round(retryAfterSeconds * 1000) / 1000);
  return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', {
    extra: { 'retry-after': retryAfter },
    headers: { ...headers, 'Retry-After': String(Math.ceil(retryAfter)) },
  });
}

/**
 * The limits an HTTP request goes through. Each returns the X-RateLimit-* headers of the bucket it
 * used (empty when that limit is off) or throws RATE_LIMIT_HIT carrying them.
 */
export interface RateLimiter {
  /** Per-user requests (Zulip's api_by_user): takes one. */
  user(userId: number): RateLimitHeaders;
  /** Requests without credentials, per address (Zulip's api_by_ip): takes one. */
  address(ip: string): RateLimitHeaders;
  /** Before an API key is checked: refuses an address that used up its failed attempts. */
  checkAuthAllowed(ip: string): RateLimitHeaders;
  /** Counts a failed API-key authentication of the address. */
  noteAuthFailure(ip: string): RateLimitHeaders;
  /** Counts a password login attempt (POST /fetch_api_key), successful or not; refuses when over. */
  login(ip: string): RateLimitHeaders;
}

export function createRateLimiter(
  options: { requestsPerMinute?: number; authAttemptsPerMinute?: number },
  clock: () => number,
): RateLimiter | undefined {
  const perMinute = options.requestsPerMinute ?? 0;
  const authPerMinute = options.authAttemptsPerMinute ?? (perMinute > 0 ? Math.max(5, Math.ceil(perMinute / 10)) : 0);
  if (perMinute <= 0 && authPerMinute <= 0) return undefined;
  const requests = perMinute > 0 ? new TokenBuckets(perMinute, clock) : undefined;
  // API-key failures and password logins are counted apart: logging in must not lock out API keys.
  const attempts = authPerMinute > 0 ? new TokenBuckets(authPerMinute, clock) : undefined;
  return {
    user: (userId) => requests?.take(`user ${userId}`) ?? {},
    address: (ip) => requests?.take(`ip ${ip}`) ?? {},
    checkAuthAllowed: (ip) => attempts?.peek(`api_key ${ip}`) ?? {},
    noteAuthFailure(ip) {
      try {
        return attempts?.take(`api_key ${ip}`) ?? {};
      } catch (error) {
        // Already exhausted: the next attempt is refused by checkAuthAllowed.
        if (!(error instanceof ApiError)) throw error;
        const { 'Retry-After': _retry, ...headers } = error.headers;
        return headers;
      }
    },
    login: (ip) => attempts?.take(`password ${ip}`) ?? {},
  };
}
