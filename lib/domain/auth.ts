// Who may pass: an API key checked as Zulip's validate_api_key does, in constant time; the account
// rules every way in applies (deactivated accounts, incoming webhook bots); and POST
// /fetch_api_key (email + password). The Caller they produce is lib/domain/callers.ts's.
import type { Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { selectUserByEmail, type UserRow } from '../store/users.js';
import { API_KEY_PATTERN, safeEqual, verifyPassword } from './credentials.js';

// Compared against when no account has the email, so a miss costs the same as a wrong key.
const NO_KEY = 'x'.repeat(32);

// Zulip's bot_type of an incoming webhook bot: it may only post through webhook integrations.
const INCOMING_WEBHOOK_BOT = 2;

/** What the endpoint being called allows beyond active humans and bots. */
export interface CallerRules {
  /** Incoming webhook bots may call it (Zulip: sending messages). */
  allowIncomingWebhooks?: boolean | undefined;
}

/** Zulip's 32 alphanumeric characters, checked before any account is looked up. */
export function apiKeyWellFormed(apiKey: string): boolean {
  return API_KEY_PATTERN.test(apiKey);
}

/** The presented key against the account's (or against nothing, as long, when there is no account). */
export function checkApiKey(apiKey: string, row: UserRow | undefined): boolean {
  const matches = safeEqual(apiKey, row?.api_key ?? NO_KEY);
  return row !== undefined && matches;
}

/** Why an identified account may not call this endpoint, if it may not: the same over every way in. */
export function refusal(row: UserRow, rules: CallerRules): string | undefined {
  if (row.is_active !== 1) return 'Account is deactivated';
  if (row.bot_type === INCOMING_WEBHOOK_BOT && !rules.allowIncomingWebhooks) return 'This API is not available to incoming webhook bots.';
  return undefined;
}

/**
 * The account an email and password sign in as (POST /fetch_api_key, the web client's POST
 * /sessions): Zulip's answers for a wrong pair and for a deactivated account.
 */
export async function passwordAccount(ctx: Ctx, username: string, password: string): Promise<UserRow> {
  const user = selectUserByEmail(ctx.store, username.trim());
  const ok = await verifyPassword(password, user?.password_hash ?? null, () =>
    ctx.logger.warn('unusable password hash: the account cannot log in with a password until one is set again', { user_id: user?.id }),
  );
  if (!user || !ok) {
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  if (user.is_active !== 1) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated');
  return user;
}

/** POST /fetch_api_key. */
export async function fetchApiKey(
  ctx: Ctx,
  input: { username: string; password: string },
): Promise<{ api_key: string; email: string; user_id: number }> {
  const user = await passwordAccount(ctx, input.username, input.password);
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}
