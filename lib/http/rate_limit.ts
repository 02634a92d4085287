// Zulip-compatible rate limiting: a token bucket per user (N requests per minute) and one for the
// user's long-polls, one per address
// for requests without credentials, stricter ones per address for failed authentications, and one
// per account for password logins (Zulip's authenticate_by_username); their state is reported in
// X-RateLimit-* headers. Over: 429 RATE_LIMIT_HIT.
import { rateLimitHit, type ApiError } from '../errors.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #clock: () => number;

  /** `capacity` tokens, refilled continuously at `capacity` per `windowMs`. */
  constructor(capacity: number, windowMs: number, clock: () => number) {
    this.#capacity = capacity;
    this.#refillPerMs = capacity / windowMs;
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

  /** Fills the bucket again (Zulip clears an account's login history when a login succeeds). */
  clear(key: string): void {
    this.#buckets.delete(key);
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

function rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
  return rateLimitHit(retryAfterSeconds, headers);
}

/**
 * The limits an HTTP request goes through. Each returns the X-RateLimit-* headers of the bucket it
 * used (empty when that limit is off) or throws RATE_LIMIT_HIT carrying them. No limit ever refuses
 * valid credentials because of failures of other accounts: an address's failures only turn its
 * further failures into 429s.
 */
export interface RateLimiter {
  /** Per-user requests (Zulip's api_by_user): takes one. */
  user(userId: number): RateLimitHeaders;
  /**
   * Per-user long-polls (GET /events), from a bucket of the same size kept apart from `user`'s, as
   * Zulip's Tornado process keeps its own buckets (RATE_LIMITING_DOMAINS_FOR_TORNADO): however
   * often other people's events end a user's polls, the user's own requests keep their budget.
   */
  longPoll(userId: number): RateLimitHeaders;
  /** Requests without credentials, per address (Zulip's api_by_ip): takes one. */
  address(ip: string): RateLimitHeaders;
  /** Counts a failed API-key authentication of the address; throws when it had no attempt left. */
  authFailed(ip: string): RateLimitHeaders;
  /**
   * Before a password is checked: takes one of the account's login attempts (Zulip's
   * RateLimitedAuthenticationByUsername), refusing the account while it has none left.
   */
  loginAttempt(account: string): RateLimitHeaders;
  /** A login succeeded: the account's attempts are all given back. */
  loginSucceeded(account: string): void;
  /** Counts a failed password login of the address; throws when it had no attempt left. */
  loginFailed(ip: string): RateLimitHeaders;
}

/** Zulip's RATE_LIMITING_RULES["authenticate_by_username"]: 5 attempts per 30 minutes. */
const LOGIN_WINDOW_MS = 30 * 60_000;
const ZULIP_LOGIN_FAILURES_PER_ACCOUNT = 5;

export function createRateLimiter(
  options: { requestsPerMinute?: number; authAttemptsPerMinute?: number; loginFailuresPerAccount?: number },
  clock: () => number,
): RateLimiter | undefined {
  const perMinute = options.requestsPerMinute ?? 0;
  const authPerMinute = options.authAttemptsPerMinute ?? (perMinute > 0 ? Math.max(5, Math.ceil(perMinute / 10)) : 0);
  const anyOn = perMinute > 0 || authPerMinute > 0;
  const perAccount = options.loginFailuresPerAccount ?? (anyOn ? ZULIP_LOGIN_FAILURES_PER_ACCOUNT : 0);
  if (!anyOn && perAccount <= 0) return undefined;
  const requests = perMinute > 0 ? new TokenBuckets(perMinute, 60_000, clock) : undefined;
  // API-key failures and password-login failures are counted apart, each per address.
  const failures = authPerMinute > 0 ? new TokenBuckets(authPerMinute, 60_000, clock) : undefined;
  const accounts = perAccount > 0 ? new TokenBuckets(perAccount, LOGIN_WINDOW_MS, clock) : undefined;
  return {
    user: (userId) => requests?.take(`user ${userId}`) ?? {},
    longPoll: (userId) => requests?.take(`long-poll ${userId}`) ?? {},
    address: (ip) => requests?.take(`ip ${ip}`) ?? {},
    authFailed: (ip) => failures?.take(`api_key ${ip}`) ?? {},
    loginAttempt: (account) => accounts?.take(accountKey(account)) ?? {},
    loginSucceeded: (account) => accounts?.clear(accountKey(account)),
    loginFailed: (ip) => failures?.take(`password ${ip}`) ?? {},
  };
}

/** Emails are looked up case-insensitively and trimmed: every spelling of one account shares its attempts. */
function accountKey(account: string): string {
  return account.trim().toLowerCase();
}
